/**
 * The TRO docket job (EventBridge Scheduler, every six hours): shared/data-jobs/tro-docket-job.ts with the
 * CourtListener token from Secrets Manager (the secret named by COURTLISTENER_SECRET_NAME) and the data tables.
 * Success emits DataJobSucceeded (job=tro-docket); a failed run is recorded, counted and then thrown, so that the
 * scheduler's retry and the freshness alarm see it.
 */
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { Context } from 'aws-lambda';
import { SecretsManagerSource } from '../../shared/adapters/aws/secrets-manager-source';
import { buildAnnouncingDataStores } from '../../shared/composition/batch-events';
import { buildDataJobStore } from '../../shared/composition/data-stores';
import { type AppConfig, loadConfig } from '../../shared/config';
import { CourtListener } from '../../shared/data-jobs/court-listener';
import { publishJobOutcome } from '../../shared/data-jobs/job-metrics';
import { runTroDocketJob, TRO_DOCKET_JOB, type TroDocketSummary } from '../../shared/data-jobs/tro-docket-job';
import { createLogger, createMetrics } from '../../shared/observability';
import type { DataJobStore } from '../../shared/ports';

/**
 * Time kept back from the function's limit: no CourtListener call is started with less left than this (one call's
 * waits on 429, up to 90 s each between its four tries, fit in it).
 */
const CALL_MARGIN_MS = 5 * 60_000;

const logger = createLogger('trademark-risk-tro-docket');
const secrets = new SecretsManagerSource(new SecretsManagerClient({}));

/** The token, or the run recorded failed (the job never started) and the error thrown. */
async function tokenOf(config: AppConfig, jobs: DataJobStore): Promise<string> {
  const startedAt = new Date().toISOString();
  try {
    const name = config.courtListener.secretName;
    if (!name) throw new Error('COURTLISTENER_SECRET_NAME is not set');
    return await secrets.read(name);
  } catch (error) {
    await jobs.recordRun({
      job: TRO_DOCKET_JOB,
      startedAt,
      finishedAt: new Date().toISOString(),
      outcome: 'failed',
      detail: {},
      error: `the CourtListener token: ${(error as Error).message}`,
    });
    throw error;
  }
}

export async function handler(_event: unknown, context: Context): Promise<TroDocketSummary> {
  const config = loadConfig();
  const metrics = createMetrics(config.serviceName, config.metricsNamespace);
  const jobs = buildDataJobStore(config);
  const { baseUrl, courts, maxCallsPerRun } = config.courtListener;
  const summary = await (async () =>
    runTroDocketJob(
      {
        courtListener: new CourtListener({
          token: await tokenOf(config, jobs),
          origin: baseUrl,
          maxCalls: maxCallsPerRun,
        }),
        stores: buildAnnouncingDataStores(config),
        jobs,
        holder: `lambda:${context.awsRequestId}`,
        deadline: Date.now() + context.getRemainingTimeInMillis() - CALL_MARGIN_MS,
        log: (message, data) => logger.info(message, data),
      },
      courts ? { courts } : {},
    ))().catch((error: unknown) => {
    publishJobOutcome(metrics, TRO_DOCKET_JOB, 'failed');
    throw error;
  });
  publishJobOutcome(metrics, TRO_DOCKET_JOB, summary.outcome);
  const { cases: _cases, ...shown } = summary;
  logger.info('tro docket', { ...shown });
  if (summary.outcome === 'failed') throw new Error(`tro docket failed: ${summary.error ?? 'see the run record'}`);
  return summary;
}
