/**
 * Sends a dead letter again (POST /v1/webhook/redeliver), once the receiver is fixed.
 * Input: the account, the event id, the delivery settings. Output: the outcome of one try.
 *   1. The account's webhook now (404 without one) and its dead letter of the event (404 without one).
 *   2. One try of the payload as it was first sent, same Webhook-Id, to the webhook's URL and signed with its secret
 *      as they are now (the URL rules apply again).
 *   3. Delivered: the event's claim is marked delivered and the dead letter removed. Not delivered: it stays.
 */
import type { WebhookStore } from '../ports';
import type { DeliverySettings } from './deliver-event';
import { type DeliveryOutcome, deliverWebhook } from './deliver-webhook';
import { DeadLetterNotFoundError, WebhookNotSetError } from './webhook-errors';

/** A redelivery waits at most this long for the receiver (one try). */
export const REDELIVERY_TIMEOUT_MS = 5000;

export async function redeliverDeadLetter(
  store: WebhookStore,
  accountId: string,
  eventId: string,
  settings: DeliverySettings = {},
): Promise<DeliveryOutcome & { url: string }> {
  const now = settings.now ?? (() => new Date());
  const webhook = await store.get(accountId);
  if (!webhook) throw new WebhookNotSetError();
  const deadLetter = await store.findDeadLetter(accountId, eventId);
  if (!deadLetter) throw new DeadLetterNotFoundError(eventId);
  const outcome = await deliverWebhook({ accountId, url: webhook.url, secret: webhook.secret }, deadLetter.body, {
    timeoutMs: REDELIVERY_TIMEOUT_MS,
    ...settings,
    attempts: 1,
    eventId,
  });
  if (outcome.delivered) {
    await store.finishDelivery(accountId, eventId, 'delivered', now());
    await store.removeDeadLetter(deadLetter);
  }
  return { ...outcome, url: webhook.url };
}
