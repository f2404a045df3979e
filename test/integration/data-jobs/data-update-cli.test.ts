/**
 * `npm run data:update` in process against DynamoDB Local and a local stand-in for the USPTO portal (the remote
 * service has no local form: test/support/fake-uspto-portal.ts) and for CourtListener (fake-courtlistener.ts): the
 * operator's catch-up applies the days asked for, a second run applies nothing, a docket run makes a plaintiff's mark
 * a TRO brand, and a missing credential is named without guessing.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DAILY_PRODUCT } from '../../../shared/data-jobs/uspto-portal';
import { runDataUpdateCli } from '../../../local/data-update-cli';
import { Readable } from 'node:stream';
import { buildDataStores } from '../../../shared/composition/data-stores';
import { ingestBatch } from '../../../shared/ingest/ingest-batch';
import { startFakeCourtListener, type FakeCourtListener } from '../../support/fake-courtlistener';
import { startFakePortal, type FakePortal } from '../../support/fake-uspto-portal';
import { createTestStack, type TestStack } from '../../support/test-stack';
import { tinyZip } from '../../unit/marks/batch-test-inputs';

const API_KEY = 'portal-test-key-cli';
const SEED = readFileSync(path.join(__dirname, '../../fixtures/uspto/daily-xml-sample/seed.xml'));

let stack: TestStack;
let portal: FakePortal;
let files: string;
let courtListener: FakeCourtListener;

beforeAll(async () => {
  stack = await createTestStack();
  portal = await startFakePortal(API_KEY);
  courtListener = await startFakeCourtListener('cl-cli-token');
  files = await mkdtemp(path.join(os.tmpdir(), 'fetched-'));
  portal.published.push({
    product: DAILY_PRODUCT,
    fileName: 'apc261110.zip',
    dataDate: '2026-11-10',
    bytes: tinyZip([{ name: 'daily.xml', data: SEED, deflate: true }]),
  });
});

afterAll(async () => {
  await portal.close();
  await courtListener.close();
});

const argv = (...extra: string[]) => [
  '--job',
  'uspto-daily',
  '--since',
  '2026-11-01',
  '--until',
  '2026-11-20',
  '--files',
  files,
  '--uspto-origin',
  portal.origin,
  ...extra,
];

it('applies the days asked for, then nothing on a second run', async () => {
  const lines: string[] = [];
  const first = await runDataUpdateCli(argv(), stack.env, (line) => lines.push(line), {
    secretEnv: { USPTO_API_KEY: API_KEY },
  });

  expect(first?.failures).toEqual([]);
  expect(lines).toContain('  2026-11-10  apc261110.zip  applied');
  expect(lines.at(-1)).toBe(
    'uspto-daily succeeded: 2026-11-01 to 2026-11-20, 1 files, 11 records written, applied through 2026-11-10',
  );

  const again: string[] = [];
  await runDataUpdateCli(argv(), stack.env, (line) => again.push(line), { secretEnv: { USPTO_API_KEY: API_KEY } });
  expect(again).toContain('  2026-11-10  apc261110.zip  already-applied');
  expect(portal.downloads).toHaveLength(1);
});

it('names the missing credential, and refuses a date that is not one', async () => {
  await expect(runDataUpdateCli(argv(), stack.env, () => undefined, { secretEnv: {} })).rejects.toThrow(
    'no credential for uspto-api-key: set USPTO_API_KEY',
  );
  await expect(
    runDataUpdateCli(['--since', '2026-02-30'], stack.env, () => undefined, { secretEnv: {} }),
  ).rejects.toThrow('--since must be a date written YYYY-MM-DD');
});

it("a docket run makes the plaintiff's registered mark a TRO brand", async () => {
  const stores = buildDataStores(stack.config);
  const mark = {
    serial: 'US-CLI-1',
    mark: 'Glimmerquill',
    nice: ['16'],
    is_live: true,
    owner: 'Glimmerquill Pens, LLC',
    drawing_kind: 'word',
  };
  await ingestBatch(stores, {
    kind: 'marks-jsonl',
    market: 'US',
    input: Readable.from([JSON.stringify(mark)]),
    batchDate: '2026-11-20',
    source: 'cli-owner-test',
    holder: 'test',
  });
  courtListener.dockets.push({
    docketId: 9101,
    caseName: 'Glimmerquill Pens LLC v. The Partnerships and Unincorporated Associations Identified on Schedule "A"',
    docketNumber: '1:26-cv-09101',
    courtId: 'ilnd',
    dateFiled: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10),
    parties: [{ name: 'Glimmerquill Pens LLC', types: ['Plaintiff'] }],
  });
  const lines: string[] = [];

  const result = await runDataUpdateCli(
    ['--job', 'tro-docket', '--courtlistener-origin', courtListener.origin],
    { ...stack.env, COURTLISTENER_COURTS: 'ilnd' },
    (line) => lines.push(line),
    { secretEnv: { COURTLISTENER_TOKEN: 'cl-cli-token' } },
  );

  expect(result?.failures).toEqual([]);
  expect(lines.at(-1)).toMatch(/^tro-docket succeeded: .* 1 new cases, 1 marks flagged, 0 plaintiffs without marks/);
  expect((await stores.tro.all()).map((b) => [b.brand, b.caseNumbers])).toContainEqual([
    'Glimmerquill',
    ['1:26-cv-09101'],
  ]);
});
