/**
 * Each data job's run as CloudWatch metrics (EMF lines): `DataJobRuns` with the outcome, and `DataJobSucceeded` (1)
 * on success, both by job. The freshness alarm watches DataJobSucceeded: 36 hours without one is an alarm
 * (infra/constructs/data-jobs.ts), and the billing dashboard's freshness widget plots it.
 */
import type { Metrics } from '../observability';
import type { DataJobName } from './jobs';

export const JOB_SUCCEEDED_METRIC = 'DataJobSucceeded';
export const JOB_RUNS_METRIC = 'DataJobRuns';

export function publishJobOutcome(metrics: Metrics, job: DataJobName, outcome: 'succeeded' | 'failed'): void {
  const runs = metrics.singleMetric();
  runs.addDimensions({ job, outcome });
  runs.addMetric(JOB_RUNS_METRIC, 'Count', 1);
  if (outcome === 'succeeded') {
    const succeeded = metrics.singleMetric();
    succeeded.addDimension('job', job);
    succeeded.addMetric(JOB_SUCCEEDED_METRIC, 'Count', 1);
  }
}
