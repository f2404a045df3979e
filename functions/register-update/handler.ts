/**
 * The daily register job (EventBridge Scheduler, twice a day): shared/data-jobs/register-update-job.ts with the
 * portal key from Secrets Manager, the batches bucket for fetched files, and the data tables. A run that leaves a
 * file failed or rejected is recorded and then thrown, so that the scheduler's retry and the alarm see it.
 */
import { S3Client } from '@aws-sdk/client-s3';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { Context } from 'aws-lambda';
import * as z from 'zod';
import { S3BlobStore } from '../../shared/adapters/aws/s3-blob-store';
import { SecretsManagerSource } from '../../shared/adapters/aws/secrets-manager-source';
import { buildAnnouncingDataStores } from '../../shared/composition/batch-events';
import { buildDataJobStore } from '../../shared/composition/data-stores';
import { loadConfig } from '../../shared/config';
import { publishJobOutcome } from '../../shared/data-jobs/job-metrics';
import { runRegisterUpdate, type RegisterJobSummary } from '../../shared/data-jobs/register-update-job';
import { USPTO_PORTAL_ORIGIN, UsptoPortal } from '../../shared/data-jobs/uspto-portal';
import { calendarDateSchema } from '../../shared/marks/mark-record';
import { createLogger, createMetrics } from '../../shared/observability';

/** What the schedule sends (nothing), or an operator's catch-up: `{ "since": "2026-11-01", "until": "2026-11-20" }`. */
const eventSchema = z.object({ since: calendarDateSchema.optional(), until: calendarDateSchema.optional() }).loose();

export const JOB_ENV = {
  batchesBucket: 'BATCHES_BUCKET',
  usptoSecretName: 'USPTO_SECRET_NAME',
  usptoOrigin: 'USPTO_PORTAL_ORIGIN',
} as const;

/** Time kept back from the function's limit: a file is not started with less left than this. */
const FILE_MARGIN_MS = 4 * 60_000;

const logger = createLogger('trademark-risk-register-update');
const s3 = new S3Client({});
const secrets = new SecretsManagerSource(new SecretsManagerClient({}));

export async function handler(event: unknown, context: Context): Promise<RegisterJobSummary> {
  const config = loadConfig();
  const metrics = createMetrics(config.serviceName, config.metricsNamespace);
  const bucket = process.env[JOB_ENV.batchesBucket];
  const secretName = process.env[JOB_ENV.usptoSecretName];
  if (!bucket || !secretName) throw new Error(`${JOB_ENV.batchesBucket} and ${JOB_ENV.usptoSecretName} must be set`);
  const options = eventSchema.parse(event ?? {});
  const summary = await runRegisterUpdate(
    {
      portal: new UsptoPortal({
        apiKey: await secrets.read(secretName),
        origin: process.env[JOB_ENV.usptoOrigin] ?? USPTO_PORTAL_ORIGIN,
      }),
      blobs: new S3BlobStore(s3, bucket),
      stores: buildAnnouncingDataStores(config),
      jobs: buildDataJobStore(config),
      holder: `lambda:${context.awsRequestId}`,
      deadline: Date.now() + context.getRemainingTimeInMillis() - FILE_MARGIN_MS,
      log: (message, data) => logger.info(message, data),
    },
    options,
  ).catch((error: unknown) => {
    publishJobOutcome(metrics, 'uspto-daily', 'failed');
    throw error;
  });
  publishJobOutcome(metrics, 'uspto-daily', summary.outcome);
  logger.info('register update', { ...summary, files: summary.files.length });
  if (summary.outcome === 'failed') {
    const problems = summary.files.filter((f) => f.action === 'failed' || f.action === 'rejected');
    throw new Error(`register update failed: ${problems.map((f) => `${f.fileName}: ${f.reason}`).join('; ')}`);
  }
  return summary;
}
