/**
 * An unknown key and a revoked key cannot be told apart from the outside: same status, body (but the request id),
 * headers (but the per-request ones), the same DynamoDB calls (counted at the SDK), and the same time, measured.
 */
import { createDynamoDbClients } from '../../shared/adapters/aws/dynamodb-client';
import { buildDependencies } from '../../shared/composition/metering';
import type { RunningServer } from '../../local/server';
import { createTestStack, type TestStack } from '../support/test-stack';
import { startTestServer } from '../support/test-server';
import { sendRaw, type RawResponse } from './raw-http';

const json = { 'Content-Type': 'application/json' };

describe('an unknown key and a revoked key cannot be told apart', () => {
  let stack: TestStack;
  let server: RunningServer;
  let calls: string[] = [];
  let revokedKey: string;
  const unknownKey = `tmk_test_${'x7Q'.repeat(10)}x7`;

  beforeAll(async () => {
    stack = await createTestStack();
    // The same dependencies as in production, over a client that counts every DynamoDB call at the SDK.
    const { raw, doc } = createDynamoDbClients({
      region: stack.config.region,
      endpoint: stack.config.dynamoDbEndpoint,
    });
    raw.middlewareStack.add(
      (next, context) => async (args) => {
        calls.push(context.commandName ?? 'unknown');
        return next(args);
      },
      { step: 'initialize', name: 'countDynamoDbCalls' },
    );
    server = await startTestServer({ ...stack, deps: buildDependencies(stack.config, doc) });
    const revoked = await stack.openAccount({ points: 100 });
    await stack.deps.accounts.revokeApiKey(revoked.accountId, revoked.keyId, new Date());
    revokedKey = revoked.apiKey;
  });
  afterAll(async () => server?.close());

  const send = (key: string) =>
    sendRaw(server.url, {
      method: 'POST',
      target: '/v1/batch-screen',
      headers: { ...json, Authorization: `Bearer ${key}` },
      body: '{"items":[{"title":"Nike shoes"}]}',
    });

  /** The response with what differs per request taken out. */
  const comparable = (response: RawResponse) => {
    const { date: _date, 'x-request-id': _id, ...headers } = response.headers;
    const { request_id: _requestId, ...error } = response.json.error;
    return { status: response.status, headers, error };
  };

  const callsOf = async (key: string) => {
    calls = [];
    const response = await send(key);
    return { response, calls: [...calls] };
  };

  it('same status, body, headers and DynamoDB calls', async () => {
    const unknown = await callsOf(unknownKey);
    const revoked = await callsOf(revokedKey);

    expect(comparable(revoked.response)).toEqual(comparable(unknown.response));
    expect(unknown.response.status).toBe(401);
    expect(unknown.response.json.error.code).toBe('invalid_api_key');
    expect(revoked.calls).toEqual(unknown.calls);
    expect(unknown.calls).toEqual(['GetItemCommand']);
  });

  it('the same time, as far as a client can measure (medians reported; a generous sanity bound only)', async () => {
    const rounds = 150;
    const times: Record<'unknown' | 'revoked', number[]> = { unknown: [], revoked: [] };
    for (let i = 0; i < 10; i++) await Promise.all([send(unknownKey), send(revokedKey)]); // warm both paths
    for (let i = 0; i < rounds; i++) {
      // Alternate which goes first, so that drift on a shared machine falls on both alike.
      const order: ('unknown' | 'revoked')[] = i % 2 === 0 ? ['unknown', 'revoked'] : ['revoked', 'unknown'];
      for (const kind of order) {
        const started = process.hrtime.bigint();
        const response = await send(kind === 'unknown' ? unknownKey : revokedKey);
        times[kind].push(Number(process.hrtime.bigint() - started) / 1e6);
        expect(response.status).toBe(401);
      }
    }
    const quantile = (values: number[], q: number) =>
      [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))]!;
    const report = (kind: 'unknown' | 'revoked') =>
      `${kind} median ${quantile(times[kind], 0.5).toFixed(2)} ms, p90 ${quantile(times[kind], 0.9).toFixed(2)} ms`;
    console.log(`unknown vs revoked key, ${rounds} requests each: ${report('unknown')}; ${report('revoked')}`);

    const [unknownMedian, revokedMedian] = [quantile(times.unknown, 0.5), quantile(times.revoked, 0.5)];
    expect(Math.abs(unknownMedian - revokedMedian)).toBeLessThan(
      Math.max(5, 0.5 * Math.min(unknownMedian, revokedMedian)),
    );
  }, 120_000);
});
