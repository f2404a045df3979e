/**
 * The webhook routes over real HTTP against DynamoDB Local, with a real local HTTPS receiver (its self-signed CA and
 * loopback address trusted by this test server's webhook routes only, through startTestServer's webhookTrust):
 * set (the secret shown once), read (never the secret), rotate, a test delivery the receiver verifies or refuses,
 * the dead letters, a dead letter sent again, every dead letter re-queued in bulk (a bounded number per call, with a
 * cursor; each delivered once by this server's in-process deliverer), remove. Every bad input gets its documented
 * code and no call is charged. Through the SDK too.
 */
import type { RunningServer } from '../../local/server';
import { createClient } from '../../sdk/src';
import { buildWebhookStore } from '../../shared/composition/webhooks';
import { deliverEvent } from '../../shared/webhooks/deliver-event';
import { DEFAULT_ATTEMPTS } from '../../shared/webhooks/deliver-webhook';
import { MAX_REQUEUED_PER_CALL } from '../../shared/webhooks/redeliver';
import { testEventOf } from '../../shared/webhooks/webhook';
import { type HttpsReceiver, startHttpsReceiver } from '../support/https-receiver';
import { readJson, startTestServer } from '../support/test-server';
import { createTestStack, type TestStack } from '../support/test-stack';

let stack: TestStack;
let server: RunningServer;
let receiver: HttpsReceiver;

beforeAll(async () => {
  stack = await createTestStack();
  receiver = await startHttpsReceiver();
  server = await startTestServer(stack, [], {
    webhookTrust: { trustedCa: receiver.ca, allowAddress: receiver.allowAddress },
  });
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});
beforeEach(() => receiver.reset());

const send = (method: string, path: string, apiKey: string, body?: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${apiKey}`,
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });

const balanceOf = async (apiKey: string) => (await readJson(await send('GET', '/v1/account', apiKey))).balance;

it('sets a webhook with its secret shown once, reads it without, rotates it, tests it, removes it', async () => {
  const { apiKey } = await stack.openAccount({ tier: 'professional', points: 100 });
  const url = `${receiver.origin}/hooks`;

  const created = await send('PUT', '/v1/webhook', apiKey, { url });
  const createdBody = await readJson(created);
  const read = await readJson(await send('GET', '/v1/webhook', apiKey));
  const moved = await readJson(await send('PUT', '/v1/webhook', apiKey, { url: `${url}/v2` }));
  receiver.secret = createdBody.secret;
  const tested = await readJson(await send('POST', '/v1/webhook/test', apiKey, {}));
  const rotated = await readJson(await send('PUT', '/v1/webhook', apiKey, { url, rotate_secret: true }));
  const staleReceiver = await readJson(await send('POST', '/v1/webhook/test', apiKey, {}));
  receiver.secret = rotated.secret;
  const freshReceiver = await readJson(await send('POST', '/v1/webhook/test', apiKey, {}));
  const deleted = await readJson(await send('DELETE', '/v1/webhook', apiKey));
  const deletedAgain = await readJson(await send('DELETE', '/v1/webhook', apiKey));
  const gone = await send('GET', '/v1/webhook', apiKey);

  expect(created.status).toBe(200);
  expect(createdBody).toMatchObject({ url, secret: expect.stringMatching(/^whsec_/) });
  expect(read).toEqual({
    url,
    created_at: createdBody.created_at,
    updated_at: createdBody.updated_at,
    secret_issued_at: createdBody.secret_issued_at,
  });
  expect(moved.url).toBe(`${url}/v2`);
  expect(moved.secret).toBeUndefined();
  expect(tested).toMatchObject({ url: `${url}/v2`, delivered: true, status: 204 });
  expect(rotated.secret).toMatch(/^whsec_/);
  expect(rotated.secret).not.toBe(createdBody.secret);
  expect(rotated.created_at).toBe(createdBody.created_at);
  expect(staleReceiver).toMatchObject({ delivered: false, status: 401, error: 'answered 401' });
  expect(freshReceiver).toMatchObject({ delivered: true, status: 204 });
  expect(receiver.received.map((r) => [r.valid, JSON.parse(r.body).type, r.eventId])).toEqual([
    [true, 'webhook.test', tested.event_id],
    [false, 'webhook.test', staleReceiver.event_id],
    [true, 'webhook.test', freshReceiver.event_id],
  ]);
  expect([deleted, deletedAgain]).toEqual([{ deleted: true }, { deleted: false }]);
  expect(gone.status).toBe(404);
  expect((await readJson(gone)).error.code).toBe('not_found');
  expect(await balanceOf(apiKey)).toBe(100);
});

it('lists the dead letters newest first with their payload, a page at a time', async () => {
  const { apiKey, accountId } = await stack.openAccount({ tier: 'professional', points: 100 });
  const { secret } = await readJson(await send('PUT', '/v1/webhook', apiKey, { url: `${receiver.origin}/hooks` }));
  receiver.secret = secret;
  receiver.script = Array(2 * DEFAULT_ATTEMPTS).fill('fail');
  const store = buildWebhookStore(stack.config);
  const settings = receiver.deliverySettings();
  const older = testEventOf(accountId, new Date());
  const newer = testEventOf(accountId, new Date());
  await deliverEvent(store, older, settings);
  await new Promise((resolve) => setTimeout(resolve, 5));
  await deliverEvent(store, newer, settings);

  const first = await readJson(await send('GET', '/v1/webhook/dead-letters?limit=1', apiKey));
  const second = await readJson(
    await send('GET', `/v1/webhook/dead-letters?limit=1&cursor=${first.next_cursor}`, apiKey),
  );

  expect(first).toMatchObject({ count: 1, next_cursor: expect.any(String) });
  expect(first.dead_letters[0]).toMatchObject({
    id: newer.eventId,
    url: `${receiver.origin}/hooks`,
    attempts: DEFAULT_ATTEMPTS,
    last_error: 'answered 503',
    last_status: 503,
    payload: JSON.parse(newer.body),
  });
  expect(second).toMatchObject({ count: 1, next_cursor: null });
  expect(second.dead_letters[0].id).toBe(older.eventId);
});

it('sends a dead letter again once the receiver is fixed: delivered, it leaves the dead letters', async () => {
  const { apiKey, accountId } = await stack.openAccount({ tier: 'professional', points: 100 });
  const { secret } = await readJson(await send('PUT', '/v1/webhook', apiKey, { url: `${receiver.origin}/hooks` }));
  receiver.secret = secret;
  receiver.script = Array(DEFAULT_ATTEMPTS + 1).fill('fail');
  const store = buildWebhookStore(stack.config);
  const event = testEventOf(accountId, new Date());
  await deliverEvent(store, event, {
    trustedCa: receiver.ca,
    allowAddress: receiver.allowAddress,
    sleep: async () => {},
  });

  const stillFailing = await readJson(await send('POST', '/v1/webhook/redeliver', apiKey, { id: event.eventId }));
  const kept = await readJson(await send('GET', '/v1/webhook/dead-letters', apiKey));
  const fixed = await readJson(await send('POST', '/v1/webhook/redeliver', apiKey, { id: event.eventId }));
  const left = await readJson(await send('GET', '/v1/webhook/dead-letters', apiKey));
  const again = await send('POST', '/v1/webhook/redeliver', apiKey, { id: event.eventId });

  expect(stillFailing).toMatchObject({ event_id: event.eventId, delivered: false, status: 503 });
  expect(kept.dead_letters.map((d: { id: string }) => d.id)).toEqual([event.eventId]);
  expect(fixed).toMatchObject({ event_id: event.eventId, delivered: true, status: 204 });
  expect(receiver.received).toEqual([{ valid: true, eventId: event.eventId, body: event.body }]);
  expect(left).toMatchObject({ dead_letters: [], count: 0 });
  expect([again.status, (await readJson(again)).error.code]).toEqual([404, 'not_found']);
  expect(await balanceOf(apiKey)).toBe(100);
});

/** Resolves once `check` holds (the in-process deliverer works in the background), or fails after `ms`. */
async function eventually(check: () => boolean, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

it('re-queues every dead letter in bulk, a bounded number per call with a cursor: each delivered once, none left', async () => {
  const { apiKey, accountId } = await stack.openAccount({ tier: 'professional', points: 100 });
  const url = `${receiver.origin}/hooks`;
  const { secret } = await readJson(await send('PUT', '/v1/webhook', apiKey, { url }));
  receiver.secret = secret;
  // Dead letters as the deliverer leaves them: the event's claim finished as dead_letter, the letter kept.
  const store = buildWebhookStore(stack.config);
  const total = MAX_REQUEUED_PER_CALL + 2;
  const events = [];
  for (let i = 0; i < total; i += 1) {
    const event = testEventOf(accountId, new Date());
    const failedAt = new Date(Date.UTC(2026, 10, 28, 10, 0, i)).toISOString();
    await store.claimDelivery(accountId, event.eventId, new Date(), 180);
    await store.finishDelivery(accountId, event.eventId, 'dead_letter', new Date());
    await store.recordDeadLetter({
      accountId,
      eventId: event.eventId,
      url,
      body: event.body,
      attempts: 5,
      lastError: 'answered 503',
      lastStatus: 503,
      failedAt,
    });
    events.push(event);
  }

  const first = await readJson(await send('POST', '/v1/webhook/redeliver', apiKey, { all: true }));
  const second = await readJson(
    await send('POST', '/v1/webhook/redeliver', apiKey, { all: true, cursor: first.next_cursor }),
  );
  await eventually(() => receiver.received.length >= total);
  const left = await readJson(await send('GET', '/v1/webhook/dead-letters', apiKey));
  const again = await readJson(await send('POST', '/v1/webhook/redeliver', apiKey, { all: true }));

  const newestFirst = [...events].reverse().map((e) => e.eventId);
  expect(first).toEqual({
    requeued: newestFirst.slice(0, MAX_REQUEUED_PER_CALL),
    count: MAX_REQUEUED_PER_CALL,
    next_cursor: expect.any(String),
  });
  expect(second).toEqual({ requeued: newestFirst.slice(MAX_REQUEUED_PER_CALL), count: 2, next_cursor: null });
  expect(receiver.received.every((r) => r.valid)).toBe(true);
  expect(receiver.received.map((r) => r.eventId).sort()).toEqual([...newestFirst].sort());
  const byId = new Map<string | undefined, string>(events.map((e) => [e.eventId, e.body]));
  expect(receiver.received.every((r) => r.body === byId.get(r.eventId))).toBe(true);
  expect(left).toMatchObject({ dead_letters: [], count: 0 });
  expect(again).toEqual({ requeued: [], count: 0, next_cursor: null });
  expect(receiver.received).toHaveLength(total);
  expect(await balanceOf(apiKey)).toBe(100);
});

describe('refusals: the documented code, and nothing charged', () => {
  let apiKey: string;
  beforeAll(async () => {
    ({ apiKey } = await stack.openAccount({ tier: 'professional', points: 50 }));
  });
  afterAll(async () => expect(await balanceOf(apiKey)).toBe(50));

  it.each([
    ['PUT', '/v1/webhook', '{"url": ', 400, 'invalid_json'],
    ['PUT', '/v1/webhook', {}, 400, 'invalid_request'],
    ['PUT', '/v1/webhook', { url: 42 }, 400, 'invalid_request'],
    ['PUT', '/v1/webhook', { url: 'http://hooks.example.com/a' }, 400, 'invalid_request'],
    ['PUT', '/v1/webhook', { url: 'https://hooks.example.com/a', rotate_secret: 'yes' }, 400, 'invalid_request'],
    ['PUT', '/v1/webhook', { url: `https://example.com/${'a'.repeat(2100)}` }, 400, 'invalid_request'],
    ['PUT', '/v1/webhook', { url: 'https://10.0.0.7/hooks' }, 400, 'url_not_allowed'],
    ['PUT', '/v1/webhook', { url: 'https://169.254.169.254/latest' }, 400, 'url_not_allowed'],
    ['PUT', '/v1/webhook', { url: 'https://localhost/hooks' }, 400, 'url_not_allowed'],
    ['PUT', '/v1/webhook', { url: 'https://hooks.example.com:8443/a' }, 400, 'url_not_allowed'],
    ['PUT', '/v1/webhook', { url: 'https://no-such-host.invalid/hooks' }, 400, 'url_not_allowed'],
    ['POST', '/v1/webhook/test', '[]', 400, 'invalid_request'],
    ['POST', '/v1/webhook/test', {}, 404, 'not_found'],
    ['POST', '/v1/webhook/redeliver', {}, 400, 'invalid_request'],
    ['POST', '/v1/webhook/redeliver', { id: 'al_20261121_x' }, 400, 'invalid_request'],
    ['POST', '/v1/webhook/redeliver', { id: 'evt_000000000000000000000000' }, 404, 'not_found'],
    ['POST', '/v1/webhook/redeliver', { all: false }, 400, 'invalid_request'],
    ['POST', '/v1/webhook/redeliver', { all: 'yes' }, 400, 'invalid_request'],
    ['POST', '/v1/webhook/redeliver', { id: 'evt_000000000000000000000000', all: true }, 400, 'invalid_request'],
    ['POST', '/v1/webhook/redeliver', { cursor: 'bm90LWEtY3Vyc29y' }, 400, 'invalid_request'],
    ['POST', '/v1/webhook/redeliver', { all: true, cursor: 'bm90LWEtY3Vyc29y' }, 400, 'invalid_request'],
    ['POST', '/v1/webhook/redeliver', { all: true }, 404, 'not_found'],
    ['GET', '/v1/webhook', undefined, 404, 'not_found'],
    ['GET', '/v1/webhook/dead-letters?limit=0', undefined, 400, 'invalid_request'],
    ['GET', '/v1/webhook/dead-letters?limit=101', undefined, 400, 'invalid_request'],
    ['GET', '/v1/webhook/dead-letters?cursor=bm90LWEtY3Vyc29y', undefined, 400, 'invalid_request'],
    ['PATCH', '/v1/webhook', {}, 405, 'method_not_allowed'],
  ] as const)('%s %s (case %#): %i %s', async (method, path, body, status, code) => {
    const response = await send(method, path, apiKey, body);

    expect(response.status).toBe(status);
    expect((await readJson(response)).error.code).toBe(code);
    expect(response.headers.get('x-points-cost')).toBeNull();
  });

  it('PUT with another content type is 415', async () => {
    const response = await send('PUT', '/v1/webhook', apiKey, undefined, { 'Content-Type': 'text/plain' });
    expect([response.status, (await readJson(response)).error.code]).toEqual([415, 'unsupported_media_type']);
  });

  it('without a key 401; below professional, setting and testing are 403 while reading stays open', async () => {
    const { apiKey: freeKey } = await stack.openAccount({ tier: 'basic', points: 10 });
    const codeOf = async (response: Response) => [response.status, (await readJson(response)).error?.code];

    expect(await codeOf(await fetch(`${server.url}/v1/webhook`))).toEqual([401, 'missing_api_key']);
    expect(await codeOf(await send('PUT', '/v1/webhook', freeKey, { url: `${receiver.origin}/h` }))).toEqual([
      403,
      'tier_not_allowed',
    ]);
    expect(await codeOf(await send('POST', '/v1/webhook/test', freeKey, {}))).toEqual([403, 'tier_not_allowed']);
    expect(
      await codeOf(await send('POST', '/v1/webhook/redeliver', freeKey, { id: 'evt_000000000000000000000000' })),
    ).toEqual([403, 'tier_not_allowed']);
    expect(await codeOf(await send('GET', '/v1/webhook', freeKey))).toEqual([404, 'not_found']);
    expect((await send('GET', '/v1/webhook/dead-letters', freeKey)).status).toBe(200);
    expect(await readJson(await send('DELETE', '/v1/webhook', freeKey))).toEqual({ deleted: false });
    expect(await balanceOf(freeKey)).toBe(10);
  });
});

it('works through the SDK: set, read, test, dead letters, redeliver, re-queue all, remove', async () => {
  const { apiKey } = await stack.openAccount({ tier: 'professional', points: 10 });
  const client = createClient({ baseUrl: server.url, apiKey });

  const set = await client.putWebhook({ url: `${receiver.origin}/sdk` });
  receiver.secret = set.secret!;
  const read = await client.getWebhook();
  const tested = await client.testWebhook();
  const deadLetters = [];
  for await (const entry of client.deadLetters()) deadLetters.push(entry);
  const unknown = client.redeliverWebhook('evt_000000000000000000000000');
  await expect(unknown).rejects.toMatchObject({ status: 404, code: 'not_found' });
  const requeuedPage = await client.requeueDeadLetters();
  const requeuedAll = await client.requeueAllDeadLetters();
  const removed = await client.deleteWebhook();

  expect(read.url).toBe(`${receiver.origin}/sdk`);
  expect(tested).toMatchObject({ delivered: true, status: 204 });
  expect(receiver.received.map((r) => r.valid)).toEqual([true]);
  expect(deadLetters).toEqual([]);
  expect(requeuedPage).toEqual({ requeued: [], count: 0, next_cursor: null });
  expect(requeuedAll).toEqual([]);
  expect(removed).toEqual({ deleted: true });
  await expect(client.requeueDeadLetters()).rejects.toMatchObject({ status: 404, code: 'not_found' });
  await expect(client.getWebhook()).rejects.toMatchObject({ status: 404, code: 'not_found' });
});
