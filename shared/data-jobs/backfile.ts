/**
 * The whole US register, once: the portal's annual product (TRTYRAP, dozens of zip parts) loaded by a Step
 * Functions state machine (infra/constructs/data-jobs.ts) whose steps are these functions:
 *   list       the parts of the newest backfile (or of the one asked for), with the date the backfile is as of;
 *   fetch      one part into `fetched/TRTYRAP/<as-of>/<file>` (never downloaded again once stored whole);
 *   ingest     one stored part, checked whole first, applied with the ordinary ingest as a batch dated as-of
 *              (a part already complete is skipped, so a retried or re-run map writes nothing twice);
 *   hand-over  the daily job starts from the as-of date unless it is already past it, and one completed batch is
 *              announced for the whole backfile (market US, kind marks, a batch id derived from the as-of date, so a
 *              retried hand-over announces the same batch): the watched catalogues are re-screened once after a
 *              backfile, not once per part (the parts' own batches are applied with no announcement).
 * No gap and no double count with the daily job: every record carries its batch date and the store keeps the newest
 * per serial, so a daily file older than the backfile is stale for the serials the backfile holds, and the daily
 * job's week of look-back from as-of covers the days after it.
 */
import { batchIdOf } from '../marks/mark-record';
import type { IngestStores } from '../ingest/ingest-batch';
import { ingestBlob } from '../ingest/ingest-blob';
import type { BatchEvents, DataJobStore, WritableBlobStore } from '../ports';
import {
  checkWhole,
  fetchedKey,
  FETCHED_PREFIX,
  IncompleteFileError,
  sourceOf,
  storeFile,
} from './register-update-job';
import { BACKFILE_PRODUCT, type PortalFile, type UsptoPortal } from './uspto-portal';

/** The earliest data the annual product holds. */
const REGISTER_BEGINS = '1870-01-01';

export interface BackfilePlan {
  asOf: string;
  /** Where the stored parts are (the distributed map reads every object under it). */
  prefix: string;
  parts: PortalFile[];
}

export function backfilePrefix(asOf: string): string {
  return `${FETCHED_PREFIX}${BACKFILE_PRODUCT}/${asOf}/`;
}

/** The parts of the newest backfile on or before `until` (all parts of one backfile share its data date). */
export async function planBackfile(portal: Pick<UsptoPortal, 'listFiles'>, until: string): Promise<BackfilePlan> {
  const { files } = await portal.listFiles(BACKFILE_PRODUCT, REGISTER_BEGINS, until);
  const asOf = files
    .map((f) => f.dataDate)
    .sort()
    .at(-1);
  if (!asOf) throw new Error(`the portal lists no ${BACKFILE_PRODUCT} parts up to ${until}`);
  return { asOf, prefix: backfilePrefix(asOf), parts: files.filter((f) => f.dataDate === asOf) };
}

export async function fetchPart(
  deps: { portal: Pick<UsptoPortal, 'download'>; blobs: WritableBlobStore },
  part: PortalFile,
): Promise<{ key: string; downloaded: boolean; bytes: number }> {
  const key = fetchedKey(part);
  const downloaded = await storeFile(deps, part, key);
  const bytes = (await deps.blobs.size(key)) ?? 0;
  if (part.fileSize !== undefined && bytes !== part.fileSize)
    throw new IncompleteFileError(`${part.fileName}: cut short: ${bytes} of ${part.fileSize} bytes`);
  return { key, downloaded, bytes };
}

export interface PartOutcome {
  key: string;
  action: 'applied' | 'already-applied';
  read?: number;
  written?: number;
  unchanged?: number;
  stale?: number;
  rejected?: number;
}

/** One stored part: checked whole, then ingested as a batch dated as-of. Throws when it cannot be applied. */
export async function ingestPart(
  deps: { blobs: WritableBlobStore; stores: IngestStores; holder: string },
  key: string,
  asOf: string,
): Promise<PartOutcome> {
  const fileName = key.slice(key.lastIndexOf('/') + 1);
  const source = sourceOf({ product: BACKFILE_PRODUCT, fileName });
  const batch = await deps.stores.batches.get('US', 'marks', batchIdOf(asOf, source));
  if (batch?.status === 'complete') return { key, action: 'already-applied' };
  await checkWhole(deps.blobs, key);
  const summary = await ingestBlob(deps.stores, {
    blobs: deps.blobs,
    key,
    kind: 'uspto-daily',
    market: 'US',
    batchDate: asOf,
    source,
    holder: deps.holder,
  });
  if (summary.refused) throw new IncompleteFileError(`${fileName}: refused: ${summary.refused}`);
  if (!summary.complete) throw new Error(`${fileName}: did not complete: ${summary.failure}`);
  const { read, written, unchanged, stale, rejected } = summary;
  return { key, action: 'applied', read, written, unchanged, stale, rejected };
}

/** The id of the one batch a backfile announces: its as-of date and product, the same on every try of its hand-over. */
export function backfileBatchIdOf(asOf: string): string {
  return batchIdOf(asOf, `uspto:${BACKFILE_PRODUCT}`);
}

/**
 * After every part is applied: the backfile's run is recorded, the daily job takes over from its date, and the
 * backfile is announced as one completed batch (when `events` is given). A failed announcement fails the step, which
 * the state machine retries; the re-screen takes the repeated batch id without harm (nothing recorded twice).
 */
export async function handOver(
  deps: { jobs: DataJobStore; now: () => Date; events?: BatchEvents },
  asOf: string,
  detail: Record<string, number | string>,
): Promise<void> {
  const at = deps.now().toISOString();
  await deps.jobs.recordRun({
    job: 'uspto-backfile',
    startedAt: at,
    finishedAt: at,
    outcome: 'succeeded',
    appliedThrough: asOf,
    detail,
  });
  await deps.jobs.startFrom('uspto-daily', asOf);
  await deps.events?.batchCompleted({ market: 'US', kind: 'marks', batchId: backfileBatchIdOf(asOf), dataAsOf: asOf });
}
