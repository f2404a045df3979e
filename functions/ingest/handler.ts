/**
 * The ingest function: S3 object-created events on the data bucket. Each new object under
 * incoming/<kind>/<market>/<YYYY-MM-DD>/<file> is ingested; a failure is thrown so that the event is retried and,
 * in the end, lands on the dead-letter queue. Coverage sidecars (`*.coverage.json`) are read with their batch.
 */
import { S3Client } from '@aws-sdk/client-s3';
import type { Context, S3Event } from 'aws-lambda';
import { S3BlobStore } from '../../shared/adapters/aws/s3-blob-store';
import { buildDataStores } from '../../shared/composition-root';
import { loadConfig } from '../../shared/config';
import { isCoverageSidecar, parseBatchKey } from '../../shared/ingest/batch-key';
import type { IngestStores, IngestSummary } from '../../shared/ingest/ingest-batch';
import { ingestBlob } from '../../shared/ingest/ingest-blob';
import { createLogger } from '../../shared/observability';
import type { BlobStore } from '../../shared/ports';

export async function ingestS3Event(
  event: S3Event,
  deps: { stores: IngestStores; blobsOf: (bucket: string) => BlobStore; holder: string; log: (message: string, data: Record<string, unknown>) => void },
): Promise<IngestSummary[]> {
  const summaries: IngestSummary[] = [];
  for (const record of event.Records) {
    const bucket = record.s3.bucket.name;
    const key = decodeURIComponent(record.s3.object.key.replace(/\+/g, ' '));
    if (isCoverageSidecar(key)) continue;
    const parsed = parseBatchKey(key);
    if ('error' in parsed) {
      deps.log('ignored object', { bucket, key, reason: parsed.error });
      continue;
    }
    const summary = await ingestBlob(deps.stores, {
      blobs: deps.blobsOf(bucket),
      key,
      kind: parsed.kind,
      market: parsed.market,
      batchDate: parsed.batchDate,
      source: key,
      ...(parsed.market === 'CN' && parsed.kind !== 'tro' ? { coverageKey: `${key}.coverage.json` } : {}),
      holder: deps.holder,
    });
    deps.log('batch ingested', { bucket, key, ...summary });
    if (!summary.complete) throw new Error(`batch ${key} did not complete: ${summary.failure}`);
    summaries.push(summary);
  }
  return summaries;
}

let stores: IngestStores | undefined;
const s3 = new S3Client({});
const logger = createLogger('trademark-risk-ingest');

export async function handler(event: S3Event, context: Context): Promise<void> {
  stores ??= buildDataStores(loadConfig());
  await ingestS3Event(event, {
    stores,
    blobsOf: (bucket) => new S3BlobStore(s3, bucket),
    holder: `lambda:${context.awsRequestId}`,
    log: (message, data) => logger.info(message, data),
  });
}
