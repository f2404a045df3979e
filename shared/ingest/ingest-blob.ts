/** One batch from a BlobStore (S3 or a folder) through ingestBatch: the common path of the CLI and the Lambda. */
import type { Market } from '../marks/mark-record';
import type { BlobStore } from '../ports';
import { entryExtensionOf } from './batch-key';
import { readCoverage } from './coverage';
import {
  ingestBatch,
  type BatchKind,
  type IngestReject,
  type IngestCounts,
  type IngestStores,
  type IngestSummary,
} from './ingest-batch';
import { openBatch } from './open-batch';

export interface BlobIngest {
  blobs: BlobStore;
  key: string;
  kind: BatchKind;
  market: Market;
  batchDate: string;
  source: string;
  /** The key of the coverage record (CN batches). */
  coverageKey?: string;
  holder: string;
  onProgress?: (counts: IngestCounts) => void;
  onReject?: (reject: IngestReject) => void;
}

export async function ingestBlob(stores: IngestStores, job: BlobIngest): Promise<IngestSummary> {
  const coverage = job.coverageKey ? await readCoverage(await job.blobs.open(job.coverageKey)) : undefined;
  const batch = await openBatch(job.blobs, job.key, entryExtensionOf(job.kind));
  try {
    return await ingestBatch(stores, {
      kind: job.kind,
      market: job.market,
      input: batch.stream,
      batchDate: job.batchDate,
      source: job.source,
      ...(coverage ? { coverage } : {}),
      holder: job.holder,
      onProgress: job.onProgress,
      onReject: job.onReject,
    });
  } finally {
    await batch.close();
  }
}
