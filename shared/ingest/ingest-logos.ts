/**
 * Ingest a logo batch: a manifest (data/FORMATS.md, "Logo batch manifest") and the image files beside it.
 *
 *  1. Take the market's logo lock; record the batch as running.
 *  2. For each manifest line: the serial must be a mark of the market; the image is read and normalised as a
 *     search image is; every embedder turns it into a vector (the perceptual descriptor always, for the
 *     in-process and degraded search; CLIP too where it is configured). A bad line is rejected with its number.
 *  3. Vectors go into each embedder's index of the market (remote indexes as they come; in-process ones are saved
 *     once, at the end).
 *  4. The batch is complete only when every line was stored or rejected.
 */
import path from 'node:path';
import type { Market } from '../marks/mark-record';
import { parseLogoManifest } from '../marks/logo-manifest';
import type { BlobStore, CoverageRecord, DataBatchStore, Embedder, LogoIndexStore, LogoMetadata, MarkStore, NormalizedImage, VectorIndex } from '../ports';
import { batchIdOf, type IngestReject, type IngestSummary } from './ingest-batch';

export interface LogoIngestDeps {
  marks: Pick<MarkStore, 'getMark'>;
  batches: DataBatchStore;
  indexes: LogoIndexStore;
  /** Embedders whose index is remote (S3 Vectors) come with it; the others are kept in the index store. */
  embedders: { embedder: Embedder; remoteIndex?: (market: Market) => VectorIndex }[];
  normalize: (bytes: Buffer) => Promise<NormalizedImage>;
  now: () => Date;
}

export interface LogoIngestRequest {
  blobs: BlobStore;
  manifestKey: string;
  market: Market;
  batchDate: string;
  source: string;
  holder: string;
  coverage?: CoverageRecord;
  onReject?: (reject: IngestReject) => void;
  onProgress?: (counts: { read: number; written: number; rejected: number }) => void;
}

const LOCK_SECONDS = 15 * 60;

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
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
      deps.embedders.map(async ({ embedder, remoteIndex }) => ({ embedder, remote: Boolean(remoteIndex), index: remoteIndex ? remoteIndex(request.market) : await deps.indexes.load(request.market, embedder) })),
    );
    const folder = path.posix.dirname(request.manifestKey);
    let failure: string | undefined;
    try {
      for await (const parsed of parseLogoManifest(await request.blobs.open(request.manifestKey))) {
        counts.read++;
        if (!parsed.ok) {
          reject({ line: parsed.line, ...(parsed.serial ? { serial: parsed.serial } : {}), error: parsed.error });
          continue;
        }
        const { logo } = parsed;
        const mark = await deps.marks.getMark(request.market, logo.serial);
        if (!mark) {
          reject({ line: parsed.line, serial: logo.serial, error: `no mark ${logo.serial} in the ${request.market} store` });
          continue;
        }
        let image: NormalizedImage;
        try {
          image = await deps.normalize(await readAll(await request.blobs.open(folder === '.' ? logo.file : `${folder}/${logo.file}`)));
        } catch (error) {
          reject({ line: parsed.line, serial: logo.serial, error: `image ${logo.file}: ${(error as Error).message}` });
          continue;
        }
        // The mark record is the authority on status and classes; the manifest names the image.
        const metadata: LogoMetadata = { serial: logo.serial, mark: mark.markText, nice: mark.niceClasses, isLive: mark.isLive };
        for (const { embedder, index } of indexes) await index.put([{ vector: await embedder.embed(image), metadata }]);
        counts.written++;
        request.onProgress?.(counts);
      }
      for (const { embedder, index, remote } of indexes) if (!remote) await deps.indexes.save(request.market, embedder, index);
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
