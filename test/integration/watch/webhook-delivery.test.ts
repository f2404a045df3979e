/**
 * Webhook delivery over real HTTPS: a local receiver (test/support/https-receiver.ts) with a self-signed certificate
 * made with openssl, trusted by the deliverer only through its explicit `trustedCa` option. The receiver checks each
 * delivery's signature and timestamp as the docs tell receivers to. Covered: a good delivery, a receiver that refuses
 * a bad signature, one that fails twice then succeeds, one that always fails (the dead letters), an unknown CA, and
 * the URL rules (https only; loopback refused unless a test allows it).
 */
import {
  deliverWebhook,
  type WebhookDeadLetter,
  WebhookUrlRefusedError,
} from '../../../shared/webhooks/deliver-webhook';
import { type HttpsReceiver, startHttpsReceiver } from '../../support/https-receiver';

const SECRET = 'whsec_receiver_test_8d2c';
let receiver: HttpsReceiver;
let origin: string;

beforeAll(async () => {
  receiver = await startHttpsReceiver();
  receiver.secret = SECRET;
  origin = receiver.origin;
});

afterAll(async () => {
  await receiver?.close();
});

beforeEach(() => {
  receiver.script.length = 0;
  receiver.received.length = 0;
});

/** The receiver's verdicts and bodies, in order. */
const received = () => receiver.received.map(({ valid, body }) => ({ valid, body }));

const BODY = JSON.stringify({ type: 'alert', alert: { id: 'al_20261121_aaaaaaaaaaaaaaaaaaaa', new_risk: '高' } });

function options(deadLetters: WebhookDeadLetter[], extra: Partial<Parameters<typeof deliverWebhook>[2]> = {}) {
  const waits: number[] = [];
  return {
    waits,
    options: {
      deadLetters: { record: async (entry: WebhookDeadLetter) => void deadLetters.push(entry) },
      trustedCa: receiver.ca,
      allowAddress: receiver.allowAddress,
      attempts: 4,
      baseDelayMs: 100,
      sleep: async (ms: number) => void waits.push(ms),
      ...extra,
    },
  };
}

it('delivers a signed alert the receiver verifies, in one try', async () => {
  const dead: WebhookDeadLetter[] = [];

  const outcome = await deliverWebhook(
    { accountId: 'a1', url: `${origin}/hooks`, secret: SECRET },
    BODY,
    options(dead).options,
  );

  expect(outcome).toEqual({ delivered: true, attempts: 1, status: 204 });
  expect(received()).toEqual([{ valid: true, body: BODY }]);
  expect(dead).toEqual([]);
});

it('a receiver refuses a delivery signed with another secret; retried, it ends in the dead letters', async () => {
  const dead: WebhookDeadLetter[] = [];

  const outcome = await deliverWebhook(
    { accountId: 'a1', url: `${origin}/hooks`, secret: 'whsec_wrong' },
    BODY,
    options(dead).options,
  );

  expect(received().map((r) => r.valid)).toEqual([false, false, false, false]);
  expect(outcome).toMatchObject({ delivered: false, attempts: 4, status: 401 });
  expect(dead).toEqual([
    expect.objectContaining({ accountId: 'a1', body: BODY, attempts: 4, lastError: 'answered 401' }),
  ]);
});

it('retries with exponential backoff a receiver that fails twice, then succeeds', async () => {
  const dead: WebhookDeadLetter[] = [];
  receiver.script.push('fail', 'fail');
  const { options: o, waits } = options(dead);

  const outcome = await deliverWebhook({ accountId: 'a1', url: `${origin}/hooks`, secret: SECRET }, BODY, o);

  expect(outcome).toEqual({ delivered: true, attempts: 3, status: 204 });
  expect(waits).toHaveLength(2);
  expect(waits[0]).toBeGreaterThanOrEqual(50);
  expect(waits[0]).toBeLessThanOrEqual(100);
  expect(waits[1]).toBeGreaterThanOrEqual(100);
  expect(waits[1]).toBeLessThanOrEqual(200);
  expect(dead).toEqual([]);
});

it('puts a delivery to a receiver that always fails in the dead letters after the last try', async () => {
  const dead: WebhookDeadLetter[] = [];
  receiver.script.push('fail', 'fail', 'fail', 'fail');

  const outcome = await deliverWebhook(
    { accountId: 'a2', url: `${origin}/hooks`, secret: SECRET },
    BODY,
    options(dead).options,
  );

  expect(outcome).toMatchObject({ delivered: false, attempts: 4, error: 'answered 503' });
  expect(dead).toEqual([expect.objectContaining({ accountId: 'a2', url: `${origin}/hooks`, attempts: 4 })]);
});

it('verifies the certificate: without the test CA the delivery fails, it is never sent unverified', async () => {
  const dead: WebhookDeadLetter[] = [];
  const { trustedCa: _ca, ...withoutCa } = options(dead, { attempts: 1 }).options;

  const outcome = await deliverWebhook({ accountId: 'a3', url: `${origin}/hooks`, secret: SECRET }, BODY, withoutCa);

  expect(outcome.delivered).toBe(false);
  expect(outcome.error).toMatch(/certificate/i);
  expect(received()).toEqual([]);
});

it('refuses a URL that is not https, and a loopback receiver unless a test allows it', async () => {
  const dead: WebhookDeadLetter[] = [];
  const { allowAddress: _allow, ...production } = options(dead).options;

  await expect(
    deliverWebhook({ accountId: 'a4', url: 'http://example.com/hooks', secret: SECRET }, BODY, production),
  ).rejects.toThrow(WebhookUrlRefusedError);
  await expect(
    deliverWebhook({ accountId: 'a4', url: `${origin}/hooks`, secret: SECRET }, BODY, production),
  ).rejects.toThrow(WebhookUrlRefusedError);
  expect(received()).toEqual([]);
});
