/**
 * Sends dead letters again (POST /v1/webhook/redeliver), once the receiver is fixed.
 *
 * One (`redeliverDeadLetter`). Input: the account, the event id, the delivery settings. Output: the outcome of one try.
 *   1. The account's webhook now (404 without one) and its dead letter of the event (404 without one).
 *   2. One try of the payload as it was first sent, same Webhook-Id, to the webhook's URL and signed with its secret
 *      as they are now (the URL rules apply again).
 *   3. Delivered: the event's claim is marked delivered and the dead letter removed. Not delivered: it stays.
 *
 * In bulk (`requeueDeadLetters`). Input: the account, where to start (a cursor), the dispatch. Output: the event ids
 * re-queued and where the next call starts (none when no dead letter is left after them).
 *   1. The account's webhook now (404 without one); then up to MAX_REQUEUED_PER_CALL of its dead letters, newest
 *      first, after the cursor.
 *   2. For each: its event's claim reopened (./deliver-event.ts would drop it as finished otherwise), the event handed
 *      to the deliverer as it was first sent (same id and body: the webhook-deliver function in AWS, with its tries
 *      and backoff), then the dead letter removed. A delivery that fails again is dead-lettered anew, newer than the
 *      cursor, so a call that goes on from the cursor never takes it twice.
 *   3. An event delivered meanwhile only loses its stale dead letter; one being delivered is left alone. A call cut
 *      short between the steps leaves the dead letter, and at worst re-queues it again later: the receiver sees the
 *      same Webhook-Id (deduplicate on it).
 */
import { mapWithConcurrency } from '../async/concurrency';
import type { WebhookDispatch, WebhookStore } from '../ports';
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

/** Dead letters re-queued by one bulk call at most: far inside API Gateway's time, whatever the bus's latency. */
export const MAX_REQUEUED_PER_CALL = 25;
const REQUEUES_IN_FLIGHT = 5;

export interface RequeueOutcome {
  /** The event ids handed to the deliverer again, newest dead letter first. */
  requeued: string[];
  /** The last dead letter this call looked at, when more may follow (the next call's cursor). */
  last?: string;
}

export async function requeueDeadLetters(
  deps: { store: WebhookStore; dispatch: WebhookDispatch },
  accountId: string,
  options: { after?: string; limit?: number } = {},
): Promise<RequeueOutcome> {
  const { store, dispatch } = deps;
  if (!(await store.get(accountId))) throw new WebhookNotSetError();
  const page = await store.pageDeadLetters(accountId, {
    limit: Math.min(options.limit ?? MAX_REQUEUED_PER_CALL, MAX_REQUEUED_PER_CALL),
    ...(options.after ? { after: options.after } : {}),
  });
  const requeued = await mapWithConcurrency(page.deadLetters, REQUEUES_IN_FLIGHT, async (deadLetter) => {
    const claim = await store.reopenDelivery(accountId, deadLetter.eventId);
    if (claim === 'in_progress') return undefined;
    if (claim === 'reopened')
      await dispatch.dispatch({ accountId, eventId: deadLetter.eventId, body: deadLetter.body });
    await store.removeDeadLetter(deadLetter);
    return claim === 'reopened' ? deadLetter.eventId : undefined;
  });
  return {
    requeued: requeued.filter((id): id is string => id !== undefined),
    ...(page.last ? { last: page.last } : {}),
  };
}
