/**
 * `npm run data:update -- [--since YYYY-MM-DD] [--until YYYY-MM-DD] [--job uspto-daily|tro-docket|all]`: the
 * scheduled data jobs run from a laptop, against the tables of a running `npm start` or deployed tables named in
 * the environment (as for the admin CLI). The same code as the scheduled functions; only where credentials and
 * fetched files live differs.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
import { S3Client } from '@aws-sdk/client-s3';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { S3BlobStore } from '../shared/adapters/aws/s3-blob-store';
import { EnvironmentSecretSource } from '../shared/adapters/local/environment-secret-source';
import { FileSystemBlobStore } from '../shared/adapters/local/filesystem-blob-store';
import { buildDataJobStore } from '../shared/composition/data-stores';
import { loadConfig } from '../shared/config';
import { CourtListener, COURTLISTENER_ORIGIN } from '../shared/data-jobs/court-listener';
import { runRegisterUpdate, type RegisterJobSummary } from '../shared/data-jobs/register-update-job';
import { runTroDocketJob, type TroDocketSummary } from '../shared/data-jobs/tro-docket-job';
import { USPTO_PORTAL_ORIGIN, UsptoPortal } from '../shared/data-jobs/uspto-portal';
import { isCalendarDate } from '../shared/marks/mark-record';
import type { WritableBlobStore } from '../shared/ports';
import { announcingStores } from './announcing-stores';
import { resolveEnvironment, targetEnvironment, type EnvironmentSource } from './target-environment';

const HELP = `Usage: npm run data:update -- [options]

Runs the data jobs now, as the schedule would: the USPTO daily register files not yet applied (TRTDXFAP), and the
Schedule A cases of the court dockets (CourtListener).

  --job NAME        uspto-daily, tro-docket or all (default all)
  --since DATE      the first data day to fetch (YYYY-MM-DD); default: from what was last applied, less a week
  --until DATE      the last data day to fetch; default today
  --bucket NAME     keep fetched files in this S3 bucket (a deployed stack's batches bucket); default a local folder
  --files DIR       the local folder for fetched files (default .local/batches)
  --uspto-origin URL           the portal (default ${USPTO_PORTAL_ORIGIN})
  --courtlistener-origin URL   CourtListener (default https://www.courtlistener.com)

A docket run sends at most COURTLISTENER_MAX_CALLS requests (30 by default: CourtListener allows a token 125 a
day, docs/data-jobs.md), courts from COURTLISTENER_COURTS, as the scheduled run does.

Credentials come from the environment, never from a flag: USPTO_API_KEY (api.uspto.gov, X-API-KEY) and
COURTLISTENER_TOKEN. Tables: those of a running \`npm start\`, or deployed ones named in the environment.`;

export const CREDENTIAL_VARIABLES = {
  'uspto-api-key': 'USPTO_API_KEY',
  'courtlistener-token': 'COURTLISTENER_TOKEN',
} as const;

export interface DataUpdateResult {
  register?: RegisterJobSummary;
  docket?: TroDocketSummary;
  failures: string[];
}

export async function runDataUpdateCli(
  argv: string[],
  env: EnvironmentSource,
  out: (line: string) => void,
  runtime: { secretEnv?: NodeJS.ProcessEnv } = {},
): Promise<DataUpdateResult | undefined> {
  const { values: o } = parseArgs({
    args: argv,
    options: {
      job: { type: 'string', default: 'all' },
      since: { type: 'string' },
      until: { type: 'string' },
      bucket: { type: 'string' },
      files: { type: 'string', default: path.join('.local', 'batches') },
      'uspto-origin': { type: 'string', default: USPTO_PORTAL_ORIGIN },
      'courtlistener-origin': { type: 'string', default: COURTLISTENER_ORIGIN },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (o.help) {
    out(HELP);
    return undefined;
  }
  for (const flag of ['since', 'until'] as const) {
    const value = o[flag];
    if (value !== undefined && !isCalendarDate(value)) throw new Error(`--${flag} must be a date written YYYY-MM-DD`);
  }
  if (!['uspto-daily', 'tro-docket', 'all'].includes(o.job))
    throw new Error('--job must be uspto-daily, tro-docket or all');
  const resolved = resolveEnvironment(env);
  const config = loadConfig(resolved);
  const secrets = new EnvironmentSecretSource(CREDENTIAL_VARIABLES, runtime.secretEnv ?? process.env);
  const blobs: WritableBlobStore = o.bucket
    ? new S3BlobStore(new S3Client({}), o.bucket)
    : new FileSystemBlobStore(o.files);
  // Each applied file and docket run is announced (to a running npm start: its watched titles are re-screened).
  const stores = announcingStores(config, resolved, out);
  const jobs = buildDataJobStore(config);
  const result: DataUpdateResult = { failures: [] };

  if (o.job === 'all' || o.job === 'uspto-daily') {
    const register = await runRegisterUpdate(
      {
        portal: new UsptoPortal({ apiKey: await secrets.read('uspto-api-key'), origin: o['uspto-origin'] }),
        blobs,
        stores,
        jobs,
        holder: `data-update:${process.pid}`,
        log: (_message, file) =>
          out(`  ${file.dataDate}  ${file.fileName}  ${file.action}${file.reason ? `: ${file.reason}` : ''}`),
      },
      { ...(o.since ? { since: o.since } : {}), ...(o.until ? { until: o.until } : {}) },
    );
    const written = register.files.reduce((sum, f) => sum + (f.counts?.written ?? 0), 0);
    out(
      `uspto-daily ${register.outcome}: ${register.from} to ${register.to}, ${register.files.length} files, ${written} records written, applied through ${register.appliedThrough ?? 'nothing yet'}`,
    );
    if (register.outcome === 'failed') result.failures.push('uspto-daily');
    result.register = register;
  }
  if (o.job === 'all' || o.job === 'tro-docket') {
    const docket = await runTroDocketJob(
      {
        courtListener: new CourtListener({
          token: await secrets.read('courtlistener-token'),
          origin: o['courtlistener-origin'],
          maxCalls: config.courtListener.maxCallsPerRun,
        }),
        stores,
        jobs,
        holder: `data-update:${process.pid}`,
      },
      config.courtListener.courts ? { courts: config.courtListener.courts } : {},
    );
    const c = docket.counts;
    out(
      `tro-docket ${docket.outcome}: ${docket.from} to ${docket.to}, ${c.newCases} new cases, ${c.marksFlagged} marks flagged, ${c.plaintiffsUnmatched} plaintiffs without marks, ${c.calls} calls${docket.error ? `: ${docket.error}` : ''}`,
    );
    if (docket.outcome === 'failed') result.failures.push('tro-docket');
    result.docket = docket;
  }
  return result;
}

if (require.main === module) {
  runDataUpdateCli(process.argv.slice(2), targetEnvironment, (line) => console.log(line))
    .then((result) => {
      if (result && result.failures.length > 0) process.exitCode = 1;
    })
    .catch((error) => {
      console.error(`error: ${(error as Error).message}`);
      process.exit(1);
    });
}
