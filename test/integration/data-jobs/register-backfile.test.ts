/**
 * The backfile's steps on DynamoDB Local, run in process in the order the state machine runs them (list, fetch each
 * part, ingest each stored part, hand over), against a local stand-in for the USPTO portal (the remote service has no
 * local form: test/support/fake-uspto-portal.ts) serving generated annual parts; then the daily job takes over.
 */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FileSystemBlobStore } from '../../../shared/adapters/local/filesystem-blob-store';
import { buildDataJobStore, buildDataStores } from '../../../shared/composition/data-stores';
import { fetchPart, handOver, ingestPart, planBackfile } from '../../../shared/data-jobs/backfile';
import { runRegisterUpdate } from '../../../shared/data-jobs/register-update-job';
import { BACKFILE_PRODUCT, DAILY_PRODUCT, UsptoPortal } from '../../../shared/data-jobs/uspto-portal';
import type { IngestStores } from '../../../shared/ingest/ingest-batch';
import type { DataJobStore } from '../../../shared/ports';
import { generatedDailyZip as generatedZip } from '../../support/generated-daily-zip';
import { startFakePortal, type FakePortal } from '../../support/fake-uspto-portal';
import { createTestStack } from '../../support/test-stack';

const API_KEY = 'portal-test-key-backfile';
const PART_RECORDS = 200;
const FIRST = 60_000_000;

let portal: FakePortal;
let stores: IngestStores;
let jobs: DataJobStore;
let blobs: FileSystemBlobStore;
let client: UsptoPortal;

beforeAll(async () => {
  const stack = await createTestStack();
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

  await handOver({ jobs, now: stores.now }, plan.asOf, { parts: plan.parts.length });
  expect(await jobs.get('uspto-backfile')).toMatchObject({ appliedThrough: '2026-10-31', lastOutcome: 'succeeded' });
  expect(await jobs.get('uspto-daily')).toMatchObject({ appliedThrough: '2026-10-31' });

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
