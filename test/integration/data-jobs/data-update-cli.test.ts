/**
 * `npm run data:update` in process against DynamoDB Local and a local stand-in for the USPTO portal (the remote
 * service has no local form: test/support/fake-uspto-portal.ts): the operator's catch-up applies the days asked
 * for, a second run applies nothing, and a missing credential is named without guessing.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DAILY_PRODUCT } from '../../../shared/data-jobs/uspto-portal';
import { runDataUpdateCli } from '../../../local/data-update-cli';
import { startFakePortal, type FakePortal } from '../../support/fake-uspto-portal';
import { createTestStack, type TestStack } from '../../support/test-stack';
import { tinyZip } from '../../unit/marks/batch-test-inputs';

const API_KEY = 'portal-test-key-cli';
const SEED = readFileSync(path.join(__dirname, '../../fixtures/uspto/daily-xml-sample/seed.xml'));

let stack: TestStack;
let portal: FakePortal;
let files: string;

beforeAll(async () => {
  stack = await createTestStack();
  portal = await startFakePortal(API_KEY);
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
