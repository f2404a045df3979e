/**
 * The scheduled data jobs: what each fetches, how often it runs, and when it counts as overdue. The schedules
 * (infra/constructs/data-jobs.ts), the freshness alarms and `GET /v1/status` all read this one list.
 */
import type { Market } from '../marks/mark-record';

export const DATA_JOBS = ['uspto-daily', 'uspto-backfile', 'tro-docket'] as const;
export type DataJobName = (typeof DATA_JOBS)[number];

export interface DataJobDefinition {
  name: DataJobName;
  market: Market;
  /** What the job keeps current, as `GET /v1/status` names it. */
  source: string;
  /** An EventBridge Scheduler expression, or undefined for a job started by hand (the backfile). */
  schedule?: string;
  /** Hours without a successful run after which the job is overdue (and its alarm fires). */
  overdueAfterHours?: number;
}

export const DATA_JOB_DEFINITIONS: Readonly<Record<DataJobName, DataJobDefinition>> = {
  'uspto-daily': {
    name: 'uspto-daily',
    market: 'US',
    source: 'USPTO trademark daily applications (TRTDXFAP)',
    // The portal publishes a day's file early the next morning, US Eastern; two runs a day catch a late file.
    schedule: 'cron(0 9,21 * * ? *)',
    overdueAfterHours: 36,
  },
  'uspto-backfile': {
    name: 'uspto-backfile',
    market: 'US',
    source: 'USPTO trademark annual backfile (TRTYRAP)',
  },
  'tro-docket': {
    name: 'tro-docket',
    market: 'US',
    source: 'CourtListener RECAP dockets: Schedule A trademark cases',
    schedule: 'cron(30 */6 * * ? *)',
    overdueAfterHours: 36,
  },
};

/** One run of a job, as it is recorded when the run ends. */
export interface DataJobRun {
  job: DataJobName;
  startedAt: string;
  finishedAt: string;
  outcome: 'succeeded' | 'failed';
  /** The last data date the job has applied, all days before it included (YYYY-MM-DD). */
  appliedThrough?: string;
  /** What the run did, e.g. files fetched, records written, cases found. */
  detail: Record<string, number | string>;
  /** Why it failed (never a secret: messages are written by the job, not copied from a response body). */
  error?: string;
}

/** What is known of a job across its runs. */
export interface DataJobState {
  job: DataJobName;
  lastAttemptAt?: string;
  lastSuccessAt?: string;
  lastOutcome?: 'succeeded' | 'failed';
  lastError?: string;
  appliedThrough?: string;
  lastDetail?: Record<string, number | string>;
}

export function isOverdue(state: DataJobState | undefined, definition: DataJobDefinition, now: Date): boolean {
  if (definition.overdueAfterHours === undefined) return false;
  if (!state?.lastSuccessAt) return true;
  return now.getTime() - Date.parse(state.lastSuccessAt) > definition.overdueAfterHours * 3_600_000;
}
