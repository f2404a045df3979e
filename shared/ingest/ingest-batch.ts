/**
 * Ingest one data batch into the stores.
 *
 * Input: the batch's kind (USPTO daily XML, TSDR status XML, canonical mark JSONL, TRO CSV), its bytes as a
 * stream, and what the file itself does not say (market, data date, source, CN coverage).
 * Output: a summary (records read, written, unchanged, stale, rejected) and whether the batch is complete.
 *
 *  1. Take the lock of the market and kind (one ingest at a time), record the batch as running.
 *  2. Parse the stream record by record; a bad record goes to the rejects with its line and never stops the batch.
 *  3. Write good records in chunks (the mark store keeps the newest batch per serial; unchanged content is skipped).
 *  4. Add the keys of the written marks to the market's key filter (rebuilt from the store when it is full).
 *  5. Record the batch complete only after every write succeeded; a file that breaks off (corrupt XML, a cut gzip)
 *     or a store that fails leaves it running, and running the batch again finishes it.
 *  6. Release the lock.
 */
import { parseMarkJsonl } from '../marks/cn-jsonl';
import type { Market, MarkRecord, ParsedMark } from '../marks/mark-record';
import { readTroList } from '../marks/tro-csv';
import { parseTsdrStatusXml } from '../marks/tsdr-status-xml';
import { parseUsptoDailyXml } from '../marks/uspto-daily-xml';
import { KeyFilter } from '../marks/key-filter';
import type { CoverageRecord, DataBatchStore, DataKind, KeyFilterStore, MarkStore, TroStore } from '../ports';

export const BATCH_KINDS = ['uspto-daily', 'tsdr', 'marks-jsonl', 'tro'] as const;
export type BatchKind = (typeof BATCH_KINDS)[number];

export interface IngestRequest {
  kind: BatchKind;
  market: Market;
  input: NodeJS.ReadableStream;
  /** YYYY-MM-DD: the date the data is as of. */
  batchDate: string;
  /** Where the batch came from, e.g. the file name or the S3 key. */
  source: string;
  coverage?: CoverageRecord;
  /** Who runs it, for the lock (e.g. host and process id, or the Lambda request id). */
  holder: string;
  chunkSize?: number;
  /** Called after every chunk; when it returns a promise, ingest waits for it. */
  onProgress?: (progress: IngestCounts) => void | Promise<void>;
  onReject?: (reject: IngestReject) => void;
}

export interface IngestCounts {
  read: number;
  written: number;
  unchanged: number;
  stale: number;
  rejected: number;
}

export interface IngestReject {
  line: number;
  serial?: string;
  error: string;
}

export interface IngestSummary extends IngestCounts {
  batchId: string;
  complete: boolean;
  /** Why the batch could not complete, when it did not. */
  failure?: string;
}

export interface IngestStores {
  marks: MarkStore;
  tro: TroStore;
  batches: DataBatchStore;
  keyFilters: KeyFilterStore;
  now: () => Date;
}

const LOCK_SECONDS = 15 * 60;
/**
 * Records per chunk. A chunk's key items are read and written once however many of its records share them, and
 * its DynamoDB calls go out together, so big chunks are cheaper; memory holds two (one parsing, one writing).
 */
const DEFAULT_CHUNK_SIZE = 1000;
const MIN_FILTER_CAPACITY = 10_000;

function dataKindOf(kind: BatchKind): DataKind {
  return kind === 'tro' ? 'tro' : 'marks';
}

/** Batch ids start with the data date, so the newest batch of a scope sorts first. */
export function batchIdOf(batchDate: string, source: string): string {
  return `${batchDate}#${source}`;
}

async function* recordsOf(request: IngestRequest): AsyncGenerator<ParsedMark> {
  const options = { batchDate: request.batchDate, source: request.source };
  switch (request.kind) {
    case 'uspto-daily':
      yield* parseUsptoDailyXml(request.input, options);
      return;
    case 'marks-jsonl':
      yield* parseMarkJsonl(request.input, { ...options, market: request.market });
      return;
    case 'tsdr': {
      const chunks: Buffer[] = [];
      for await (const chunk of request.input) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
      const parsed = await parseTsdrStatusXml(Buffer.concat(chunks), options);
      yield parsed.ok ? { ok: true, record: parsed.record, line: 1, duplicate: false } : { ok: false, error: parsed.error, line: 1, serial: parsed.serial };
      return;
    }
    default:
      throw new Error(`not a mark batch: ${request.kind}`);
  }
}

export async function ingestBatch(stores: IngestStores, request: IngestRequest): Promise<IngestSummary> {
  if (request.market === 'CN' && request.kind !== 'tro' && !request.coverage) {
    throw new Error('a CN batch needs its coverage record (country, source, partial, coverage_note)');
  }
  const kind = dataKindOf(request.kind);
  const batchId = batchIdOf(request.batchDate, request.source);
  const counts: IngestCounts = { read: 0, written: 0, unchanged: 0, stale: 0, rejected: 0 };
  const reject = (r: IngestReject) => {
    counts.rejected++;
    request.onReject?.(r);
  };

  await stores.batches.acquireLock(request.market, kind, request.holder, stores.now(), LOCK_SECONDS);
  try {
    await stores.batches.begin({
      market: request.market,
      kind,
      batchId,
      source: request.source,
      dataAsOf: request.batchDate,
      startedAt: stores.now().toISOString(),
      ...(request.coverage ? { coverage: request.coverage } : {}),
    });

    let failure: string | undefined;
    try {
      if (request.kind === 'tro') {
        const list = await readTroList(request.input);
        for (const r of list.rejects) reject({ line: r.line, error: r.error });
        counts.read = list.entries.length + list.rejects.length;
        counts.written = await stores.tro.upsert(list.entries, request.batchDate);
      } else {
        // Written keys go into the filter as each chunk lands (a fixed-size bit array), not into a growing list.
        const filter = await stores.keyFilters.load(request.market);
        const added = { count: 0 };
        await writeMarks(stores, request, counts, reject, (keys) => {
          for (const key of keys) filter?.add(key);
          added.count += keys.length;
        });
        await saveKeyFilter(stores, request.market, filter, added.count);
      }
    } catch (error) {
      failure = (error as Error).message;
    }
    request.onProgress?.(counts);
    if (failure) return { batchId, ...counts, complete: false, failure };
    await stores.batches.complete({ market: request.market, kind, batchId }, { ...counts }, stores.now());
    return { batchId, ...counts, complete: true };
  } finally {
    await stores.batches.releaseLock(request.market, kind, request.holder).catch(() => undefined);
  }
}

/**
 * Parses and writes at once: one chunk is written while the next is parsed. Chunks are written one after another,
 * in file order, so that the later record of a serial still wins.
 */
async function writeMarks(
  stores: IngestStores,
  request: IngestRequest,
  counts: IngestCounts,
  reject: (r: IngestReject) => void,
  onKeys: (keys: readonly string[]) => void,
): Promise<void> {
  const chunkSize = request.chunkSize ?? DEFAULT_CHUNK_SIZE;
  let chunk: MarkRecord[] = [];
  let writing: Promise<void> = Promise.resolve();
  let lockRenewedAt = Date.now();
  const write = async (records: MarkRecord[]) => {
    const result = await stores.marks.upsertMarks(records);
    counts.written += result.written;
    counts.unchanged += result.unchanged;
    counts.stale += result.stale;
    onKeys(result.keys);
    await request.onProgress?.(counts);
    if (Date.now() - lockRenewedAt > 60_000) {
      await stores.batches.acquireLock(request.market, dataKindOf(request.kind), request.holder, stores.now(), LOCK_SECONDS);
      lockRenewedAt = Date.now();
    }
  };
  const flush = async () => {
    if (chunk.length === 0) return;
    const records = chunk;
    chunk = [];
    await writing;
    writing = write(records);
    // A failed write must surface even if parsing is still going on.
    writing.catch(() => undefined);
  };
  try {
    for await (const parsed of recordsOf(request)) {
      counts.read++;
      if (!parsed.ok) {
        reject({ line: parsed.line, serial: parsed.serial, error: parsed.error });
        continue;
      }
      if (parsed.record.market !== request.market) {
        reject({ line: parsed.line, serial: parsed.record.serial, error: `record of market ${parsed.record.market} in a ${request.market} batch` });
        continue;
      }
      chunk.push(parsed.record);
      if (chunk.length >= chunkSize) await flush();
    }
    await flush();
  } finally {
    // Whatever happened while parsing, the write under way finishes (or fails) before the batch is judged.
    await writing;
  }
}

/**
 * The market's filter, with the batch's keys added, is saved while it is within its designed load. Keys of marks
 * that left a key stay in it: a "maybe" costs one lookup and is never wrong. Past that load, or when the market has
 * no filter yet, it is rebuilt from every key in the store in one pass sized from what is known (keys counted by
 * the filter, and added by this batch, each at most once per chunk); only when the store holds more keys than that
 * is it sized again and read a second time.
 */
async function saveKeyFilter(stores: IngestStores, market: Market, loaded: KeyFilter | undefined, added: number): Promise<void> {
  let filter = loaded;
  if (filter && filter.count <= filter.capacity) {
    if (added === 0) return;
  } else {
    let capacity = Math.max(2 * ((filter?.count ?? 0) + added), MIN_FILTER_CAPACITY);
    for (;;) {
      filter = KeyFilter.forCapacity(capacity);
      for await (const key of stores.marks.allKeys(market)) filter.add(key);
      if (filter.count <= filter.capacity) break;
      capacity = 2 * filter.count;
    }
  }
  await stores.keyFilters.save(market, filter);
}
