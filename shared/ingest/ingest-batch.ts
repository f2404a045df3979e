/**
 * Ingest one data batch into the stores.
 *
 * Input: the batch's kind (USPTO daily XML, TSDR status XML, canonical mark JSONL, TRO CSV), its bytes as a
 * stream, and what the file itself does not say (market, data date, source, CN coverage).
 * Output: a summary (records read, written, unchanged, stale, rejected) and whether the batch is complete.
 *
 *  1. Take the lock of the market and kind (one ingest at a time), record the batch as running.
 *  2. Parse the stream record by record; a bad record goes to the rejects with its line and never stops the batch.
 *  3. Write good records in chunks (the mark store keeps the newest batch per serial; unchanged content is skipped);
 *     the writer files them under their lookup keys at the end of the batch, so a key shared by records of many
 *     chunks is written once. After an interrupted batch, the marks of unfinished batches are filed again first.
 *  4. Add the keys and serials of the written marks to the market's filters. When the filters were sealed (they
 *     hold every key and serial of the store: see MarketFilters), what they have never seen is not read before
 *     it is written; they are unsealed before the first write and sealed again when the batch completes (rebuilt
 *     from the store when they were not sealed or no longer fit).
 *  5. Record the batch complete only after every write succeeded; a file that breaks off (corrupt XML, a cut gzip)
 *     or a store that fails leaves it running, and running the batch again finishes it.
 *  6. Announce the completed batch (stores.events: the watched catalogues are re-screened on it), then release the
 *     lock. An announcement that fails fails the call after the batch is recorded complete: running it again
 *     repeats the batch (nothing changes) and announces it again; consumers take a repeat without harm.
 */
import { parseMarkJsonl } from '../marks/cn-jsonl';
import { batchIdOf, type Market, type MarkRecord, type ParsedMark } from '../marks/mark-record';
import { readTroList } from '../marks/tro-csv';
import { parseTsdrStatusXml } from '../marks/tsdr-status-xml';
import { parseUsptoDailyXml } from '../marks/uspto-daily-xml';
import { GrowingKeyFilter, KeyFilter } from '../marks/key-filter';
import type {
  BatchEvents,
  CoverageRecord,
  DataBatchStore,
  DataKind,
  FilterName,
  KeyFilterStore,
  KnownAbsent,
  MarkBatchWriter,
  MarkStore,
  TroStore,
} from '../ports';

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
  /** Set when the batch was refused as a whole, before anything was written: why (running it again will not help). */
  refused?: string;
}

export interface IngestStores {
  marks: MarkStore;
  tro: TroStore;
  batches: DataBatchStore;
  keyFilters: KeyFilterStore;
  now: () => Date;
  /** Where completed batches are announced; absent: announced nowhere (a tool that loads data no one watches). */
  events?: BatchEvents;
}

export const LOCK_SECONDS = 15 * 60;
/**
 * Records per chunk. A chunk's key items are read and written once however many of its records share them, and
 * its DynamoDB calls go out together, so big chunks are cheaper; memory holds two (one parsing, one writing), a
 * few megabytes each. On the generated 200,000-record file, 4,000 writes 1.68 key items per record where 1,000
 * wrote 1.82 (BENCHMARKS.md, Ingest); 8,000 wrote fewer still but was no faster, DynamoDB Local taking longer
 * over the bigger rounds.
 */
const DEFAULT_CHUNK_SIZE = 4000;
const MIN_FILTER_CAPACITY = 10_000;
/**
 * A first load starts its filters this large (2 MiB of bits each), since how many keys it brings is not known, and
 * saves them compacted to the size their keys need (KeyFilter.compacted): no scan of the store afterwards unless
 * it brings more (a whole register does: its filters grow, and are rebuilt from the store once, at the end).
 */
const FIRST_LOAD_FILTER_CAPACITY = 1_500_000;

function dataKindOf(kind: BatchKind): DataKind {
  return kind === 'tro' ? 'tro' : 'marks';
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
      yield parsed.ok
        ? { ok: true, record: parsed.record, line: 1, duplicate: false }
        : { ok: false, error: parsed.error, line: 1, serial: parsed.serial };
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
    // Asked before this batch is recorded: has anything ever been written to the market's marks?
    const firstBatch = kind === 'marks' && !(await stores.batches.hasBatches(request.market, kind));
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
        const filters = await openFilters(stores, request.market, firstBatch);
        const writer = stores.marks.openBatchWriter(filters.absent ? { absent: filters.absent } : {});
        // Filters that vouch for nothing mean a batch was interrupted since they were sealed: its marks may be
        // stored without their keys (the writer holds joins back), so the marks of every unfinished batch are
        // filed again first. A trusted filter means no batch has been interrupted since the last one completed.
        if (!filters.absent) await writer.refile(request.market, await stores.batches.unfinished(request.market, kind));
        await writeMarks(stores, request, counts, reject, writer, filters);
        await writer.finish();
        await sealFilters(stores, request.market, filters);
      }
    } catch (error) {
      failure = (error as Error).message;
    }
    request.onProgress?.(counts);
    if (failure) return { batchId, ...counts, complete: false, failure };
    await stores.batches.complete({ market: request.market, kind, batchId }, { ...counts }, stores.now());
    await stores.events?.batchCompleted({ market: request.market, kind, batchId, dataAsOf: request.batchDate });
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
  writer: MarkBatchWriter,
  filters: MarketFilters,
): Promise<void> {
  const chunkSize = request.chunkSize ?? DEFAULT_CHUNK_SIZE;
  let chunk: MarkRecord[] = [];
  let writing: Promise<void> = Promise.resolve();
  let lockRenewedAt = Date.now();
  const write = async (records: MarkRecord[]) => {
    const result = await writer.write(records);
    counts.written += result.written;
    counts.unchanged += result.unchanged;
    counts.stale += result.stale;
    // Written keys and serials go into the filters as each chunk lands, before the next chunk asks them.
    for (const key of result.keys) filters.keys?.add(key);
    for (const serial of result.serials) filters.serials?.add(serial);
    await request.onProgress?.(counts);
    if (Date.now() - lockRenewedAt > 60_000) {
      await stores.batches.acquireLock(
        request.market,
        dataKindOf(request.kind),
        request.holder,
        stores.now(),
        LOCK_SECONDS,
      );
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
        reject({
          line: parsed.line,
          serial: parsed.record.serial,
          error: `record of market ${parsed.record.market} in a ${request.market} batch`,
        });
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
 * The market's filters while a batch is written. `keys` holds the lookup keys that have marks (screening reads it
 * to skip absent keys), `serials` the serials in the store. Both say "maybe" for some absent items and never "no"
 * for one that was added; a saved filter is sealed when the ingest that saved it completed, so that nothing was
 * written to the market since. Only when both are sealed (or nothing was ever written to the market) does their
 * "no" mean absent, and `absent` lets the writes skip reading what cannot be there; otherwise everything is read,
 * as it must be after an interrupted batch, and the filters are rebuilt from the store at the end.
 */
export interface MarketFilters {
  keys: GrowingKeyFilter | undefined;
  serials: GrowingKeyFilter | undefined;
  absent: KnownAbsent | undefined;
}

export async function openFilters(stores: IngestStores, market: Market, firstBatch: boolean): Promise<MarketFilters> {
  const [keys, serials] = await Promise.all([
    stores.keyFilters.loadSealed(market, 'keys'),
    stores.keyFilters.loadSealed(market, 'serials'),
  ]);
  const empty = firstBatch && !keys.filter && !serials.filter;
  const trusted = empty || (keys.sealed && serials.sealed);
  const start = (filter: KeyFilter | undefined) =>
    filter
      ? new GrowingKeyFilter(filter)
      : empty
        ? new GrowingKeyFilter(KeyFilter.forCapacity(FIRST_LOAD_FILTER_CAPACITY))
        : undefined;
  const filters: MarketFilters = { keys: start(keys.filter), serials: start(serials.filter), absent: undefined };
  if (trusted && filters.keys && filters.serials) {
    const { keys: keyFilter, serials: serialFilter } = filters;
    filters.absent = {
      key: (_market, key) => !keyFilter.mightContain(key),
      serial: (_market, serial) => !serialFilter.mightContain(serial),
    };
  }
  // From the first write on, the saved filters vouch for nothing until this batch seals them again.
  await Promise.all([
    stores.keyFilters.setSealed(market, 'keys', false),
    stores.keyFilters.setSealed(market, 'serials', false),
  ]);
  return filters;
}

/**
 * After every write succeeded: a trusted filter that still fits its design load is saved at the size its keys need
 * (or only sealed when nothing was added); any other is rebuilt from every key or serial in the store, in one pass sized from what
 * is known (a second pass only when the store holds more than that).
 */
export async function sealFilters(stores: IngestStores, market: Market, filters: MarketFilters): Promise<void> {
  const all: Record<FilterName, () => AsyncIterable<string>> = {
    keys: () => stores.marks.allKeys(market),
    serials: () => stores.marks.allSerials(market),
  };
  for (const name of ['keys', 'serials'] as const) {
    const growing = filters[name];
    const loaded = growing?.single;
    if (filters.absent && loaded && loaded.count <= loaded.capacity) {
      if (loaded.count === growing.startCount) await stores.keyFilters.setSealed(market, name, true);
      else await stores.keyFilters.save(market, loaded.compacted(), { name, sealed: true });
      continue;
    }
    let capacity = Math.max(2 * (growing?.count ?? 0), MIN_FILTER_CAPACITY);
    for (;;) {
      const filter = KeyFilter.forCapacity(capacity);
      for await (const item of all[name]()) filter.add(item);
      if (filter.count <= filter.capacity) {
        await stores.keyFilters.save(market, filter, { name, sealed: true });
        break;
      }
      capacity = 2 * filter.count;
    }
  }
}
