/**
 * Dead letters re-queued in bulk (shared/webhooks/redeliver.ts, POST /v1/webhook/redeliver with `all`) on DynamoDB
 * Local, with the real in-process deliverer and a local HTTPS receiver: at most MAX_REQUEUED_PER_CALL a call, newest
 * first; one that fails again is dead-lettered anew and a call going on from the cursor does not take it twice; an
 * event delivered meanwhile only loses its stale dead letter; one being delivered is left alone; no webhook is 404.
 */
import { InProcessWebhookDispatch } from '../../../shared/adapters/local/in-process-webhook-dispatch';
import { buildWebhookStore } from '../../../shared/composition/webhooks';
import type { WebhookStore } from '../../../shared/ports';
import { DEFAULT_ATTEMPTS } from '../../../shared/webhooks/deliver-webhook';
import { MAX_REQUEUED_PER_CALL, requeueDeadLetters } from '../../../shared/webhooks/redeliver';
import { setWebhook } from '../../../shared/webhooks/set-webhook';
import { testEventOf, type WebhookJob } from '../../../shared/webhooks/webhook';
import { WebhookNotSetError } from '../../../shared/webhooks/webhook-errors';
import { type HttpsReceiver, startHttpsReceiver } from '../../support/https-receiver';
import { createTestStack, type TestStack } from '../../support/test-stack';

let stack: TestStack;
let store: WebhookStore;
let receiver: HttpsReceiver;
let second = 0;

beforeAll(async () => {
  stack = await createTestStack();
  store = buildWebhookStore(stack.config);
  receiver = await startHttpsReceiver();
});
afterAll(async () => receiver?.close());
beforeEach(() => receiver.reset());

function deliverer() {
  const errors: unknown[] = [];
  const dispatch = new InProcessWebhookDispatch(store, {
    settings: receiver.deliverySettings(),
    onError: (error) => errors.push(error),
  });
  return { dispatch, errors };
}

async function accountWithWebhook(): Promise<string> {
  const { accountId } = await stack.openAccount({ tier: 'professional', points: 10 });
  const { webhook } = await setWebhook(
    store,
    accountId,
    { url: `${receiver.origin}/hooks`, rotateSecret: false },
    { now: new Date(), urlRules: { allowAddress: receiver.allowAddress } },
  );
  receiver.secret = webhook.secret;
  return accountId;
}

/** A dead letter as the deliverer leaves one: its event's claim finished as dead_letter, the letter kept. */
async function deadLetter(accountId: string, claim: 'dead_letter' | 'delivered' | 'sending' = 'dead_letter') {
  const event: WebhookJob = testEventOf(accountId, new Date());
  second += 1;
  const failedAt = new Date(Date.UTC(2026, 10, 1, 0, 0, second)).toISOString();
  await store.claimDelivery(accountId, event.eventId, new Date(), 180);
  if (claim !== 'sending') await store.finishDelivery(accountId, event.eventId, claim, new Date());
  await store.recordDeadLetter({
    accountId,
    eventId: event.eventId,
    url: `${receiver.origin}/hooks`,
    body: event.body,
    attempts: DEFAULT_ATTEMPTS,
    lastError: 'answered 503',
    lastStatus: 503,
    failedAt,
  });
  return event;
}

const deadLetterIds = async (accountId: string) =>
  (await store.pageDeadLetters(accountId, { limit: 100 })).deadLetters.map((d) => d.eventId);

it('re-queues at most MAX_REQUEUED_PER_CALL a call, newest first, and goes on from the cursor', async () => {
  const accountId = await accountWithWebhook();
  const events = [];
  for (let i = 0; i < MAX_REQUEUED_PER_CALL + 1; i += 1) events.push(await deadLetter(accountId));
  const { dispatch, errors } = deliverer();

  const first = await requeueDeadLetters({ store, dispatch }, accountId);
  const rest = await requeueDeadLetters({ store, dispatch }, accountId, { after: first.last! });
  await dispatch.idle();

  const newestFirst = events.map((e) => e.eventId).reverse();
  expect(first.requeued).toEqual(newestFirst.slice(0, MAX_REQUEUED_PER_CALL));
  expect(first.last).toEqual(expect.stringMatching(/^dead#/));
  expect(rest).toEqual({ requeued: newestFirst.slice(MAX_REQUEUED_PER_CALL) });
  expect(receiver.received.map((r) => r.eventId).sort()).toEqual([...newestFirst].sort());
  expect(await deadLetterIds(accountId)).toEqual([]);
  expect(errors).toEqual([]);
});

it('one that fails again is a new dead letter, which a call going on from the cursor does not take again', async () => {
  const accountId = await accountWithWebhook();
  const older = await deadLetter(accountId);
  const newer = await deadLetter(accountId);
  receiver.script = Array(DEFAULT_ATTEMPTS).fill('fail');
  const { dispatch } = deliverer();

  const first = await requeueDeadLetters({ store, dispatch }, accountId, { limit: 1 });
  await dispatch.idle();
  const rest = await requeueDeadLetters({ store, dispatch }, accountId, { after: first.last! });
  await dispatch.idle();

  expect(first.requeued).toEqual([newer.eventId]);
  expect(rest).toEqual({ requeued: [older.eventId] });
  expect(receiver.requests).toBe(DEFAULT_ATTEMPTS + 1);
  expect(receiver.received.map((r) => r.eventId)).toEqual([older.eventId]);
  // The newer event failed every try again: its one dead letter is the new one.
  const [again] = (await store.pageDeadLetters(accountId, { limit: 10 })).deadLetters;
  expect(await deadLetterIds(accountId)).toEqual([newer.eventId]);
  expect(again!.failedAt > new Date(Date.UTC(2026, 10, 2)).toISOString()).toBe(true);
});

it('an event delivered meanwhile loses its stale dead letter unsent; one being delivered is left alone', async () => {
  const accountId = await accountWithWebhook();
  const delivered = await deadLetter(accountId, 'delivered');
  const sending = await deadLetter(accountId, 'sending');
  const { dispatch } = deliverer();

  const outcome = await requeueDeadLetters({ store, dispatch }, accountId);
  await dispatch.idle();

  expect(outcome).toEqual({ requeued: [] });
  expect(receiver.requests).toBe(0);
  expect(await deadLetterIds(accountId)).toEqual([sending.eventId]);
  expect(await store.claimDelivery(accountId, delivered.eventId, new Date(), 180)).toBe('finished');
});

it('without a webhook: not found, and nothing is touched', async () => {
  const accountId = await accountWithWebhook();
  const event = await deadLetter(accountId);
  await store.remove(accountId);
  const { dispatch } = deliverer();

  await expect(requeueDeadLetters({ store, dispatch }, accountId)).rejects.toBeInstanceOf(WebhookNotSetError);
  expect(await deadLetterIds(accountId)).toEqual([event.eventId]);
});
