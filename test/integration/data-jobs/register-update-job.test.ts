/**
 * The daily register job end to end on DynamoDB Local: a local stand-in for the USPTO portal (the remote service has
 * no local form: test/support/fake-uspto-portal.ts) serves zipped daily XML built from the real sample; the job
 * stores each file in a folder standing in for the batches bucket, checks it whole, applies it with the real ingest,
 * and screening sees the result.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FileSystemBlobStore } from '../../../shared/adapters/local/filesystem-blob-store';
import { buildDataJobStore, buildDataStores } from '../../../shared/composition/data-stores';
import { runRegisterUpdate, type RegisterJobDeps } from '../../../shared/data-jobs/register-update-job';
import { DAILY_PRODUCT, UsptoPortal } from '../../../shared/data-jobs/uspto-portal';
import type { IngestStores } from '../../../shared/ingest/ingest-batch';
import { batchIdOf } from '../../../shared/marks/mark-record';
import type { DataJobStore } from '../../../shared/ports';
import { createScreeningService } from '../../../shared/screening/screening-service';
import { startFakePortal, type FakePortal } from '../../support/fake-uspto-portal';
import { createTestStack } from '../../support/test-stack';
import { tinyZip } from '../../unit/marks/batch-test-inputs';

const SEED = readFileSync(path.join(__dirname, '../../fixtures/uspto/daily-xml-sample/seed.xml'));
const API_KEY = 'portal-test-key-0123456789';
const CUTEX = '71112081';

/** The sample as a day's file; `cutex` sets CUTEX's status code (800 registered, 710 cancelled). */
function dailyXml(cutex = '800'): Buffer {
  const text = SEED.toString('utf8');
  const at = text.indexOf(`<serial-number>${CUTEX}</serial-number>`);
  const status = text.indexOf('<status-code>800</status-code>', at);
  return Buffer.from(`${text.slice(0, status)}<status-code>${cutex}</status-code>${text.slice(status + 30)}`);
}

const zipOf = (xml: Buffer) => tinyZip([{ name: 'daily.xml', data: xml, deflate: true }]);

let portal: FakePortal;
let stores: IngestStores;
let jobs: DataJobStore;
let blobs: FileSystemBlobStore;
let clock = new Date('2026-11-21T10:00:00Z');
const waits: number[] = [];

function deps(): RegisterJobDeps {
  return {
    portal: new UsptoPortal({
      apiKey: API_KEY,
      origin: portal.origin,
      sleep: async (ms) => {
        waits.push(ms);
      },
    }),
    blobs,
    stores,
    jobs,
    holder: 'test-job',
  };
}

function publish(dataDate: string, bytes: Buffer, cutAt?: number) {
  const fileName = `apc${dataDate.slice(2).replace(/-/g, '')}.zip`;
  portal.published.push({ product: DAILY_PRODUCT, fileName, dataDate, bytes, ...(cutAt ? { cutAt } : {}) });
  return fileName;
}

async function cutexRisk(): Promise<{ risk: string; top_conflict?: string | null }> {
  const screening = createScreeningService(stores, { refreshMs: 0 });
  const { results } = await screening.screen([{ title: 'Cutex nail polish remover pads', nice: '03' }], {});
  return results[0] as unknown as { risk: string; top_conflict?: string | null };
}

beforeAll(async () => {
  const stack = await createTestStack();
  stores = { ...buildDataStores(stack.config), now: () => clock };
  jobs = buildDataJobStore(stack.config);
  blobs = new FileSystemBlobStore(await mkdtemp(path.join(os.tmpdir(), 'batches-')));
  portal = await startFakePortal(API_KEY);
});

afterAll(async () => {
  await portal.close();
});

describe('the daily register job', () => {
  it('fetches each day once, keeps the key at the portal, honours Retry-After, and applies the days in order', async () => {
    publish('2026-11-20', zipOf(dailyXml('800')));
    portal.throttleListings(1, '2');

    const first = await runRegisterUpdate(deps());

    expect(waits).toEqual([2000]);
    expect(first.outcome).toBe('succeeded');
    expect(first.files).toEqual([
      expect.objectContaining({ dataDate: '2026-11-20', action: 'applied', downloaded: true }),
    ]);
    expect(first.files[0]!.counts).toMatchObject({ read: 11, written: 11, rejected: 0 });
    expect(portal.downloads).toHaveLength(1);
    expect(portal.downloads[0]!.apiKey).toBeUndefined();
    expect(await jobs.get('uspto-daily')).toMatchObject({ appliedThrough: '2026-11-20', lastOutcome: 'succeeded' });
    expect((await cutexRisk()).risk).not.toBe('低');
  });

  it('a day that cancels a mark stops it raising risk that day', async () => {
    publish('2026-11-21', zipOf(dailyXml('710')));
    clock = new Date('2026-11-22T10:00:00Z');

    const run = await runRegisterUpdate(deps());

    expect(run.files.map((f) => [f.dataDate, f.action])).toEqual([
      ['2026-11-20', 'already-applied'],
      ['2026-11-21', 'applied'],
    ]);
    expect(await stores.marks.getMark('US', CUTEX)).toMatchObject({ isLive: false, statusCode: '710' });
    expect((await cutexRisk()).risk).toBe('低');
  });

  it('a rerun downloads nothing and writes nothing', async () => {
    const downloadsBefore = portal.downloads.length;

    const run = await runRegisterUpdate(deps());

    expect(run.files.every((f) => f.action === 'already-applied')).toBe(true);
    expect(portal.downloads).toHaveLength(downloadsBefore);
    expect(await jobs.get('uspto-daily')).toMatchObject({
      appliedThrough: '2026-11-21',
      lastDetail: expect.objectContaining({ downloaded: 0, recordsWritten: 0 }),
    });
  });

  it('a day published late is applied on the next run, and the data date does not move back', async () => {
    publish('2026-11-23', zipOf(dailyXml('710')));
    clock = new Date('2026-11-24T10:00:00Z');
    const withoutIt = await runRegisterUpdate(deps());
    expect(withoutIt.appliedThrough).toBe('2026-11-23');

    const late = publish('2026-11-22', zipOf(dailyXml('710')));
    const caughtUp = await runRegisterUpdate(deps());

    expect(caughtUp.files.find((f) => f.fileName === late)).toMatchObject({ action: 'applied' });
    expect(caughtUp.appliedThrough).toBe('2026-11-23');
    expect(
      await stores.batches.get('US', 'marks', batchIdOf('2026-11-22', `uspto:${DAILY_PRODUCT}/${late}`)),
    ).toMatchObject({
      status: 'complete',
    });
  });

  it('a file cut short in transfer is rejected whole, fetched again next run, then applied', async () => {
    const bytes = zipOf(dailyXml('710'));
    const name = publish('2026-11-25', bytes, Math.floor(bytes.length / 2));
    clock = new Date('2026-11-26T10:00:00Z');

    const cut = await runRegisterUpdate(deps());

    expect(cut.outcome).toBe('failed');
    expect(cut.files.find((f) => f.fileName === name)).toMatchObject({
      action: 'rejected',
      reason: `cut short: ${Math.floor(bytes.length / 2)} of ${bytes.length} bytes`,
    });
    expect(await jobs.get('uspto-daily')).toMatchObject({ lastOutcome: 'failed', appliedThrough: '2026-11-24' });

    delete portal.published.find((f) => f.fileName === name)!.cutAt;
    const fixed = await runRegisterUpdate(deps());

    expect(fixed.files.find((f) => f.fileName === name)).toMatchObject({ action: 'applied', downloaded: true });
    expect(await jobs.get('uspto-daily')).toMatchObject({ lastOutcome: 'succeeded', appliedThrough: '2026-11-25' });
  });

  it('an archive that does not open, or XML that breaks off, is rejected whole before a record is written', async () => {
    const text = dailyXml('800');
    const brokenXml = zipOf(text.subarray(0, Math.floor(text.length * 0.6)));
    const notAZip = Buffer.from('<html>maintenance</html>'.padEnd(400, ' '));
    const broken = publish('2026-11-26', brokenXml);
    const garbage = publish('2026-11-27', notAZip);
    clock = new Date('2026-11-28T10:00:00Z');

    const run = await runRegisterUpdate(deps());

    expect(run.files.find((f) => f.fileName === broken)).toMatchObject({
      action: 'rejected',
      reason: expect.stringMatching(/^the file breaks off after \d+ case files/),
    });
    expect(run.files.find((f) => f.fileName === garbage)).toMatchObject({
      action: 'rejected',
      reason: expect.stringMatching(/^the archive cannot be opened/),
    });
    // Nothing of either was begun, and CUTEX stays as the last whole day left it.
    expect(await stores.batches.unfinished('US', 'marks')).toEqual([]);
    expect(await stores.marks.getMark('US', CUTEX)).toMatchObject({ statusCode: '710' });
    expect(await jobs.get('uspto-daily')).toMatchObject({
      lastOutcome: 'failed',
      appliedThrough: '2026-11-25',
      lastError: expect.stringContaining(broken),
    });
  });
});
