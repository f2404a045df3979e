/**
 * Delivers one webhook event to its account's endpoint, once (the webhook-deliver function, or the local queue).
 * Input: the event (account, event id, body), the store, the delivery settings. Output: what became of it.
 *   1. Read the account's webhook: none any more (deleted meanwhile) drops the event.
 *   2. Claim the event's delivery under a condition: a repeated event (EventBridge and Lambda deliver at least once)
 *      finds it finished and is dropped; one finding it in progress fails, to be retried later by its invoker.
 *   3. Deliver with retries and backoff (./deliver-webhook.ts); after the last try the dead letter is stored for the
 *      account to read, as is a URL that has since come to resolve to an address that is not public.
 *   4. Mark the claim delivered or dead-lettered.
 */
import type { WebhookStore } from '../ports';
import {
  type DeliveryOptions,
  deliverWebhook,
  type WebhookDeadLetter,
  WebhookUrlRefusedError,
} from './deliver-webhook';
import type { WebhookJob } from './webhook';

/** A claim held this long without finishing belongs to a deliverer that died: another may take it. */
export const CLAIM_STALE_SECONDS = 180;

export class DeliveryInProgressError extends Error {}

export type DeliverySettings = Omit<DeliveryOptions, 'deadLetters' | 'eventId'>;

export type EventOutcome = 'delivered' | 'dead_letter' | 'no_webhook' | 'duplicate';

export async function deliverEvent(
  store: WebhookStore,
  job: WebhookJob,
  settings: DeliverySettings = {},
): Promise<EventOutcome> {
  const now = settings.now ?? (() => new Date());
  const webhook = await store.get(job.accountId);
  if (!webhook) return 'no_webhook';
  const claim = await store.claimDelivery(job.accountId, job.eventId, now(), CLAIM_STALE_SECONDS);
  if (claim === 'finished') return 'duplicate';
  if (claim === 'in_progress') throw new DeliveryInProgressError(`event ${job.eventId} is being delivered`);

  const deadLetters = {
    record: (entry: WebhookDeadLetter) => store.recordDeadLetter({ ...entry, eventId: job.eventId }),
  };
  let delivered: boolean;
  try {
    const outcome = await deliverWebhook(
      { accountId: job.accountId, url: webhook.url, secret: webhook.secret },
      job.body,
      { ...settings, eventId: job.eventId, deadLetters },
    );
    delivered = outcome.delivered;
  } catch (error) {
    if (!(error instanceof WebhookUrlRefusedError)) throw error;
    await deadLetters.record({
      accountId: job.accountId,
      url: webhook.url,
      body: job.body,
      attempts: 0,
      lastError: error.message,
      failedAt: now().toISOString(),
    });
    delivered = false;
  }
  await store.finishDelivery(job.accountId, job.eventId, delivered ? 'delivered' : 'dead_letter', now());
  return delivered ? 'delivered' : 'dead_letter';
}
