/**
 * The backfile's steps on DynamoDB Local, run in process in the order the state machine runs them (list, fetch each
 * part, ingest each stored part, hand over), against a local stand-in for the USPTO portal (the remote service has no
 * local form: test/support/fake-uspto-portal.ts) serving generated annual parts; then the daily job takes over.
 * The hand-over announces the whole backfile as one completed batch on the in-process bus (the parts none), the
 * same batch id on a retried hand-over, and the real re-screen takes it once.
 */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FileSystemBlobStore } from '../../../shared/adapters/local/filesystem-blob-store';
import { InProcessBatchEvents } from '../../../shared/adapters/local/in-process-batch-events';
import { buildDataJobStore, buildDataStores } from '../../../shared/composition/data-stores';
import { buildWatchStore } from '../../../shared/composition/watch';
import { backfileBatchIdOf, fetchPart, handOver, ingestPart, planBackfile } from '../../../shared/data-jobs/backfile';
import { runRegisterUpdate } from '../../../shared/data-jobs/register-update-job';
import { BACKFILE_PRODUCT, DAILY_PRODUCT, UsptoPortal } from '../../../shared/data-jobs/uspto-portal';
import type { IngestStores } from '../../../shared/ingest/ingest-batch';
import type { BatchCompleted, DataJobStore } from '../../../shared/ports';
import { createScreeningService } from '../../../shared/screening/screening-service';
import { addToWatch } from '../../../shared/watch/add-to-watch';
import { type RescreenOutcome, rescreenWatched } from '../../../shared/watch/rescreen';
import { generatedDailyZip as generatedZip } from '../../support/generated-daily-zip';
import { startFakePortal, type FakePortal } from '../../support/fake-uspto-portal';
import { createTestStack, type TestStack } from '../../support/test-stack';

const API_KEY = 'portal-test-key-backfile';
const PART_RECORDS = 200;
const FIRST = 60_000_000;

let portal: FakePortal;
let stores: IngestStores;
let jobs: DataJobStore;
let blobs: FileSystemBlobStore;
let client: UsptoPortal;
let stack: TestStack;
let bus: InProcessBatchEvents;
/** What the data bus carried, and what the re-screen it feeds made of each. */
const announced: BatchCompleted[] = [];
const rescreens: RescreenOutcome[] = [];

beforeAll(async () => {
  stack = await createTestStack();
  // The data bus as npm start has it, its subscriber the real re-screen of watched catalogues.
  bus = new InProcessBatchEvents((error) => {
    throw error;
  });
  bus.subscribe(async (event) => {
    announced.push(event);
    const screening = createScreeningService(buildDataStores(stack.config), { refreshMs: 0 });
    rescreens.push(
      await rescreenWatched({ store: buildWatchStore(stack.config), screening }, event, {
        maxTitlesPerAccount: 1000,
        timeBudgetMs: 60_000,
      }),
    );
  });
  stores = { ...buildDataStores(stack.config), now: () => new Date('2026-11-03T10:00:00Z') };
  jobs = buildDataJobStore(stack.config);
  blobs = new FileSystemBlobStore(await mkdtemp(path.join(os.tmpdir(), 'batches-')));
  portal = await startFakePortal(API_KEY);
  client = new UsptoPortal({ apiKey: API_KEY, origin: portal.origin });
  // An older backfile, and the newest one in three parts with distinct serials.
  portal.published.push({
    product: BACKFILE_PRODUCT,
    fileName: 'apc18840407-20241231-01.zip',
    dataDate: '2024-12-31',
    bytes: await generatedZip(5, 9, FIRST),
  });
  for (const part of [1, 2, 3])
    portal.published.push({
      product: BACKFILE_PRODUCT,
      fileName: `apc18840407-20261031-0${part}.zip`,
      dataDate: '2026-10-31',
      bytes: await generatedZip(PART_RECORDS, part, FIRST + (part - 1) * PART_RECORDS),
    });
});

afterAll(async () => {
  await portal.close();
});

it('loads every part of the newest backfile once, then hands over to the daily job without a gap or a double count', async () => {
  const { accountId } = await stack.openAccount({ tier: 'professional', points: 10 });
  const screening = createScreeningService(buildDataStores(stack.config), { refreshMs: 0 });
  await addToWatch(
    { store: buildWatchStore(stack.config), screening },
    accountId,
    { items: [{ id: 'SKU-1', title: 'Bamboo cutting board set' }], logos: [] },
    { now: new Date() },
  );
  const plan = await planBackfile(client, '2026-11-03');
  expect(plan.asOf).toBe('2026-10-31');
  expect(plan.parts.map((p) => p.fileName)).toEqual([
    'apc18840407-20261031-01.zip',
    'apc18840407-20261031-02.zip',
    'apc18840407-20261031-03.zip',
  ]);

  const fetched = [];
  for (const part of plan.parts) fetched.push(await fetchPart({ portal: client, blobs }, part));
  expect(fetched.every((f) => f.key.startsWith(plan.prefix) && f.downloaded)).toBe(true);
  // A retried fetch step downloads nothing.
  expect(await fetchPart({ portal: client, blobs }, plan.parts[0]!)).toMatchObject({ downloaded: false });
  expect(portal.downloads).toHaveLength(3);

  const applied = [];
  for (const { key } of fetched) applied.push(await ingestPart({ blobs, stores, holder: 'map-item' }, key, plan.asOf));
  expect(applied.map((a) => [a.action, a.read, a.rejected])).toEqual([
    ['applied', PART_RECORDS, 0],
    ['applied', PART_RECORDS, 0],
    ['applied', PART_RECORDS, 0],
  ]);
  // A retried map item writes nothing.
  expect(await ingestPart({ blobs, stores, holder: 'map-item' }, fetched[1]!.key, plan.asOf)).toEqual({
    key: fetched[1]!.key,
    action: 'already-applied',
  });
  expect(await stores.marks.getMark('US', String(FIRST + 2 * PART_RECORDS + 5))).toMatchObject({
    batchDate: '2026-10-31',
  });

  // The parts were applied as the function applies them, with stores that announce nothing.
  await bus.idle();
  expect(announced).toEqual([]);
  await handOver({ jobs, now: stores.now, events: bus }, plan.asOf, { parts: plan.parts.length });
  await bus.idle();
  expect(await jobs.get('uspto-backfile')).toMatchObject({ appliedThrough: '2026-10-31', lastOutcome: 'succeeded' });
  expect(await jobs.get('uspto-daily')).toMatchObject({ appliedThrough: '2026-10-31' });
  // One completed batch for the whole backfile, and one re-screen of the watched catalogues.
  expect(announced).toEqual([
    { market: 'US', kind: 'marks', batchId: backfileBatchIdOf('2026-10-31'), dataAsOf: '2026-10-31' },
  ]);
  expect(rescreens).toEqual([expect.objectContaining({ accounts: 1, rescreened: 1, complete: true })]);

  // Daily files of the same serials: one older than the backfile (stale, nothing counted twice), one newer.
  portal.published.push(
    {
      product: DAILY_PRODUCT,
      fileName: 'apc261030.zip',
      dataDate: '2026-10-30',
      bytes: await generatedZip(10, 21, FIRST),
    },
    {
      product: DAILY_PRODUCT,
      fileName: 'apc261102.zip',
      dataDate: '2026-11-02',
      bytes: await generatedZip(10, 22, FIRST),
    },
  );
  const daily = await runRegisterUpdate({ portal: client, blobs, stores, jobs, holder: 'daily' });

  expect(daily.from).toBe('2026-10-25');
  expect(daily.files.map((f) => [f.fileName, f.counts?.written, f.counts?.stale])).toEqual([
    ['apc261030.zip', 0, 10],
    ['apc261102.zip', 10, 0],
  ]);
  expect(daily.appliedThrough).toBe('2026-11-02');
});

it('a part that is not whole fails its map item with the reason, and nothing of it is written', async () => {
  const key = `fetched/${BACKFILE_PRODUCT}/2026-10-31/apc18840407-20261031-04.zip`;
  const whole = await generatedZip(50, 4, FIRST + 3 * PART_RECORDS);
  await blobs.put(key, whole.subarray(0, Math.floor(whole.length * 0.7)));

  await expect(ingestPart({ blobs, stores, holder: 'map-item' }, key, '2026-10-31')).rejects.toThrow(
    /cannot be opened|breaks off/,
  );
  expect(await stores.marks.getMark('US', String(FIRST + 3 * PART_RECORDS))).toBeUndefined();
  expect(await stores.batches.unfinished('US', 'marks')).toEqual([]);
});

it('the hand-over never moves the daily job back', async () => {
  await handOver({ jobs, now: stores.now }, '2026-10-31', { parts: 3 });
  expect(await jobs.get('uspto-daily')).toMatchObject({ appliedThrough: '2026-11-02' });
});

it('a retried hand-over announces the same batch again, and the re-screen records nothing twice', async () => {
  announced.length = 0;
  rescreens.length = 0;

  await handOver({ jobs, now: stores.now, events: bus }, '2026-10-31', { parts: 3 });
  await bus.idle();

  expect(announced).toEqual([
    { market: 'US', kind: 'marks', batchId: backfileBatchIdOf('2026-10-31'), dataAsOf: '2026-10-31' },
  ]);
  expect(rescreens).toEqual([expect.objectContaining({ changed: 0, alertsRecorded: 0 })]);
});

it('an announcement that fails fails the hand-over (the state machine retries the step)', async () => {
  const refusing = {
    batchCompleted: async () => {
      throw new Error('the bus refused the event');
    },
  };
  await expect(handOver({ jobs, now: stores.now, events: refusing }, '2026-10-31', { parts: 3 })).rejects.toThrow(
    'the bus refused the event',
  );
});
