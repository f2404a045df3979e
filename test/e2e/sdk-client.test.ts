/**
 * The SDK over real HTTP against the local test server (screening, account, usage pages, allowlist, status, a bad
 * key), a retried 429 against a local stub, and docs/first-hour.md's ts blocks run as written.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { transformSync } from 'esbuild';
import type { RunningServer } from '../../local/server';
import * as sdk from '../../sdk/src';
import { ApiError, AuthenticationError, createClient, parseRetryAfter, RateLimitedError } from '../../sdk/src';
import { buildDataStores } from '../../shared/composition/data-stores';
import { ingestBatch } from '../../shared/ingest/ingest-batch';
import { startTestServer } from '../support/test-server';
import { createTestStack, type TestStack } from '../support/test-stack';

let stack: TestStack;
let server: RunningServer;

beforeAll(async () => {
  stack = await createTestStack();
  const marks = [{ serial: 'US-SDK-ANKER', mark: 'Anker', nice: [9], is_live: true, drawing_kind: 'word' }];
  const summary = await ingestBatch(buildDataStores(stack.config), {
    holder: 'e2e-sdk',
    source: 'e2e',
    kind: 'marks-jsonl',
    market: 'US',
    input: Readable.from([marks.map((m) => JSON.stringify(m)).join('\n')]),
    batchDate: '2026-11-20',
  });
  if (!summary.complete) throw new Error('the corpus did not load');
  server = await startTestServer(stack);
});
afterAll(async () => server?.close());

it('screens, reads account and every usage page, sets the allowlist and reads status', async () => {
  const { apiKey } = await stack.openAccount({ points: 500 });
  const client = createClient({ baseUrl: `${server.url}/v1`, apiKey });
  const screened = await client.batchScreen({
    items: [{ title: 'Anker power bank 10000mAh' }, { title: 'Plain mug' }],
  });
  expect(screened.count).toBe(2);
  expect(screened.results[0]).toMatchObject({ name: 'Anker power bank 10000mAh', top_conflict: 'Anker' });
  await client.batchScreen({ items: [{ title: 'Blue ceramic bowl' }] });

  const account = await client.account();
  expect(account.balance).toBeLessThan(500);
  const pages = [];
  for await (const page of client.usagePages({ limit: 1 })) pages.push(page);
  expect(pages.length).toBeGreaterThanOrEqual(3);
  expect(pages.at(-1)!.next_cursor).toBeNull();
  const records = [];
  for await (const record of client.usageRecords({ limit: 2 })) records.push(record);
  expect(records.map((r) => r.id)).toEqual(pages.flatMap((p) => p.records.map((r) => r.id)));
  expect(records.filter((r) => r.kind === 'charge')).toHaveLength(2);

  expect((await client.putAllowlist(['Anker'])).brands).toEqual(['Anker']);
  expect(await client.getAllowlist()).toMatchObject({ brands: ['Anker'], count: 1 });
  const status = await createClient({ baseUrl: server.url }).status();
  expect(status.markets.length).toBeGreaterThan(0);
});

it('turns a bad key into a typed error with the envelope fields', async () => {
  const error = await createClient({ baseUrl: server.url, apiKey: 'tmk_test_not_a_key' })
    .account()
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AuthenticationError);
  expect(error).toBeInstanceOf(ApiError);
  expect(error).toMatchObject({ status: 401, code: 'invalid_api_key', family: 'authentication' });
  expect((error as ApiError).requestId).toEqual(expect.any(String));
});

it('retries a 429 after its Retry-After with the same Idempotency-Key (stub server)', async () => {
  const seen: { at: number; headers: IncomingHttpHeaders }[] = [];
  const stub = createServer((request, response) => {
    seen.push({ at: Date.now(), headers: request.headers });
    if (seen.length === 1) {
      response.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '1' });
      response.end('{"error":{"code":"rate_limited","message":"slow down","request_id":"r1"}}');
      return;
    }
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.end('{"results":[],"count":0,"data_as_of":"2026-11-20"}');
  });
  await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
  try {
    const base = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
    const client = createClient({ baseUrl: base, apiKey: 'k' });
    expect(await client.batchScreen({ items: [{ title: 'x' }] })).toMatchObject({ count: 0 });
    expect(seen).toHaveLength(2);
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(950);
    expect(seen[0]!.headers['idempotency-key']).toEqual(expect.any(String));
    expect(seen[1]!.headers['idempotency-key']).toBe(seen[0]!.headers['idempotency-key']);
    expect(seen[0]!.headers.authorization).toBe('Bearer k');

    seen.length = 0;
    const once = createClient({ baseUrl: base, apiKey: 'k', maxAttempts: 1 });
    const error = await once.batchScreen({ items: [{ title: 'x' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ code: 'rate_limited', retryAfterSeconds: 1, requestId: 'r1' });
  } finally {
    await new Promise((resolve) => stub.close(resolve));
  }
});

it('reads Retry-After as seconds or an HTTP date', () => {
  expect(parseRetryAfter('3')).toBe(3000);
  expect(parseRetryAfter(new Date(10_000).toUTCString(), 4000)).toBe(6000);
  expect(parseRetryAfter(null)).toBeUndefined();
});

it("runs docs/first-hour.md's ts blocks as written", async () => {
  const markdown = readFileSync(path.join(__dirname, '../../docs/first-hour.md'), 'utf8');
  const blocks = [...markdown.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
  expect(blocks.length).toBeGreaterThanOrEqual(5);
  const names = new Set<string>();
  const body = blocks
    .join('\n')
    .replace(/^import \{([^}]*)\} from '@trademark-risk\/sdk';$/gm, (_line, list: string) => {
      for (const name of list.split(',')) names.add(name.trim());
      return '';
    });
  const js = transformSync(body, { loader: 'ts', target: 'es2022' }).code;
  const { apiKey } = await stack.openAccount({ points: 200 });
  const lines: string[] = [];
  const output = { log: (...args: unknown[]) => lines.push(args.join(' ')) };
  const env = { TMK_BASE_URL: server.url, TMK_API_KEY: apiKey };
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
    ...args: string[]
  ) => (...values: unknown[]) => Promise<void>;
  const run = new AsyncFunction(...names, 'process', 'console', js);
  await run(...[...names].map((n) => (sdk as Record<string, unknown>)[n]), { env }, output);
  expect(lines.join('\n')).toMatch(/2 titles, register as of 2026-11-20/);
  expect(lines.join('\n')).toMatch(/professional: \d+ points left/);
  expect(lines).toContain('allowlist: My Shop Brand (1 of 500)');
  expect(lines.join('\n')).toMatch(/401 invalid_api_key: /);
});
