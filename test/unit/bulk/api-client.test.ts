/**
 * The bulk tools' client against a real local HTTP server: 429 and 5xx are retried, Retry-After is honoured (as
 * seconds and as a date), other refusals come back at once, and a call that never succeeds stops after its attempts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiCallFailedError, createApiClient, retryAfterMs } from '../../../local/bulk/api-client';

let server: Server;
let base: string;
let script: { status: number; headers?: Record<string, string> }[] = [];
const seen: { key?: string; auth?: string; body: string }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      seen.push({
        key: request.headers['idempotency-key'] as string | undefined,
        auth: request.headers.authorization,
        body,
      });
      const next = script.shift() ?? { status: 200 };
      response.writeHead(next.status, { 'Content-Type': 'application/json', ...next.headers });
      response.end(
        JSON.stringify(next.status === 200 ? { ok: true } : { error: { code: `code_${next.status}`, message: 'no' } }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen.length = 0;
});

function client(maxAttempts = 8) {
  const waits: number[] = [];
  const post = createApiClient({
    baseUrl: `${base}/`,
    apiKey: 'tmk_test_key',
    maxAttempts,
    sleep: async (ms) => void waits.push(ms),
  });
  return { post, waits };
}

describe('the bulk client', () => {
  it('retries 429 and 503, waiting at least what Retry-After asks, with the same key and body each time', async () => {
    script = [
      { status: 429, headers: { 'Retry-After': '3' } },
      { status: 503, headers: { 'Retry-After': '1' } },
      { status: 500 },
      { status: 200 },
    ];
    const { post, waits } = client();

    const answer = await post('/v1/batch-screen', { items: [1] }, { 'Idempotency-Key': 'k1' });

    expect([answer.status, answer.body]).toEqual([200, { ok: true }]);
    expect(waits[0]).toBeGreaterThanOrEqual(3000);
    expect(waits[1]).toBeGreaterThanOrEqual(1000);
    expect(waits).toHaveLength(3);
    expect(seen.map((s) => [s.key, s.auth, s.body])).toEqual(
      Array(4).fill(['k1', 'Bearer tmk_test_key', '{"items":[1]}']),
    );
  });

  it('returns any other refusal at once, without retrying', async () => {
    script = [{ status: 402 }];
    const { post, waits } = client();
    const answer = await post('/v1/batch-screen', {});
    expect([answer.status, answer.body.error?.code, waits]).toEqual([402, 'code_402', []]);
  });

  it('gives up after its attempts with the last reason', async () => {
    script = [{ status: 503 }, { status: 503 }, { status: 503 }];
    const { post } = client(3);
    await expect(post('/v1/batch-screen', {})).rejects.toThrow(
      new ApiCallFailedError('/v1/batch-screen failed 3 times, last: 503 code_503'),
    );
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('7')).toBe(7000);
    expect(retryAfterMs(new Date(Date.UTC(2026, 0, 1, 0, 0, 10)).toUTCString(), Date.UTC(2026, 0, 1))).toBe(10_000);
    expect([retryAfterMs(null), retryAfterMs('soon')]).toEqual([undefined, undefined]);
  });
});
