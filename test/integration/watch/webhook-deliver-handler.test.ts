/**
 * The webhook-deliver function as Lambda runs it (configured from the environment, on DynamoDB Local), with no test
 * trust at all: a webhook whose host has come to be a loopback address since it was set is not called; the event
 * becomes a dead letter with no try, and the same event again is dropped. A malformed event is refused.
 */
import { handler } from '../../../functions/webhook-deliver/handler';
import { buildWebhookStore } from '../../../shared/composition/webhooks';
import type { WebhookStore } from '../../../shared/ports';
import { testEventOf } from '../../../shared/webhooks/webhook';
import { type HttpsReceiver, startHttpsReceiver } from '../../support/https-receiver';
import { createTestStack, type TestStack } from '../../support/test-stack';

let stack: TestStack;
let store: WebhookStore;
let receiver: HttpsReceiver;

beforeAll(async () => {
  stack = await createTestStack();
  Object.assign(process.env, stack.env);
  store = buildWebhookStore(stack.config);
  receiver = await startHttpsReceiver();
});
afterAll(async () => receiver?.close());

it('never calls a receiver that is not public: a dead letter with no try, and the repeat is dropped', async () => {
  const { accountId } = await stack.openAccount();
  const at = new Date().toISOString();
  // Stored directly, as a URL whose host later came to resolve to loopback would be: PUT /v1/webhook refuses it.
  await store.create({
    accountId,
    url: `${receiver.origin}/hooks`,
    secret: 'whsec_handler_test',
    createdAt: at,
    updatedAt: at,
    secretIssuedAt: at,
  });
  const job = testEventOf(accountId, new Date());

  const first = await handler({ detail: job });
  const repeated = await handler({ detail: job });

  expect([first, repeated]).toEqual(['dead_letter', 'duplicate']);
  expect(receiver.requests).toBe(0);
  const { deadLetters } = await store.pageDeadLetters(accountId, { limit: 5 });
  expect(deadLetters).toEqual([
    expect.objectContaining({ eventId: job.eventId, attempts: 0, lastError: expect.stringMatching(/loopback/) }),
  ]);
});

it('refuses an event that is not a webhook job', async () => {
  await expect(handler({ detail: { accountId: 'a', eventId: 'not-an-event', body: '{}' } })).rejects.toThrow();
});
