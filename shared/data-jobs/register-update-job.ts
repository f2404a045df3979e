/**
 * The US register, daily: the portal's TRTDXFAP files not yet applied, each stored before anything else, checked
 * whole, then applied through the ordinary ingest.
 *
 * Input: the portal, the batches store (S3 or a folder), the ingest stores, the job's state; optional dates.
 * Output: what happened to each file, and the job's run recorded (its data date moves only forward).
 *
 *  1. List the files whose data falls from the day after the last applied day, less a look-back of a week (a day
 *     published late, or a file the portal replaced, is still seen), to today.
 *  2. In date order, for each file: a batch already complete is skipped (a rerun writes nothing). A file not stored,
 *     or stored at another size than the listing states, is downloaded into `fetched/<product>/<date>/<file>`; a
 *     stored file of the stated size is never downloaded again (the portal limits downloads of one file per key).
 *  3. The stored file must be whole before a record is written: the stated size, an archive that opens, XML that
 *     parses to its end. A file that fails is rejected whole with the reason and left for the next run (the
 *     previous data keeps serving); later days are still applied, each stale record of theirs staying stale.
 *  4. Apply it with ingestBlob (the market lock, newest batch per serial, dead marks off the lookup keys' matches).
 *  5. Stop starting files when the deadline is near; the rest is the next run's.
 *  6. Record the run: failed when a file failed, else succeeded; the data date is the day before the first file
 *     that is not applied (or the last file's day when all are).
 */
import { Readable } from 'node:stream';
import { batchIdOf } from '../marks/mark-record';
import { parseUsptoDailyXml } from '../marks/uspto-daily-xml';
import { entryExtensionOf } from '../ingest/batch-key';
import type { IngestCounts, IngestStores } from '../ingest/ingest-batch';
import { ingestBlob } from '../ingest/ingest-blob';
import { openBatch } from '../ingest/open-batch';
import type { DataJobStore, WritableBlobStore } from '../ports';
import type { DataJobName } from './jobs';
import { DAILY_PRODUCT, type PortalFile, type UsptoPortal } from './uspto-portal';

export const FETCHED_PREFIX = 'fetched/';
const LOOKBACK_DAYS = 7;
const FIRST_RUN_DAYS = 7;

export interface RegisterJobDeps {
  portal: Pick<UsptoPortal, 'listFiles' | 'download'>;
  blobs: WritableBlobStore;
  stores: IngestStores;
  jobs: DataJobStore;
  holder: string;
  /** No file is started after this instant (epoch ms): a Lambda's remaining time, less a margin. */
  deadline?: number;
  log?: (message: string, data: Record<string, unknown>) => void;
}

export interface RegisterJobOptions {
  /** The first data day to list (an operator's catch-up); default: from the job's state. */
  since?: string;
  /** The last data day to list; default: today (UTC). */
  until?: string;
}

export type FileAction = 'applied' | 'already-applied' | 'rejected' | 'failed' | 'deferred';

export interface FileOutcome {
  fileName: string;
  dataDate: string;
  key: string;
  action: FileAction;
  downloaded: boolean;
  counts?: IngestCounts;
  reason?: string;
}

export interface RegisterJobSummary {
  job: DataJobName;
  from: string;
  to: string;
  files: FileOutcome[];
  /** Listing entries that could not be read. */
  unreadable: string[];
  appliedThrough?: string;
  outcome: 'succeeded' | 'failed';
}

export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

export function fetchedKey(file: Pick<PortalFile, 'product' | 'dataDate' | 'fileName'>): string {
  return `${FETCHED_PREFIX}${file.product}/${file.dataDate}/${file.fileName}`;
}

/** The batch's source, stable across reruns (the batch id is its date and source). */
export function sourceOf(file: Pick<PortalFile, 'product' | 'fileName'>): string {
  return `uspto:${file.product}/${file.fileName}`;
}

/** A file that is not whole: never applied, with the reason. */
export class IncompleteFileError extends Error {}

/** Reads the stored file to its end without writing anything: the archive must open and its XML must parse. */
export async function checkWhole(blobs: WritableBlobStore, key: string): Promise<number> {
  let batch: Awaited<ReturnType<typeof openBatch>>;
  try {
    batch = await openBatch(blobs, key, entryExtensionOf('uspto-daily'));
  } catch (error) {
    throw new IncompleteFileError(`the archive cannot be opened (${(error as Error).message})`);
  }
  let records = 0;
  try {
    for await (const parsed of parseUsptoDailyXml(batch.stream, { batchDate: '2000-01-01', source: key }))
      if (parsed.ok) records++;
  } catch (error) {
    throw new IncompleteFileError(`the file breaks off after ${records} case files (${(error as Error).message})`);
  } finally {
    await batch.close();
  }
  return records;
}

/** The stored file, downloaded first when it is missing or not of the stated size. True when it was downloaded. */
export async function storeFile(
  deps: { portal: Pick<UsptoPortal, 'download'>; blobs: WritableBlobStore },
  file: PortalFile,
  key: string,
): Promise<boolean> {
  const size = await deps.blobs.size(key);
  if (size !== undefined && (file.fileSize === undefined || size === file.fileSize)) return false;
  const body = await deps.portal.download(file);
  await deps.blobs.put(key, Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>));
  return true;
}

async function applyFile(deps: RegisterJobDeps, file: PortalFile): Promise<FileOutcome> {
  const key = fetchedKey(file);
  const source = sourceOf(file);
  const outcome: FileOutcome = {
    fileName: file.fileName,
    dataDate: file.dataDate,
    key,
    action: 'applied',
    downloaded: false,
  };
  const batch = await deps.stores.batches.get('US', 'marks', batchIdOf(file.dataDate, source));
  if (batch?.status === 'complete') return { ...outcome, action: 'already-applied' };
  try {
    outcome.downloaded = await storeFile(deps, file, key);
  } catch (error) {
    return { ...outcome, action: 'failed', reason: `download: ${(error as Error).message}` };
  }
  const size = await deps.blobs.size(key);
  if (file.fileSize !== undefined && size !== file.fileSize)
    return { ...outcome, action: 'rejected', reason: `cut short: ${size ?? 0} of ${file.fileSize} bytes` };
  try {
    await checkWhole(deps.blobs, key);
  } catch (error) {
    if (error instanceof IncompleteFileError) return { ...outcome, action: 'rejected', reason: error.message };
    throw error;
  }
  const summary = await ingestBlob(deps.stores, {
    blobs: deps.blobs,
    key,
    kind: 'uspto-daily',
    market: 'US',
    batchDate: file.dataDate,
    source,
    holder: deps.holder,
  });
  const { read, written, unchanged, stale, rejected } = summary;
  const counts = { read, written, unchanged, stale, rejected };
  if (summary.refused) return { ...outcome, action: 'rejected', counts, reason: summary.refused };
  if (!summary.complete) return { ...outcome, action: 'failed', counts, reason: summary.failure ?? 'incomplete' };
  return { ...outcome, counts };
}

export async function runRegisterUpdate(
  deps: RegisterJobDeps,
  options: RegisterJobOptions = {},
): Promise<RegisterJobSummary> {
  const job: DataJobName = 'uspto-daily';
  const startedAt = deps.stores.now();
  const today = startedAt.toISOString().slice(0, 10);
  const state = await deps.jobs.get(job);
  const to = options.until ?? today;
  const from =
    options.since ??
    (state?.appliedThrough ? addDays(state.appliedThrough, 1 - LOOKBACK_DAYS) : addDays(today, -FIRST_RUN_DAYS));
  const summary: RegisterJobSummary = { job, from, to, files: [], unreadable: [], outcome: 'succeeded' };
  try {
    const listing = await deps.portal.listFiles(DAILY_PRODUCT, from, to);
    summary.unreadable = listing.unreadable;
    for (const file of listing.files) {
      if (deps.deadline !== undefined && Date.now() > deps.deadline) {
        summary.files.push({
          fileName: file.fileName,
          dataDate: file.dataDate,
          key: fetchedKey(file),
          action: 'deferred',
          downloaded: false,
        });
        continue;
      }
      const outcome = await applyFile(deps, file);
      deps.log?.('register file', { ...outcome });
      summary.files.push(outcome);
    }
  } catch (error) {
    summary.outcome = 'failed';
    await record(deps, summary, startedAt, state?.appliedThrough, (error as Error).message);
    throw error;
  }
  const problems = summary.files.filter((f) => f.action === 'failed' || f.action === 'rejected');
  if (problems.length > 0) summary.outcome = 'failed';
  const notApplied = summary.files.find((f) => f.action !== 'applied' && f.action !== 'already-applied');
  const through = notApplied ? addDays(notApplied.dataDate, -1) : summary.files.at(-1)?.dataDate;
  summary.appliedThrough = [state?.appliedThrough, through]
    .filter((d): d is string => d !== undefined)
    .sort()
    .at(-1);
  const error = problems.map((f) => `${f.fileName}: ${f.reason}`).join('; ') || undefined;
  await record(deps, summary, startedAt, summary.appliedThrough, error);
  return summary;
}

async function record(
  deps: RegisterJobDeps,
  summary: RegisterJobSummary,
  startedAt: Date,
  appliedThrough: string | undefined,
  error: string | undefined,
): Promise<void> {
  const count = (action: FileAction) => summary.files.filter((f) => f.action === action).length;
  const written = summary.files.reduce((sum, f) => sum + (f.counts?.written ?? 0), 0);
  await deps.jobs.recordRun({
    job: summary.job,
    startedAt: startedAt.toISOString(),
    finishedAt: deps.stores.now().toISOString(),
    outcome: summary.outcome,
    ...(appliedThrough ? { appliedThrough } : {}),
    detail: {
      listed: summary.files.length,
      applied: count('applied'),
      alreadyApplied: count('already-applied'),
      rejected: count('rejected'),
      failed: count('failed'),
      deferred: count('deferred'),
      downloaded: summary.files.filter((f) => f.downloaded).length,
      recordsWritten: written,
    },
    ...(error ? { error: error.slice(0, 1000) } : {}),
  });
}
