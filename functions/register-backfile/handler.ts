/**
 * The steps of the backfile state machine (infra/constructs/data-jobs.ts), one function for all four, each step
 * naming its action: `list` (the parts and the as-of date), `fetch` (one part into the batches bucket), `ingest`
 * (one stored part, as the distributed map's item: the S3 object's Key with the as-of date), `hand-over` (the daily
 * job starts from the as-of date, and the backfile is announced on the data bus as one completed batch: the watched
 * catalogues are re-screened once). shared/data-jobs/backfile.ts holds what each does.
 */
import { S3Client } from '@aws-sdk/client-s3';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { Context } from 'aws-lambda';
import * as z from 'zod';
import { S3BlobStore } from '../../shared/adapters/aws/s3-blob-store';
import { SecretsManagerSource } from '../../shared/adapters/aws/secrets-manager-source';
import { buildBatchEvents } from '../../shared/composition/batch-events';
import { buildDataJobStore, buildDataStores } from '../../shared/composition/data-stores';
import { loadConfig } from '../../shared/config';
import { fetchPart, handOver, ingestPart, planBackfile } from '../../shared/data-jobs/backfile';
import { publishJobOutcome } from '../../shared/data-jobs/job-metrics';
import { USPTO_PORTAL_ORIGIN, UsptoPortal } from '../../shared/data-jobs/uspto-portal';
import { calendarDateSchema } from '../../shared/marks/mark-record';
import { createLogger, createMetrics } from '../../shared/observability';
import { JOB_ENV } from '../register-update/handler';

const partSchema = z.object({
  product: z.string(),
  fileName: z.string(),
  fileSize: z.number().int().nonnegative().optional(),
  dataDate: calendarDateSchema,
  downloadUri: z.url(),
});

export const backfileEventSchema = z.discriminatedUnion('action', [
  // The state machine passes its execution's start instant; an operator may pass a date.
  z.object({
    action: z.literal('list'),
    until: z
      .string()
      .transform((value) => value.slice(0, 10))
      .pipe(calendarDateSchema)
      .optional(),
  }),
  z.object({ action: z.literal('fetch'), part: partSchema }),
  z.object({ action: z.literal('ingest'), key: z.string().min(1), asOf: calendarDateSchema }),
  z.object({
    action: z.literal('hand-over'),
    asOf: calendarDateSchema,
    parts: z.number().int().nonnegative(),
  }),
]);

const logger = createLogger('trademark-risk-register-backfile');
const s3 = new S3Client({});
const secrets = new SecretsManagerSource(new SecretsManagerClient({}));

function setting(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} must be set`);
  return value;
}

async function portal(): Promise<UsptoPortal> {
  return new UsptoPortal({
    apiKey: await secrets.read(setting(JOB_ENV.usptoSecretName)),
    origin: process.env[JOB_ENV.usptoOrigin] ?? USPTO_PORTAL_ORIGIN,
  });
}

export async function handler(event: unknown, context: Context): Promise<unknown> {
  const step = backfileEventSchema.parse(event);
  const config = loadConfig();
  const blobs = new S3BlobStore(s3, setting(JOB_ENV.batchesBucket));
  switch (step.action) {
    case 'list': {
      const plan = await planBackfile(await portal(), step.until ?? new Date().toISOString().slice(0, 10));
      logger.info('backfile plan', { asOf: plan.asOf, parts: plan.parts.length, prefix: plan.prefix });
      return plan;
    }
    case 'fetch': {
      const fetched = await fetchPart({ portal: await portal(), blobs }, step.part);
      logger.info('backfile part fetched', fetched);
      return fetched;
    }
    case 'ingest': {
      const outcome = await ingestPart(
        { blobs, stores: buildDataStores(config), holder: `lambda:${context.awsRequestId}` },
        step.key,
        step.asOf,
      );
      logger.info('backfile part', { ...outcome });
      return outcome;
    }
    case 'hand-over': {
      const events = buildBatchEvents(config);
      await handOver(
        { jobs: buildDataJobStore(config), now: () => new Date(), ...(events ? { events } : {}) },
        step.asOf,
        {
          parts: step.parts,
        },
      );
      publishJobOutcome(createMetrics(config.serviceName, config.metricsNamespace), 'uspto-backfile', 'succeeded');
      logger.info('backfile handed over', { asOf: step.asOf, parts: step.parts });
      return { asOf: step.asOf };
    }
  }
}
