/**
 * The bulk tools against the local server over real HTTP: a CSV screened in batches of 1,000 with its refusals
 * written beside the results, a run interrupted after a batch was charged and resumed without paying for it again,
 * the rate limit's 429 waited out, and a folder of images searched one row per image.
 */
import { mkdtempSync, readFileSync, writeFileSync, copyFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { buildDataStores } from '../../shared/composition/data-stores';
import { ingestBatch } from '../../shared/ingest/ingest-batch';
import { auditAccount } from '../../shared/metering/accounts';
import { createApiClient, type PostJson } from '../../local/bulk/api-client';
import { screenCsv } from '../../local/bulk/screen-csv';
import { searchImageFolder } from '../../local/bulk/image-folder';
import { runScreenCli } from '../../local/bulk/screen-cli';
import type { RunningServer } from '../../local/server';
import { csvLine } from '../../local/bulk/csv-text';
import { createTestStack, type TestStack } from '../support/test-stack';
import { startTestServer } from '../support/test-server';

let stack: TestStack;
let server: RunningServer;
let dir: string;

const MARKS = [{ serial: 'US-BULK-ANKER', mark: 'Anker', nice: [9], is_live: true, drawing_kind: 'word' }];

beforeAll(async () => {
  stack = await createTestStack();
  const input = Readable.from([MARKS.map((m) => JSON.stringify(m)).join('\n')]);
  await ingestBatch(buildDataStores(stack.config), {
    holder: 'e2e-bulk',
    source: 'e2e',
    kind: 'marks-jsonl',
    market: 'US',
    input,
    batchDate: '2026-11-20',
  });
  server = await startTestServer(stack);
  dir = mkdtempSync(path.join(os.tmpdir(), 'bulk-'));
});
afterAll(async () => server?.close());

/** 2,500 rows: Anker titles, plain ones, and three the API refuses (empty, too long, a class that does not exist). */
function writeListings(file: string): { valid: number } {
  const lines = [csvLine(['sku', 'title', 'nice'])];
  for (let i = 1; i <= 2500; i++) {
    const title =
      i === 7
        ? ''
        : i === 1500
          ? 'x'.repeat(501)
          : i % 2
            ? `Anker charger "${i}", fast`
            : `Plain cotton socks, pack of ${i}`;
    lines.push(csvLine([`SKU-${i}`, title, i === 2100 ? '77' : i % 2 ? '9' : '']));
  }
  writeFileSync(file, lines.join(''));
  return { valid: 2497 };
}

const readCsv = (file: string): Record<string, string>[] => parse(readFileSync(file), { columns: true });
const balanceOf = async (accountId: string) =>
  (await stack.deps.accounts.getAccount(accountId, { consistent: true }))!.points;

describe('npm run screen', () => {
  it('screens every row in batches, in order, writing each refusal with its reason and charging only what was screened', async () => {
    const { accountId, apiKey } = await stack.openAccount({ points: 10_000 });
    const input = path.join(dir, 'listings.csv');
    const out = path.join(dir, 'results.csv');
    const { valid } = writeListings(input);
    const calls: string[] = [];
    const client = createApiClient({ baseUrl: server.url, apiKey });
    const post: PostJson = (p, body, headers) => {
      calls.push(headers?.['Idempotency-Key'] ?? '');
      return client(p, body, headers);
    };

    const outcome = await screenCsv({ input, out, post });

    const rows = readCsv(out);
    expect(rows.map((r) => Number(r.row))).toEqual(Array.from({ length: 2500 }, (_, i) => i + 1));
    expect(rows[0]).toMatchObject({
      title: 'Anker charger "1", fast',
      risk: expect.stringMatching(/^(高|中)$/),
      top_conflict: 'Anker',
      tro_hit: 'false',
    });
    expect(rows[0]!.reasons).toMatch(/^Anker: /);
    expect(rows[1]).toMatchObject({ risk: '低', top_conflict: '', reasons: '', error: '' });
    expect([rows[6]!.error, rows[1499]!.error, rows[2099]!.error]).toEqual([
      'title is empty',
      'title is longer than 500 characters',
      expect.stringContaining('nice'),
    ]);
    expect(outcome).toMatchObject({ rows: 2500, batches: 3, refused: 3 });
    expect(new Set(calls).size).toBe(calls.length);
    expect(await balanceOf(accountId)).toBe(10_000 - valid);
  });

  it('resumes an interrupted run after the last written batch, and a batch charged but not written is not paid twice', async () => {
    const { accountId, apiKey } = await stack.openAccount({ points: 10_000 });
    const input = path.join(dir, 'resume.csv');
    const out = path.join(dir, 'resume-results.csv');
    const { valid } = writeListings(input);
    const client = createApiClient({ baseUrl: server.url, apiKey });
    let calls = 0;
    // The second batch is charged by the API, then the run dies before writing it.
    const dying: PostJson = async (p, body, headers) => {
      const answer = await client(p, body, headers);
      if (++calls === 2) throw new Error('the process was killed');
      return answer;
    };

    await expect(screenCsv({ input, out, post: dying })).rejects.toThrow('killed');
    expect(readCsv(out)).toHaveLength(1000);
    const chargedBeforeResume = 10_000 - (await balanceOf(accountId));

    const replayed: string[] = [];
    const watching: PostJson = async (p, body, headers) => {
      const answer = await client(p, body, headers);
      if (answer.headers.get('idempotent-replayed') === 'true') replayed.push(headers!['Idempotency-Key']!);
      return answer;
    };
    const outcome = await screenCsv({ input, out, post: watching });

    expect(chargedBeforeResume).toBe(999 + 999); // both batches (each with one refused row) were charged before it
    expect(outcome.batches).toBe(2);
    expect(replayed).toHaveLength(1);
    expect(readCsv(out).map((r) => Number(r.row))).toEqual(Array.from({ length: 2500 }, (_, i) => i + 1));
    expect(await balanceOf(accountId)).toBe(10_000 - valid);
    expect((await auditAccount(stack.deps, accountId)).consistent).toBe(true);
  });

  it('refuses to resume over an input that changed since the interrupted run, and starts over with --fresh', async () => {
    const { apiKey } = await stack.openAccount({ points: 10_000 });
    const input = path.join(dir, 'changed.csv');
    const out = path.join(dir, 'changed-results.csv');
    writeListings(input);
    const client = createApiClient({ baseUrl: server.url, apiKey });
    let calls = 0;
    const dying: PostJson = async (p, body, headers) => {
      if (++calls === 2) throw new Error('the process was killed');
      return client(p, body, headers);
    };
    await expect(screenCsv({ input, out, post: dying })).rejects.toThrow('killed');
    writeFileSync(input, `${readFileSync(input, 'utf8')}${csvLine(['SKU-X', 'One more title', ''])}`);

    await expect(screenCsv({ input, out, post: client })).rejects.toThrow(
      /has changed since the interrupted run; pass --fresh/,
    );
    const fresh = await screenCsv({ input, out, post: client, fresh: true });
    expect([fresh.rows, readCsv(out).length]).toEqual([2501, 2501]);
  });

  it('waits out the rate limit (429 with Retry-After) and finishes, from the command line', async () => {
    const { apiKey } = await stack.openAccount({ points: 10_000, rateLimit: 1 });
    const input = path.join(dir, 'limited.csv');
    const out = path.join(dir, 'limited-results.csv');
    writeListings(input);
    const log: string[] = [];

    await runScreenCli([input, '--out', out, '--base-url', server.url], { TMK_API_KEY: apiKey }, (text) =>
      log.push(text),
    );

    expect(readCsv(out)).toHaveLength(2500);
    expect(log.join('')).toMatch(/retrying in \d+\.\d s \(429 rate_limited\)/);
    expect(log.join('')).toMatch(/\[#{30}\] 2,500\/2,500 100\.0% +\d+ titles\/s +ETA/);
  });

  it('stops with a clear message when the balance runs out, keeping what was done', async () => {
    const { apiKey } = await stack.openAccount({ points: 1500 });
    const input = path.join(dir, 'poor.csv');
    const out = path.join(dir, 'poor-results.csv');
    writeListings(input);
    const post = createApiClient({ baseUrl: server.url, apiKey });

    await expect(screenCsv({ input, out, post })).rejects.toThrow(/batch 2 refused \(insufficient_points\).*resume/);
    expect(readCsv(out)).toHaveLength(1000);
    expect(existsSync(`${out}.journal`)).toBe(true);
  });
});

describe('npm run image-search', () => {
  it('searches each image of a folder once, one row per image, an unreadable one with its error', async () => {
    const { accountId, apiKey } = await stack.openAccount({ points: 1000 });
    const folder = mkdtempSync(path.join(dir, 'images-'));
    for (const name of ['adidas.svg', 'acer.svg', '3m.svg'])
      copyFileSync(path.join('data/sample/logos/simple-icons', name), path.join(folder, name));
    writeFileSync(path.join(folder, 'broken.png'), 'not an image');
    writeFileSync(path.join(folder, 'notes.txt'), 'not searched');
    const out = path.join(dir, 'images.csv');

    const outcome = await searchImageFolder({ folder, out, post: createApiClient({ baseUrl: server.url, apiKey }) });

    const rows = readCsv(out);
    expect(rows.map((r) => r.file).sort()).toEqual(['3m.svg', 'acer.svg', 'adidas.svg', 'broken.png']);
    expect(rows.find((r) => r.file === 'broken.png')!.error).toMatch(/^image_unreadable: /);
    expect(rows.filter((r) => r.error === '')).toHaveLength(3);
    expect(outcome).toMatchObject({ images: 4, searched: 3, refused: 1 });
    expect(await balanceOf(accountId)).toBe(1000 - 3 * 5);

    const again = await searchImageFolder({ folder, out, post: createApiClient({ baseUrl: server.url, apiKey }) });
    expect(again.searched).toBe(0);
    expect(await balanceOf(accountId)).toBe(1000 - 3 * 5);
  });
});
