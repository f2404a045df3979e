/**
 * The ingest function: S3 object-created events on the data bucket. Each new object under
 * incoming/<kind>/<market>/<YYYY-MM-DD>/<file> is ingested, and a logo batch's manifest
 * (incoming/logos/<market>/<YYYY-MM-DD>/<batch-name>/logos.jsonl) starts that batch; the batch's images only wait
 * to be read by it. A batch that does not complete is thrown, so that the event is retried and, in the end, lands on
 * the dead-letter queue. Coverage sidecars (`*.coverage.json`) are read with their batch.
 */
import { S3Client } from '@aws-sdk/client-s3';
import type { Context, S3Event } from 'aws-lambda';
import { S3BlobStore } from '../../shared/adapters/aws/s3-blob-store';
import { buildAnnouncingDataStores } from '../../shared/composition/batch-events';
import { buildLogoIngest } from '../../shared/composition/logo-search';
import { loadConfig } from '../../shared/config';
import { isCoverageSidecar, isLogoBatchKey, parseBatchKey, parseLogoBatchKey } from '../../shared/ingest/batch-key';
import type { IngestStores, IngestSummary } from '../../shared/ingest/ingest-batch';
import { ingestBlob } from '../../shared/ingest/ingest-blob';
import { ingestLogos, type LogoIngestDeps } from '../../shared/ingest/ingest-logos';
import { createLogger } from '../../shared/observability';
import type { BlobStore } from '../../shared/ports';

export interface IngestEventDeps {
  stores: IngestStores;
  /** What a logo batch is ingested with; without it, a logo manifest fails (and is retried). */
  logos?: LogoIngestDeps;
  blobsOf: (bucket: string) => BlobStore;
  holder: string;
  log: (message: string, data: Record<string, unknown>) => void;
}

/** The batch an object starts, or undefined when the object starts none (what it is has been logged). */
async function ingestObject(deps: IngestEventDeps, bucket: string, key: string): Promise<IngestSummary | undefined> {
  const blobs = deps.blobsOf(bucket);
  if (isLogoBatchKey(key)) {
    const logo = parseLogoBatchKey(key);
    if ('error' in logo) {
      deps.log('ignored object', { bucket, key, reason: logo.error });
      return undefined;
    }
    if (!logo.isManifest) {
      deps.log('logo batch image', { bucket, key, manifest: logo.manifestKey });
      return undefined;
    }
    if (!deps.logos) throw new Error(`logo batch ${key}: this function has no logo ingest`);
    // No coverage sidecar: a CN logo search answers with the coverage record of the CN mark batch.
    return ingestLogos(deps.logos, {
      blobs,
      manifestKey: key,
      market: logo.market,
      batchDate: logo.batchDate,
      source: key,
      holder: deps.holder,
      onReject: (reject) => deps.log('logo line rejected', { bucket, key, ...reject }),
    });
  }
  const parsed = parseBatchKey(key);
  if ('error' in parsed) {
    deps.log('ignored object', { bucket, key, reason: parsed.error });
    return undefined;
  }
  return ingestBlob(deps.stores, {
    blobs,
    key,
    kind: parsed.kind,
    market: parsed.market,
    batchDate: parsed.batchDate,
    source: key,
    holder: deps.holder,
    ...(parsed.market === 'CN' && parsed.kind !== 'tro' ? { coverageKey: `${key}.coverage.json` } : {}),
  });
}

export async function ingestS3Event(event: S3Event, deps: IngestEventDeps): Promise<IngestSummary[]> {
  const summaries: IngestSummary[] = [];
  for (const record of event.Records) {
    const bucket = record.s3.bucket.name;
    const key = decodeURIComponent(record.s3.object.key.replace(/\+/g, ' '));
    if (isCoverageSidecar(key)) continue;
    const summary = await ingestObject(deps, bucket, key);
    if (!summary) continue;
    if (summary.refused) {
      // Refused as a whole (nothing written): a retry would be refused the same way, so the event is not retried.
      deps.log('batch refused', { bucket, key, ...summary });
      summaries.push(summary);
      continue;
    }
    deps.log('batch ingested', { bucket, key, ...summary });
    if (!summary.complete) throw new Error(`batch ${key} did not complete: ${summary.failure}`);
    summaries.push(summary);
  }
  return summaries;
}

let built: Pick<IngestEventDeps, 'stores' | 'logos'> | undefined;
const s3 = new S3Client({});
const logger = createLogger('trademark-risk-ingest');

export async function handler(event: S3Event, context: Context): Promise<void> {
  if (!built) {
    const config = loadConfig();
    const stores = buildAnnouncingDataStores(config);
    built = { stores, logos: buildLogoIngest(config, stores) };
  }
  await ingestS3Event(event, {
    ...built,
    blobsOf: (bucket) => new S3BlobStore(s3, bucket),
    holder: `lambda:${context.awsRequestId}`,
    log: (message, data) => logger.info(message, data),
  });
}
