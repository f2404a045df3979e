/**
 * `npm run image-search -- images/ --out results.csv`: searches every image of a folder through
 * POST /v1/image-search (5 points an image), a few at a time, one result row per image.
 *
 *   1. The folder is read as a stream of names; images (png, jpg, jpeg, webp, gif, svg) go to a small pool.
 *   2. Each call carries an Idempotency-Key made from the run, the file's name and its bytes; 429 and 5xx are
 *      retried. An image the API refuses (unreadable, too large) is written with its error.
 *   3. A row is written and flushed, then the file is recorded in the journal: the same command resumes after an
 *      interruption, skipping recorded files, and a call sent but not recorded is replayed, not charged again.
 * Output: file, serial, mark, score, is_live, degraded, matches (the top ones as "mark [serial] score"), error.
 */
import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { opendir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { BulkRunStoppedError } from './screen-csv';
import { csvLine } from './csv-text';
import { openJournal } from './journal';
import { createProgress } from './progress';
import type { PostJson } from './api-client';

const IMAGE_FILE = /\.(png|jpe?g|webp|gif|svg)$/i;
const MAX_IMAGE_BYTES = 4 * 1024 * 1024;
const HEADER = ['file', 'serial', 'mark', 'score', 'is_live', 'degraded', 'matches', 'error'];

export interface ImageFolderOptions {
  folder: string;
  out: string;
  post: PostJson;
  country?: 'US' | 'CN';
  limit?: number;
  concurrency?: number;
  fresh?: boolean;
  progress?: (text: string) => void;
}

async function* imageNames(folder: string): AsyncGenerator<string> {
  for await (const entry of await opendir(folder)) if (entry.isFile() && IMAGE_FILE.test(entry.name)) yield entry.name;
}

interface Match {
  serial: string;
  mark: string;
  score: number;
  is_live: number;
}

export async function searchImageFolder(
  options: ImageFolderOptions,
): Promise<{ images: number; searched: number; refused: number; rate: number; summary: string }> {
  let total = 0;
  for await (const _ of imageNames(options.folder)) total++;
  const journal = openJournal(options.out, { fresh: options.fresh, input: path.resolve(options.folder) });
  const fd = openSync(options.out, journal.done.size > 0 ? 'a' : 'w');
  let bytes = journal.outputBytes;
  let rows = journal.rows;
  const writeRow = (name: string, fields: unknown[]) => {
    const text = csvLine(fields);
    writeSync(fd, text);
    bytes += Buffer.byteLength(text);
    rows++;
    fsyncSync(fd);
    journal.record({ unit: name, rows, bytes });
  };
  if (journal.done.size === 0) {
    const text = csvLine(HEADER);
    writeSync(fd, text);
    bytes += Buffer.byteLength(text);
  }
  const progress = createProgress({ total, unit: 'images', write: options.progress ?? (() => undefined) });
  let searched = 0;
  let refused = 0;

  const searchOne = async (name: string): Promise<void> => {
    const file = path.join(options.folder, name);
    if ((await stat(file)).size > MAX_IMAGE_BYTES) {
      refused++;
      return writeRow(name, [name, '', '', '', '', '', '', 'larger than 4 MB']);
    }
    const bytesOfImage = await readFile(file);
    const key = createHash('sha256')
      .update(`${journal.runId}\n${name}\n`)
      .update(bytesOfImage)
      .digest('hex')
      .slice(0, 48);
    const body = {
      image_b64: bytesOfImage.toString('base64'),
      country: options.country ?? 'US',
      limit: options.limit ?? 5,
    };
    const answer = await options.post('/v1/image-search', body, { 'Idempotency-Key': `bulk-${key}` });
    const outcome = rowOfAnswer(name, answer);
    if (outcome.searched) searched++;
    else refused++;
    return writeRow(name, outcome.row);
  };

  const names = imageNames(options.folder);
  let stopped: Error | undefined;
  const worker = async () => {
    for (;;) {
      if (stopped) return;
      const next = await names.next();
      if (next.done) return;
      if (!journal.done.has(next.value)) {
        try {
          await searchOne(next.value);
        } catch (error) {
          stopped ??= error as Error;
          return;
        }
      }
      progress.advance(1);
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker));
  } finally {
    closeSync(fd);
    journal.close();
  }
  if (stopped) throw stopped;
  return { images: rows, searched, refused, rate: progress.rate(), summary: progress.finish() };
}

type Answer = Awaited<ReturnType<ImageFolderOptions['post']>>;

/** The CSV row of one image's answer: its matches, or why it was refused; an answer that stops the run throws. */
function rowOfAnswer(name: string, answer: Answer): { searched: boolean; row: unknown[] } {
  if (answer.status === 200) {
    const results = answer.body.results as Match[];
    const top = results[0];
    const matches = results.map((m) => `${m.mark} [${m.serial}] ${m.score.toFixed(3)}`).join(' | ');
    const row = [
      name,
      top?.serial ?? '',
      top?.mark ?? '',
      top ? top.score.toFixed(3) : '',
      top?.is_live ?? '',
      answer.body.degraded,
      matches,
      '',
    ];
    return { searched: true, row };
  }
  if (answer.status === 400 || answer.status === 413 || answer.status === 422) {
    return {
      searched: false,
      row: [name, '', '', '', '', '', '', `${answer.body?.error?.code}: ${answer.body?.error?.message ?? ''}`],
    };
  }
  throw new BulkRunStoppedError(
    `${name} refused (${answer.body?.error?.code ?? answer.status}): ${answer.body?.error?.message ?? ''} Run the same command again to resume.`,
  );
}
