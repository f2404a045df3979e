/**
 * `npm run screen -- listings.csv --out results.csv`: screens every row of a CSV of listings through
 * POST /v1/batch-screen, 1,000 rows a call, and writes one result row per input row.
 *
 * Input: a CSV with a header row, a `title` column (another with --column) and optionally `nice`.
 *   1. Rows are read as a stream and sent a batch at a time: memory holds one batch, never the file.
 *   2. Each batch carries an Idempotency-Key made from the run and the batch; 429 and 5xx are retried (see
 *      api-client.ts). A title the API refuses (empty, too long, a bad class) is written with its error and the
 *      rest of the batch is sent again without it.
 *   3. A batch's rows are written and flushed, then recorded in the journal: an interrupted run started again with
 *      the same command continues after the last recorded batch, and a batch that was sent but not recorded is
 *      answered from the first call without a second charge.
 * Output: row, title, nice, risk, tro_hit, top_conflict, reasons, error.
 */
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, fsyncSync, openSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse';
import { csvLine } from './csv-text';
import { openJournal } from './journal';
import { createProgress } from './progress';
import type { PostJson } from './api-client';

export const BATCH_SIZE = 1000;
const MAX_TITLE_CHARS = 500;
const HEADER = ['row', 'title', 'nice', 'risk', 'tro_hit', 'top_conflict', 'reasons', 'error'];

export class BulkRunStoppedError extends Error {}

export interface ScreenCsvOptions {
  input: string;
  out: string;
  post: PostJson;
  titleColumn?: string;
  niceColumn?: string;
  batchSize?: number;
  fresh?: boolean;
  /** Where the progress bar goes; nothing when omitted. */
  progress?: (text: string) => void;
}

interface Row {
  row: number;
  title: string;
  nice: string;
}

interface Conflict {
  mark: string;
  reason: string;
  allowlisted?: boolean;
}

function records(file: string) {
  return createReadStream(file).pipe(
    parse({ columns: true, bom: true, skip_empty_lines: true, relax_column_count: true, trim: false }),
  );
}

async function countRows(file: string): Promise<number> {
  let count = 0;
  for await (const _ of records(file)) count++;
  return count;
}

/** A field the API named in a 400, as the index of the item it belongs to. */
function refusedItems(body: {
  error?: { details?: { issues?: { field: string; message: string }[] } };
}): Map<number, string> {
  const out = new Map<number, string>();
  for (const issue of body?.error?.details?.issues ?? []) {
    const match = /^items\[(\d+)\]/.exec(issue.field);
    if (match) out.set(Number(match[1]), `${issue.field.replace(/^items\[\d+\]\.?/, '') || 'item'} ${issue.message}`);
  }
  return out;
}

function reasonsOf(conflicts: Conflict[] | undefined): string {
  return (conflicts ?? []).map((c) => `${c.mark}: ${c.allowlisted ? 'allowlisted (own brand)' : c.reason}`).join(' | ');
}

type ScreenedResult = { risk: string; tro_hit: boolean; top_conflict: string; conflicts?: Conflict[] };

/**
 * One batch: its rows the API cannot take are set aside with their reason (checked here, or named by a 400), the
 * rest sent under an Idempotency-Key made from the run, the batch and its items. Returns the CSV lines in row order.
 */
async function screenBatch(
  post: PostJson,
  batch: { runId: string; index: number; titleColumn: string },
  rows: Row[],
): Promise<{ lines: string[]; refusedRows: number }> {
  const errors = new Map<number, string>();
  rows.forEach((r, i) => {
    if (r.title.trim() === '') errors.set(i, `${batch.titleColumn} is empty`);
    else if ([...r.title].length > MAX_TITLE_CHARS)
      errors.set(i, `${batch.titleColumn} is longer than ${MAX_TITLE_CHARS} characters`);
  });
  const results = new Map<number, ScreenedResult>();
  for (;;) {
    const sent = rows.map((r, i) => ({ r, i })).filter(({ i }) => !errors.has(i));
    if (sent.length === 0) break;
    const items = sent.map(({ r }) => (r.nice.trim() ? { title: r.title, nice: r.nice.trim() } : { title: r.title }));
    const key = createHash('sha256')
      .update(`${batch.runId}\n${batch.index}\n${JSON.stringify(items)}`)
      .digest('hex')
      .slice(0, 48);
    const answer = await post('/v1/batch-screen', { items, detail: true }, { 'Idempotency-Key': `bulk-${key}` });
    if (answer.status === 200) {
      (answer.body.results as ScreenedResult[]).forEach((result, k) => {
        results.set(sent[k]!.i, result);
      });
      break;
    }
    const named = answer.status === 400 ? refusedItems(answer.body) : new Map<number, string>();
    if (named.size === 0) {
      const code = answer.body?.error?.code ?? answer.status;
      throw new BulkRunStoppedError(
        `batch ${batch.index + 1} refused (${code}): ${answer.body?.error?.message ?? ''} Rows before it are written; run the same command again to resume.`,
      );
    }
    for (const [k, message] of named) errors.set(sent[k]!.i, message);
  }
  const lines = rows.map((r, i) => {
    const result = results.get(i);
    return csvLine(
      result
        ? [r.row, r.title, r.nice, result.risk, result.tro_hit, result.top_conflict, reasonsOf(result.conflicts), '']
        : [r.row, r.title, r.nice, '', '', '', '', errors.get(i)],
    );
  });
  return { lines, refusedRows: errors.size };
}

export async function screenCsv(
  options: ScreenCsvOptions,
): Promise<{ rows: number; batches: number; refused: number; rate: number; summary: string }> {
  const titleColumn = options.titleColumn ?? 'title';
  const niceColumn = options.niceColumn ?? 'nice';
  const batchSize = options.batchSize ?? BATCH_SIZE;
  const total = await countRows(options.input);
  const { size, mtimeMs } = statSync(options.input);
  const journal = openJournal(options.out, {
    fresh: options.fresh,
    input: path.resolve(options.input),
    fingerprint: `${size}:${Math.round(mtimeMs)}`,
  });
  const fd = openSync(options.out, journal.done.size > 0 ? 'a' : 'w');
  let bytes = journal.outputBytes;
  let rowsOut = journal.rows;
  const write = (text: string) => {
    writeSync(fd, text);
    bytes += Buffer.byteLength(text);
  };
  if (journal.done.size === 0) write(csvLine(HEADER));
  const progress = createProgress({
    total,
    unit: 'titles',
    write: options.progress ?? (() => undefined),
    alreadyDone: 0,
  });
  let batches = 0;
  let refused = 0;

  const sendBatch = async (index: number, rows: Row[]): Promise<void> => {
    const { lines, refusedRows } = await screenBatch(options.post, { runId: journal.runId, index, titleColumn }, rows);
    for (const line of lines) write(line);
    refused += refusedRows;
    rowsOut += rows.length;
    fsyncSync(fd);
    journal.record({ unit: `batch-${index}`, rows: rowsOut, bytes });
    batches++;
  };

  try {
    let batch: Row[] = [];
    let index = 0;
    let row = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      if (!journal.done.has(`batch-${index}`)) await sendBatch(index, batch);
      progress.advance(batch.length);
      batch = [];
      index++;
    };
    for await (const record of records(options.input) as AsyncIterable<Record<string, string>>) {
      row++;
      if (row === 1 && !(titleColumn in record)) {
        throw new BulkRunStoppedError(
          `${options.input} has no "${titleColumn}" column (columns: ${Object.keys(record).join(', ')}); name it with --column`,
        );
      }
      batch.push({ row, title: record[titleColumn] ?? '', nice: record[niceColumn] ?? '' });
      if (batch.length >= batchSize) await flush();
    }
    await flush();
  } finally {
    closeSync(fd);
    journal.close();
  }
  const rate = progress.rate();
  return { rows: rowsOut, batches, refused, rate, summary: progress.finish() };
}
