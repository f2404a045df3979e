/**
 * Ingest a logo batch: a manifest (data/FORMATS.md, "Logo batch manifest") and the image files beside it.
 *
 *  1. Take the market's logo lock. A batch dated before the market's newest complete logo batch is refused as a
 *     whole (`refused` in the summary, nothing written, nothing recorded): the data date of the logos never goes
 *     back, and logos filed under an older date would otherwise be written where the search does not look for
 *     them. Record the batch as running.
 *  2. For each manifest line: the serial must be a mark of the market; the image is read and normalised as a
 *     search image is; every embedder turns it into a vector (the perceptual descriptor always, for the
 *     in-process and degraded search; CLIP too where it is configured). A bad line is rejected with its number.
 *     Lines are prepared a few at a time (IMAGES_IN_FLIGHT images, MARK_LOOKUPS_IN_FLIGHT lookups), up to
 *     READ_AHEAD lines ahead of the one being stored; when `marksReady` is given, the images are prepared at once
 *     and only the mark lookups wait for it.
 *  3. Vectors go into each embedder's index of the market in manifest order: in-process ones as they come (saved
 *     once, at the end), remote ones (S3 Vectors) REMOTE_PUT_BATCH at a time, the most one PutVectors call takes:
 *     one call per design would be a million calls for a register, against a rate of a few calls a second per
 *     index. A line counts as written once every index holds it.
 *  4. The batch is complete only when every line was stored or rejected.
 */
import path from 'node:path';
import { batchIdOf, type Market, type MarkRecord } from '../marks/mark-record';
import { parseLogoManifest } from '../marks/logo-manifest';
import type {
  BlobStore,
  CoverageRecord,
  DataBatchStore,
  Embedder,
  LogoIndexStore,
  LogoMetadata,
  MarkStore,
  NormalizedImage,
  VectorIndex,
} from '../ports';
import type { IngestReject, IngestSummary } from './ingest-batch';
import { concurrencyLimit } from '../async/concurrency';

export interface LogoIngestDeps {
  marks: Pick<MarkStore, 'getMark'>;
  batches: DataBatchStore;
  indexes: LogoIndexStore;
  /** Embedders whose index is remote (S3 Vectors) come with it; the others are kept in the index store. */
  embedders: { embedder: Embedder; remoteIndex?: (market: Market) => VectorIndex }[];
  normalize: (bytes: Buffer) => Promise<NormalizedImage>;
  now: () => Date;
  /** Vectors per put to a remote index (default REMOTE_PUT_BATCH). */
  remotePutBatch?: number;
}

export interface LogoIngestRequest {
  blobs: BlobStore;
  manifestKey: string;
  market: Market;
  batchDate: string;
  source: string;
  holder: string;
  coverage?: CoverageRecord;
  /** Settles once the marks the manifest names are in the store (they may be loading alongside this batch). */
  marksReady?: Promise<unknown>;
  onReject?: (reject: IngestReject) => void;
  onProgress?: (counts: { read: number; written: number; rejected: number }) => void;
}

const LOCK_SECONDS = 15 * 60;
/** Decoding and resizing run off the main thread (sharp), so a few images in flight keep both busy; embedding runs
 * inside the same bound, so a remote embedder never sees more than this many requests at once. */
const IMAGES_IN_FLIGHT = 4;
const MARK_LOOKUPS_IN_FLIGHT = 8;
/** Prepared lines (a vector per embedder each) held ahead of the line being stored. */
const READ_AHEAD = 512;
/** Vectors sent to a remote index in one put: S3 Vectors' limit for one PutVectors call. */
export const REMOTE_PUT_BATCH = 500;

/** A promise that never rejects, so a line prepared ahead cannot fail unobserved if the batch stops early. */
type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };
function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}
function settledValue<T>(settled: Settled<T>): T {
  if (!settled.ok) throw settled.error;
  return settled.value;
}

type PreparedLine =
  | { kind: 'rejected'; reject: IngestReject }
  | {
      kind: 'ready';
      line: number;
      serial: string;
      file: string;
      mark: Promise<Settled<MarkRecord | undefined>>;
      vectors: Promise<Settled<Settled<Float32Array[]>>>;
    };

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** Why a batch older than the logos already served is refused as a whole, or undefined when it is not older. */
async function olderThanServed(
  deps: LogoIngestDeps,
  request: LogoIngestRequest,
  batchId: string,
): Promise<string | undefined> {
  const latest = await deps.batches.latestComplete(request.market, 'logos');
  if (!latest || latest.batchId === batchId || latest.dataAsOf <= request.batchDate) return undefined;
  return (
    `the ${request.market} logos are already as of ${latest.dataAsOf} (batch ${latest.batchId}); a batch dated ` +
    `${request.batchDate} is older. File its logos again under a date on or after ${latest.dataAsOf}.`
  );
}

type IndexItem = { vector: Float32Array; metadata: LogoMetadata };

/**
 * Stores each line's vectors (one per index, in the indexes' order): in an in-process index at once, in a remote one
 * `batch` lines at a time. `onWritten` is told how many lines every index now holds, as they come to hold them.
 */
function lineWriter(
  indexes: readonly { index: VectorIndex; remote: boolean }[],
  batch: number,
  onWritten: (lines: number) => void,
): { store(items: readonly IndexItem[]): Promise<void>; flush(): Promise<void> } {
  const waiting = indexes.map((): IndexItem[] => []);
  const anyRemote = indexes.some(({ remote }) => remote);
  let unsent = 0;
  const flush = async (): Promise<void> => {
    for (const [i, { index, remote }] of indexes.entries()) {
      if (!remote || waiting[i]!.length === 0) continue;
      await index.put(waiting[i]!);
      waiting[i] = [];
    }
    if (unsent > 0) onWritten(unsent);
    unsent = 0;
  };
  return {
    async store(items) {
      for (const [i, { index, remote }] of indexes.entries()) {
        if (remote) waiting[i]!.push(items[i]!);
        else await index.put([items[i]!]);
      }
      unsent++;
      if (!anyRemote || unsent >= batch) await flush();
    },
    flush,
  };
}

export async function ingestLogos(deps: LogoIngestDeps, request: LogoIngestRequest): Promise<IngestSummary> {
  const batchId = batchIdOf(request.batchDate, request.source);
  const counts = { read: 0, written: 0, unchanged: 0, stale: 0, rejected: 0 };
  const reject = (r: IngestReject) => {
    counts.rejected++;
    request.onReject?.(r);
  };
  await deps.batches.acquireLock(request.market, 'logos', request.holder, deps.now(), LOCK_SECONDS);
  try {
    const refused = await olderThanServed(deps, request, batchId);
    if (refused) return { batchId, ...counts, complete: false, refused };
    await deps.batches.begin({
      market: request.market,
      kind: 'logos',
      batchId,
      source: request.source,
      dataAsOf: request.batchDate,
      startedAt: deps.now().toISOString(),
      ...(request.coverage ? { coverage: request.coverage } : {}),
    });
    const indexes = await Promise.all(
      deps.embedders.map(async ({ embedder, remoteIndex }) => ({
        embedder,
        remote: Boolean(remoteIndex),
        index: remoteIndex ? remoteIndex(request.market) : await deps.indexes.load(request.market, embedder),
      })),
    );
    const folder = path.posix.dirname(request.manifestKey);
    const lookUp = concurrencyLimit(MARK_LOOKUPS_IN_FLIGHT);
    const render = concurrencyLimit(IMAGES_IN_FLIGHT);
    const marksReady = request.marksReady ?? Promise.resolve();
    // The outer Settled is the image (a bad one is a rejected line); the inner one the embedders (a failure stops the batch).
    const vectorsOf = (file: string): Promise<Settled<Settled<Float32Array[]>>> =>
      render(async () => {
        const image = await settle(
          (async () =>
            deps.normalize(await readAll(await request.blobs.open(folder === '.' ? file : `${folder}/${file}`))))(),
        );
        return image.ok
          ? {
              ok: true as const,
              value: await settle(Promise.all(indexes.map(({ embedder }) => embedder.embed(image.value)))),
            }
          : image;
      });
    const writer = lineWriter(indexes, deps.remotePutBatch ?? REMOTE_PUT_BATCH, (lines) => {
      counts.written += lines;
      request.onProgress?.(counts);
    });
    const store = async (prepared: PreparedLine): Promise<void> => {
      if (prepared.kind === 'rejected') return reject(prepared.reject);
      const refuse = (error: string) => reject({ line: prepared.line, serial: prepared.serial, error });
      const mark = settledValue(await prepared.mark);
      if (!mark) return refuse(`no mark ${prepared.serial} in the ${request.market} store`);
      const image = await prepared.vectors;
      if (!image.ok) return refuse(`image ${prepared.file}: ${(image.error as Error).message}`);
      const vectors = settledValue(image.value);
      // The mark record is the authority on status and classes; the manifest names the image.
      // Each design of a mark (each image file) is a vector of its own; filing the same file again replaces it.
      const metadata: LogoMetadata = {
        serial: prepared.serial,
        design: prepared.file,
        mark: mark.markText,
        nice: mark.niceClasses,
        isLive: mark.isLive,
      };
      await writer.store(indexes.map((_, i) => ({ vector: vectors[i]!, metadata })));
    };
    let failure: string | undefined;
    try {
      const ahead: PreparedLine[] = [];
      for await (const parsed of parseLogoManifest(await request.blobs.open(request.manifestKey))) {
        counts.read++;
        if (!parsed.ok) {
          ahead.push({
            kind: 'rejected',
            reject: { line: parsed.line, ...(parsed.serial ? { serial: parsed.serial } : {}), error: parsed.error },
          });
        } else {
          const { serial, file } = parsed.logo;
          const mark = settle(marksReady.then(() => lookUp(() => deps.marks.getMark(request.market, serial))));
          ahead.push({ kind: 'ready', line: parsed.line, serial, file, mark, vectors: vectorsOf(file) });
        }
        if (ahead.length >= READ_AHEAD) await store(ahead.shift()!);
      }
      while (ahead.length > 0) await store(ahead.shift()!);
      await writer.flush();
      for (const { embedder, index, remote } of indexes)
        if (!remote) await deps.indexes.save(request.market, embedder, index);
    } catch (error) {
      failure = (error as Error).message;
    }
    if (failure) return { batchId, ...counts, complete: false, failure };
    await deps.batches.complete({ market: request.market, kind: 'logos', batchId }, { ...counts }, deps.now());
    return { batchId, ...counts, complete: true };
  } finally {
    await deps.batches.releaseLock(request.market, 'logos', request.holder).catch(() => undefined);
  }
}
