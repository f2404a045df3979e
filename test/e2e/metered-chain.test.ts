/**
 * The metered chain over real HTTP against DynamoDB Local: concurrency, refusals without charge, refunds,
 * idempotent replays. Driven by an operation registered only in tests (test/support/test-operation.ts).
 */
import { auditAccount } from '../../shared/metering/accounts';
import type { RunningServer } from '../../local/server';
import { chargeTestOperation } from '../support/test-operation';
import { createTestStack, type TestStack } from '../support/test-stack';
import { post, readJson, startTestServer } from '../support/test-server';

let stack: TestStack;
let server: RunningServer;
let url: string;

beforeAll(async () => {
  stack = await createTestStack();
  server = await startTestServer(stack, [{ path: '/v1/test-charge', operation: chargeTestOperation }]);
  url = `${server.url}/v1/test-charge`;
});
afterAll(async () => server?.close());

const bearer = (apiKey: string) => ({ Authorization: `Bearer ${apiKey}` });
const balanceOf = async (accountId: string) =>
  (await stack.deps.accounts.getAccount(accountId, { consistent: true }))!.points;

describe('concurrent debits', () => {
  it('200 requests of 5 points against 500: exactly 100 succeed, 100 get 402, balance 0, 100 usage records', async () => {
    const { accountId, apiKey } = await stack.openAccount({ points: 500 });

    const responses = await Promise.all(Array.from({ length: 200 }, () => post(url, { points: 5 }, bearer(apiKey))));
    const statuses = responses.map((r) => r.status);

    expect(statuses.filter((s) => s === 200)).toHaveLength(100);
    expect(statuses.filter((s) => s === 402)).toHaveLength(100);
    expect(await balanceOf(accountId)).toBe(0);
    const charges = (await stack.deps.ledger.entries(accountId)).filter((e) => e.kind === 'charge');
    expect(charges).toHaveLength(100);
    expect(new Set(charges.map((c) => c.requestId)).size).toBe(100);
    expect((await auditAccount(stack.deps, accountId)).consistent).toBe(true);
  });
});

describe('successful call', () => {
  it('charges the cost once and reports cost, balance and request id', async () => {
    const { accountId, apiKey } = await stack.openAccount({ points: 100 });

    const response = await post(url, { points: 7 }, bearer(apiKey));

    expect(response.status).toBe(200);
    expect(response.headers.get('x-points-cost')).toBe('7');
    expect(response.headers.get('x-points-balance')).toBe('93');
    const body = await readJson(response);
    expect(response.headers.get('x-request-id')).toBe(body.requestId);
    expect(await balanceOf(accountId)).toBe(93);
  });

  it('serves the /v1/v1 alias of the real routes through the same chain', async () => {
    const { apiKey } = await stack.openAccount({ points: 100 });
    const response = await post(`${server.url}/v1/v1/batch-screen`, { items: 'nope' }, bearer(apiKey));
    expect(response.status).toBe(400);
    expect((await readJson(response)).error.code).toBe('invalid_request');
  });
});

describe('refusals are never charged', () => {
  let account: { accountId: string; apiKey: string; keyId: string };
  beforeAll(async () => {
    account = await stack.openAccount({ points: 50 });
  });

  const cases: [string, () => Promise<Response>, number, string][] = [
    ['missing key', () => post(url, { points: 1 }), 401, 'missing_api_key'],
    [
      'malformed header',
      () => post(url, { points: 1 }, { Authorization: `Basic ${account.apiKey}` }),
      401,
      'invalid_api_key',
    ],
    ['malformed key', () => post(url, { points: 1 }, { Authorization: 'Bearer not-a-key' }), 401, 'invalid_api_key'],
    [
      'unknown key',
      () => post(url, { points: 1 }, { Authorization: `Bearer tmk_test_${'A'.repeat(32)}` }),
      401,
      'invalid_api_key',
    ],
    ['bad JSON', () => post(url, '{"points": 1,', bearer(account.apiKey)), 400, 'invalid_json'],
    ['empty body', () => post(url, '', bearer(account.apiKey)), 400, 'invalid_json'],
    ['JSON that is not an object', () => post(url, '[1,2]', bearer(account.apiKey)), 400, 'invalid_request'],
    [
      'wrong content type',
      () => post(url, '{"points":1}', { ...bearer(account.apiKey), 'Content-Type': 'text/plain' }),
      415,
      'unsupported_media_type',
    ],
    [
      'non-UTF-8 charset',
      () =>
        post(url, '{"points":1}', { ...bearer(account.apiKey), 'Content-Type': 'application/json; charset=latin1' }),
      415,
      'unsupported_media_type',
    ],
    [
      'oversized body',
      () => post(url, JSON.stringify({ points: 1, pad: 'x'.repeat(6_000_001) }), bearer(account.apiKey)),
      413,
      'payload_too_large',
    ],
    [
      'conflicting query and body',
      () => post(`${url}?points=2`, { points: 1 }, bearer(account.apiKey)),
      400,
      'parameter_conflict',
    ],
    ['invalid field', () => post(url, { points: 'ten' }, bearer(account.apiKey)), 400, 'invalid_request'],
    [
      'bad Idempotency-Key',
      () => post(url, { points: 1 }, { ...bearer(account.apiKey), 'Idempotency-Key': 'x'.repeat(300) }),
      400,
      'invalid_request',
    ],
    ['more than the balance', () => post(url, { points: 51 }, bearer(account.apiKey)), 402, 'insufficient_points'],
  ];

  it.each(cases)('%s', async (_name, send, status, code) => {
    const response = await send();
    const body = await readJson(response);

    expect(response.status).toBe(status);
    expect(body.error.code).toBe(code);
    expect(typeof body.error.message).toBe('string');
    expect(body.error.request_id).toBe(response.headers.get('x-request-id'));
    expect(await balanceOf(account.accountId)).toBe(50);
  });

  it('402 says the balance and the cost', async () => {
    const body = await readJson(await post(url, { points: 51 }, bearer(account.apiKey)));
    expect(body.error.details).toEqual({ balance: 50, cost: 51 });
  });

  it('names every invalid field', async () => {
    const body = await readJson(await post(url, { points: 0, fail: 'sometimes', delayMs: -1 }, bearer(account.apiKey)));
    expect(body.error.details.issues.map((i: { field: string }) => i.field).sort()).toEqual([
      'delayMs',
      'fail',
      'points',
    ]);
  });

  it('a revoked key is refused like an unknown one', async () => {
    const other = await stack.openAccount({ points: 10 });
    expect((await post(url, { points: 1 }, bearer(other.apiKey))).status).toBe(200);
    await stack.deps.accounts.revokeApiKey(other.accountId, other.keyId, new Date());

    const response = await post(url, { points: 1 }, bearer(other.apiKey));

    expect(response.status).toBe(401);
    expect((await readJson(response)).error).toMatchObject({ code: 'invalid_api_key' });
    expect(await balanceOf(other.accountId)).toBe(9);
  });

  it('a tier below professional gets 403 tier_not_allowed', async () => {
    const basic = await stack.openAccount({ tier: 'basic', points: 10 });
    const response = await post(url, { points: 1 }, bearer(basic.apiKey));
    expect(response.status).toBe(403);
    expect((await readJson(response)).error).toMatchObject({
      code: 'tier_not_allowed',
      details: { tier: 'basic', required_tier: 'professional' },
    });
    expect(await balanceOf(basic.accountId)).toBe(10);
  });

  it('answers in Chinese for Accept-Language: zh', async () => {
    const body = await readJson(await post(url, { points: 1 }, { 'Accept-Language': 'zh-CN,zh;q=0.9,en;q=0.8' }));
    expect(body.error.code).toBe('missing_api_key');
    expect(body.error.message).toMatch(/[\u4e00-\u9fff]/);
  });
});

describe('failures after the debit', () => {
  it.each([
    ['crash', 500, 'internal_error'],
    ['unavailable', 503, 'service_unavailable'],
  ])('%s: refunded once, the usage record marked refunded', async (fail, status, code) => {
    const { accountId, apiKey } = await stack.openAccount({ points: 20 });

    const response = await post(url, { points: 5, fail }, bearer(apiKey));

    expect(response.status).toBe(status);
    const body = await readJson(response);
    expect(body.error.code).toBe(code);
    expect(JSON.stringify(body)).not.toMatch(/at .*\.ts|stack/);
    expect(await balanceOf(accountId)).toBe(20);
    const [charge] = (await stack.deps.ledger.entries(accountId)).filter((e) => e.kind === 'charge');
    expect(charge).toMatchObject({ status: 'refunded', points: 5 });
  });

  it('a refund is never applied twice', async () => {
    const { accountId } = await stack.openAccount({ points: 20 });
    const debit = await stack.deps.ledger.debit({
      accountId,
      cost: 4,
      units: 1,
      operation: 'test',
      requestId: 'r1',
      now: new Date(),
    });

    const outcomes = await Promise.all([1, 2, 3].map(() => stack.deps.ledger.refund(debit, 'test', new Date())));

    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect(await balanceOf(accountId)).toBe(20);
  });

  it('the function running out of time refunds the charge', async () => {
    const slow = await startTestServer(stack, [{ path: '/v1/test-charge', operation: chargeTestOperation }], {
      timeoutMs: 2500,
    });
    try {
      const { accountId, apiKey } = await stack.openAccount({ points: 20 });

      const response = await post(`${slow.url}/v1/test-charge`, { points: 5, delayMs: 5000 }, bearer(apiKey));

      expect(response.status).toBe(503);
      expect((await readJson(response)).error.code).toBe('service_unavailable');
      expect(await balanceOf(accountId)).toBe(20);
    } finally {
      await slow.close();
    }
  });
});

describe('Idempotency-Key', () => {
  it('replays the first response byte for byte and charges once', async () => {
    const { accountId, apiKey } = await stack.openAccount({ points: 100 });
    const headers = { ...bearer(apiKey), 'Idempotency-Key': 'order-42' };

    const first = await post(url, { points: 10, note: 'a' }, headers);
    const firstBody = await first.text();
    expect((await post(url, { points: 3 }, bearer(apiKey))).status).toBe(200);
    const second = await post(url, { note: 'a', points: 10 }, headers);
    const secondBody = await second.text();

    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(secondBody).toBe(firstBody);
    expect(first.headers.get('x-points-cost')).toBe('10');
    expect(first.headers.get('x-points-balance')).toBe('90');
    // Nothing was charged for the replay: cost 0, the balance as it is now (another call moved it meanwhile).
    expect(second.headers.get('x-points-cost')).toBe('0');
    expect(second.headers.get('x-points-balance')).toBe('87');
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(await balanceOf(accountId)).toBe(87);
  });

  it('the same key with another body is a 422', async () => {
    const { accountId, apiKey } = await stack.openAccount({ points: 100 });
    const headers = { ...bearer(apiKey), 'Idempotency-Key': 'k-1' };
    await post(url, { points: 10 }, headers);

    const response = await post(url, { points: 11 }, headers);

    expect(response.status).toBe(422);
    expect((await readJson(response)).error.code).toBe('idempotency_key_reused');
    expect(await balanceOf(accountId)).toBe(90);
  });

  it('a concurrent duplicate gets 409 while the first runs', async () => {
    const { accountId, apiKey } = await stack.openAccount({ points: 100 });
    const headers = { ...bearer(apiKey), 'Idempotency-Key': 'slow-1' };

    const first = post(url, { points: 10, delayMs: 1500 }, headers);
    // The first holds the key once it is charged (the charge comes after the key is claimed).
    while ((await stack.deps.ledger.entries(accountId)).filter((e) => e.kind === 'charge').length === 0) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const duplicate = await post(url, { points: 10, delayMs: 1500 }, headers);

    expect(duplicate.status).toBe(409);
    expect((await readJson(duplicate)).error.code).toBe('idempotency_key_in_progress');
    expect((await first).status).toBe(200);
    expect(await balanceOf(accountId)).toBe(90);
  });

  it('a failed request frees its key: the retry runs and is charged once', async () => {
    const { accountId, apiKey } = await stack.openAccount({ points: 100 });
    const headers = { ...bearer(apiKey), 'Idempotency-Key': 'retry-me' };
    expect((await post(url, { points: 10, fail: 'unavailable' }, headers)).status).toBe(503);
    // A different body under the same key after a failure is a new attempt, not a reuse.
    const retry = await post(url, { points: 10 }, headers);
    expect(retry.status).toBe(200);
    expect(await balanceOf(accountId)).toBe(90);
  });

  it('keys are scoped to the account', async () => {
    const a = await stack.openAccount({ points: 100 });
    const b = await stack.openAccount({ points: 100 });
    expect((await post(url, { points: 10 }, { ...bearer(a.apiKey), 'Idempotency-Key': 'shared' })).status).toBe(200);
    expect((await post(url, { points: 20 }, { ...bearer(b.apiKey), 'Idempotency-Key': 'shared' })).status).toBe(200);
    expect(await balanceOf(b.accountId)).toBe(80);
  });
});

describe('rate limit', () => {
  it('refuses beyond the account limit with 429 and Retry-After, without charging', async () => {
    // A clock held still in the middle of a window, so the window cannot roll over during the test.
    const held = await createTestStack({ RATE_LIMIT_WINDOW_SECONDS: '60' });
    const middleOfWindow = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 30_000);
    held.deps.now = () => middleOfWindow;
    const heldServer = await startTestServer(held, [{ path: '/v1/test-charge', operation: chargeTestOperation }]);
    try {
      const { accountId, apiKey } = await held.openAccount({ points: 100, rateLimit: 3 });
      const send = () => post(`${heldServer.url}/v1/test-charge`, { points: 1 }, bearer(apiKey));

      const responses = await Promise.all(Array.from({ length: 6 }, send));

      expect(responses.map((r) => r.status).sort()).toEqual([200, 200, 200, 429, 429, 429]);
      const limited = responses.find((r) => r.status === 429)!;
      expect(limited.headers.get('retry-after')).toBe('30');
      expect((await readJson(limited)).error).toMatchObject({
        code: 'rate_limited',
        details: { limit: 3, window_seconds: 60 },
      });
      expect(responses.find((r) => r.status === 200)!.headers.get('x-ratelimit-limit')).toBe('3');
      expect((await held.deps.accounts.getAccount(accountId, { consistent: true }))!.points).toBe(97);
    } finally {
      await heldServer.close();
    }
  });
});
