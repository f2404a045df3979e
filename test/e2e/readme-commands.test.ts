/**
 * README's "A new customer's first hour", run as written: every `sh` block of that section, in order, in bash,
 * against a local server over HTTP with a fresh key in TMK_BASE_URL / TMK_API_KEY (the block that sets those two
 * is the one left out). The blocks run in a scratch folder that links to the project, so the files they make
 * (listings.csv, results.csv, logos/) land there and not in the project.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { RunningServer } from '../../local/server';
import { startOneMarkServer } from '../support/one-mark-server';
import type { TestStack } from '../support/test-stack';

const ROOT = path.resolve(__dirname, '../..');
const SECTION = "## A new customer's first hour";

/** The `sh` blocks of the section, without the one that exports the placeholders. */
function firstHourBlocks(readme: string): string[] {
  const start = readme.indexOf(SECTION);
  if (start < 0) throw new Error(`README has no "${SECTION}" section`);
  const end = readme.indexOf('\n## ', start + SECTION.length);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)]
    .map((m) => m[1]!)
    .filter((block) => !block.includes('export TMK_API_KEY='));
}

let stack: TestStack;
let server: RunningServer;
let scratch: string;

beforeAll(async () => {
  ({ stack, server } = await startOneMarkServer('e2e-readme'));
  scratch = mkdtempSync(path.join(os.tmpdir(), 'readme-'));
  for (const entry of ['package.json', 'node_modules', 'tsconfig.json', 'local', 'shared', 'functions', 'data'])
    symlinkSync(path.join(ROOT, entry), path.join(scratch, entry));
});
afterAll(async () => {
  await server?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe("README: a new customer's first hour", () => {
  it('has the blocks a customer meets, in order: docs, account, screening, usage, allowlist, CSV, logos', () => {
    const blocks = firstHourBlocks(readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
    const order = [
      '/v1/openapi.json',
      '/v1/account',
      '/v1/batch-screen',
      '/v1/usage',
      '/v1/allowlist',
      'npm run -s screen',
      'npm run -s image-search',
    ];
    expect(order.map((needle) => blocks.findIndex((b) => b.includes(needle)))).toEqual(order.map((_, i) => i));
  });

  it('every block runs as written and does what the text says', async () => {
    const { accountId, apiKey } = await stack.openAccount({ points: 1000 });
    const blocks = firstHourBlocks(readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
    const outputs: string[] = [];
    for (const block of blocks) {
      // -e: a failing command fails the block (no -u: a system bashrc may read unset variables).
      const { stdout } = await promisify(execFile)('bash', ['-e', '-c', block], {
        cwd: scratch,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: os.homedir(),
          TMK_BASE_URL: server.url,
          TMK_API_KEY: apiKey,
          AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        },
        timeout: 60_000,
      });
      outputs.push(stdout);
    }
    const [openapi, account, screened, usage, allowlist, csv, logos] = outputs;

    expect(openapi).toMatch(/^\{"openapi":"3\.1\.0"/);
    expect(JSON.parse(account!)).toMatchObject({ account_id: accountId, balance: 1000 });
    expect(JSON.parse(screened!).results[0]).toMatchObject({ top_conflict: 'Anker' });
    expect(JSON.parse(usage!).records[0]).toMatchObject({ kind: 'charge', operation: 'batch-screen', points: 2 });
    expect(
      allowlist!
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).brands),
    ).toEqual([['Anker'], ['Anker']]);
    const csvLines = csv!.trim().split('\n');
    expect(csvLines[0]).toBe('row,title,nice,risk,tro_hit,top_conflict,reasons,error');
    // The allowlist of step 5 is in force: the seller's own Anker charger is not raised.
    expect(csvLines[1]).toMatch(/^1,"Anker charger, 65W GaN",9,低,false,,Anker: allowlisted \(own brand\),$/);
    expect(csvLines).toHaveLength(3);
    expect(
      logos!
        .trim()
        .split('\n')
        .map((l) => l.split(',')[0])
        .sort(),
    ).toEqual(['3m.svg', 'adidas.svg', 'file']);
    expect((await stack.deps.accounts.getAccount(accountId, { consistent: true }))!.points).toBe(1000 - 2 - 2 - 2 * 5);
  });
});
