/**
 * What the service writes to its logs while serving real HTTP requests: one access line per request with the
 * request id, and EMF metric lines for billing.
 */
import type { RunningServer } from '../../local/server';
import { chargeTestOperation } from '../support/test-operation';
import { createTestStack, type TestStack } from '../support/test-stack';
import { post, startTestServer } from '../support/test-server';
import { captureOutput, type CapturedOutput } from '../support/captured-output';

let stack: TestStack;
let server: RunningServer;
let output: CapturedOutput;

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
  output = captureOutput();
});
afterEach(() => output.restore());

const lines = () => output.lines();

// That no API key reaches a log line, wherever a client puts it, is test/reliability/keys.test.ts.

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
