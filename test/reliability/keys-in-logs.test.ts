/**
 * No API key reaches a log line: a mixed set of requests (valid, unknown, revoked and malformed keys; keys in the
 * Authorization header in odd forms, in the query string, the body, other headers and the path, in plain,
 * percent-encoded and upper-case spellings) with everything written to stdout and stderr captured (Powertools
 * Logger and Metrics, console), and every line scanned for every key, its secret part and its SHA-256 hash.
 */
// First: loggers built when a module loads (the not-found function's) must see the level too.
import './verbose-logs';
import { hashApiKey } from '../../shared/metering/api-keys';
import type { RunningServer } from '../../local/server';
import { captureOutput, type CapturedOutput } from '../support/captured-output';
import { chargeTestOperation } from '../support/test-operation';
import { createTestStack, type TestStack } from '../support/test-stack';
import { startTestServer } from '../support/test-server';
import { contractBreach } from './documented-errors';
import { sendRaw, type RawRequest, type RawResponse } from './raw-http';

const json = { 'Content-Type': 'application/json' };

describe('no API key in any log line', () => {
  let stack: TestStack;
  let server: RunningServer;
  let output: CapturedOutput | undefined;

  beforeAll(async () => {
    stack = await createTestStack();
    server = await startTestServer(stack, [{ path: '/v1/test-charge', operation: chargeTestOperation }]);
  });
  afterAll(async () => {
    output?.restore();
    await server?.close();
  });

  it('whatever the client puts where, and whatever the outcome', async () => {
    const valid = await stack.openAccount({ points: 1000 });
    const revoked = await stack.openAccount({ points: 100 });
    await stack.deps.accounts.revokeApiKey(revoked.accountId, revoked.keyId, new Date());
    const basic = await stack.openAccount({ tier: 'basic', points: 100 });
    const unknown = `tmk_test_${'Zq9'.repeat(10)}Zq`;
    const keys = [valid.apiKey, revoked.apiKey, basic.apiKey, unknown];
    const encoded = (key: string) => key.replace(/_/g, '%5F');
    const everyByte = (key: string) =>
      [...key].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
    const auth = (key: string) => ({ ...json, Authorization: `Bearer ${key}` });

    const requests: RawRequest[] = keys.flatMap((key): RawRequest[] => [
      // The Authorization header, in the forms a client gets wrong.
      { method: 'POST', target: '/v1/batch-screen', headers: auth(key), body: '{"items":[{"title":"Nike shoes"}]}' },
      {
        method: 'POST',
        target: '/v1/batch-screen',
        headers: { ...json, Authorization: `bearer   ${key}  ` },
        body: '{"items":[{"title":"a"}]}',
      },
      { method: 'POST', target: '/v1/batch-screen', headers: { ...json, Authorization: `Basic ${key}` }, body: '{}' },
      { method: 'POST', target: '/v1/batch-screen', headers: { ...json, Authorization: key }, body: '{}' },
      {
        method: 'POST',
        target: '/v1/batch-screen',
        headers: { ...json, Authorization: `Bearer ${key.toUpperCase()}` },
        body: '{}',
      },
      {
        method: 'POST',
        target: '/v1/batch-screen',
        headers: { ...json, Authorization: `Bearer ${key},Bearer ${key}` },
        body: '{}',
      },
      // Elsewhere in the request.
      {
        method: 'POST',
        target: `/v1/image-search?api_key=${key}&url=${encodeURIComponent(`http://127.0.0.1/${key}.png`)}`,
        headers: auth(key),
        body: '{}',
      },
      { method: 'POST', target: `/v1/image-search?country=${key}`, headers: auth(key), body: '{"image_b64":"x"}' },
      {
        method: 'POST',
        target: '/v1/image-search',
        headers: auth(key),
        body: JSON.stringify({ url: `http://${key.toLowerCase()}.example/${key}.png` }),
      },
      {
        method: 'POST',
        target: '/v1/image-search',
        headers: auth(key),
        body: JSON.stringify({ image_b64: key, country: key }),
      },
      {
        method: 'POST',
        target: '/v1/batch-screen',
        headers: auth(key),
        body: JSON.stringify({ items: [{ title: key, nice: key }], api_key: key }),
      },
      { method: 'POST', target: '/v1/batch-screen', headers: auth(key), body: `{"broken": "${key}` },
      {
        method: 'POST',
        target: '/v1/batch-screen',
        headers: { 'X-Api-Key': key, 'Api-Key': key, Cookie: `key=${key}`, 'Content-Type': `application/${key}` },
        body: '{}',
      },
      {
        method: 'POST',
        target: '/v1/batch-screen',
        headers: {
          ...auth(key),
          'Idempotency-Key': key,
          'Accept-Language': key,
          'User-Agent': key,
          'X-Forwarded-For': key,
        },
        body: '{"items":[{"title":"b"}]}',
      },
      { method: 'POST', target: `/v1/${key}`, headers: auth(key), body: '{}' },
      { method: 'GET', target: `/v1/batch-screen/${encoded(key)}` },
      { method: 'GET', target: `/v1/${everyByte(key)}` },
      { method: 'DELETE', target: `/v1/keys/${key.toUpperCase()}` },
      { method: 'GET', target: `/v1/keys/${key.slice(key.lastIndexOf('_') + 1)}` },
      { method: 'GET', target: `/v1/%C0%AF${encoded(key)}%ZZ` },
      { method: 'POST', target: `/v1/${key}/../batch-screen`, headers: auth(key), body: '{"items":[{"title":"c"}]}' },
      {
        method: 'POST',
        target: '/v1/batch-screen',
        headers: { ...auth(key), 'X-Pad': `${key}${'x'.repeat(20_000)}` },
        body: '{}',
      },
      // After the charge: a crash (500, logged with its stack) and an engine that is unavailable (503, logged).
      {
        method: 'POST',
        target: `/v1/test-charge?note=${key}`,
        headers: auth(key),
        body: JSON.stringify({ points: 1, fail: 'crash' }),
      },
      {
        method: 'POST',
        target: '/v1/test-charge',
        headers: auth(key),
        body: JSON.stringify({ points: 1, fail: 'unavailable', note: key.slice(0, 100) }),
      },
    ]);

    output = captureOutput();
    const responses: RawResponse[] = [];
    try {
      for (const request of requests) responses.push(await sendRaw(server.url, request));
    } finally {
      output.restore();
    }
    const lines = output.lines();
    output = undefined;

    // The run did what it should: documented answers, some of them 2xx, one access line per answered request.
    // (The test operation's deliberate crash, reached by the valid key alone, is the one 500: it has its stack logged.)
    expect(responses.filter((r) => r.status === 500 && r.json?.error?.code === 'internal_error')).toHaveLength(1);
    for (const [i, response] of responses.entries())
      if (response.status !== 500) expect([i, contractBreach(response, requests[i]!.method)]).toEqual([i, undefined]);
    expect(responses.filter((r) => r.status === 200).length).toBeGreaterThan(0);
    expect(lines.filter((l) => l.includes('"message":"request"')).length).toBeGreaterThan(requests.length / 2);
    expect(lines.some((l) => l.includes('unhandled error'))).toBe(true);

    const secrets = keys.flatMap((key) => [
      key,
      key.slice(key.lastIndexOf('_') + 1),
      key.toUpperCase().slice(key.lastIndexOf('_') + 1),
      hashApiKey(key),
    ]);
    const leaks = lines.flatMap((line) =>
      secrets
        .filter((secret) => line.includes(secret))
        .map((secret) => `${secret.slice(0, 12)}… in ${line.slice(0, 300)}`),
    );
    expect(leaks).toEqual([]);
    console.log(
      `keys in logs: ${requests.length} requests, ${lines.length} log lines scanned for ${secrets.length} secrets`,
    );
  });
});
