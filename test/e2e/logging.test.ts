/**
 * What the service writes to its logs while serving real HTTP requests: one access line per request with the
 * request id, EMF metric lines for billing, and never an API key, whatever the client puts where.
 */
import type { RunningServer } from '../../infra/local/server';
import { chargeTestOperation } from '../support/test-operation';
import { createTestStack, type TestStack } from '../support/test-stack';
import { post, startTestServer } from '../support/test-server';

let stack: TestStack;
let server: RunningServer;
let captured: string[];
let restore: () => void;

beforeAll(async () => {
  // Logs and metrics are switched on for this suite only.
  process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
  stack = await createTestStack();
  server = await startTestServer(stack, [{ path: '/v1/test-charge', operation: chargeTestOperation }]);
});
afterAll(async () => {
  process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
  await server?.close();
});

beforeEach(() => {
  captured = [];
  const streams = [process.stdout, process.stderr];
  const writes = streams.map((stream) => stream.write);
  for (const stream of streams) {
    stream.write = ((chunk: string | Uint8Array) => {
      captured.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    }) as typeof stream.write;
  }
  restore = () => streams.forEach((stream, i) => (stream.write = writes[i]!));
});
afterEach(() => restore());

const lines = () => captured.join('').split('\n').filter(Boolean);

it('never writes an API key, in headers, body, query or errors', async () => {
  const { apiKey } = await stack.openAccount({ points: 100 });
  const other = `tmk_test_${'Z'.repeat(32)}`;
  const url = `${server.url}/v1/test-charge`;

  await post(url, { points: 1, note: apiKey }, { Authorization: `Bearer ${apiKey}` });
  await post(`${url}?note=${other}`, { points: 1, fail: 'crash' }, { Authorization: `Bearer ${apiKey}` });
  await post(url, `{"broken": "${apiKey}`, { Authorization: `Bearer ${apiKey}` });
  await post(url, { points: 1 }, { Authorization: `Bearer ${other}` });
  await post(url, { points: 1 }, { Authorization: `Basic ${apiKey}` });

  const all = lines();
  expect(all.filter((l) => l.includes('"message":"request"'))).toHaveLength(5);
  expect(all.some((l) => l.includes('unhandled error'))).toBe(true);
  const secret = apiKey.slice(apiKey.lastIndexOf('_') + 1);
  for (const line of all) {
    expect(line).not.toContain(secret);
    expect(line).not.toContain('Z'.repeat(32));
  }
});

it('writes one access line per request with its id, status and charge, and EMF billing metrics', async () => {
  const { accountId, apiKey } = await stack.openAccount({ points: 100 });

  const response = await post(`${server.url}/v1/test-charge`, { points: 3 }, { Authorization: `Bearer ${apiKey}` });

  const requestId = response.headers.get('x-request-id');
  const parsed = lines().map((l) => JSON.parse(l) as Record<string, unknown>);
  const access = parsed.filter((l) => l.message === 'request' && l.requestId === requestId);
  expect(access).toHaveLength(1);
  expect(access[0]).toMatchObject({ status: 200, accountId, points: 3, operation: 'test-charge' });
  const charged = parsed.find((l) => '_aws' in l && 'PointsCharged' in l);
  expect(charged).toMatchObject({ PointsCharged: 3, operation: 'test-charge', tier: 'professional' });
});

it('counts the outcomes an operation reports (Degraded) as metrics of their own', async () => {
  const { apiKey } = await stack.openAccount({ points: 100 });

  await post(`${server.url}/v1/test-charge`, { points: 1, note: 'degraded' }, { Authorization: `Bearer ${apiKey}` });
  await post(`${server.url}/v1/test-charge`, { points: 1, note: 'plain' }, { Authorization: `Bearer ${apiKey}` });

  const degraded = lines()
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => '_aws' in l && 'Degraded' in l);
  expect(degraded).toHaveLength(1);
  expect(degraded[0]).toMatchObject({ Degraded: 1, operation: 'test-charge', service: 'trademark-risk-api' });
});
