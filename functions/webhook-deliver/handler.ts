/**
 * The webhook delivery function: a "Webhook delivery due" event on the webhook bus (its detail one event for one
 * account's webhook: account, event id, body) is delivered once, signed, with retries and backoff; after the last
 * try its dead letter is stored for the account (shared/webhooks/deliver-event.ts). A repeated event is dropped;
 * one whose delivery is still running elsewhere fails, and Lambda tries it again later.
 */
import * as z from 'zod';
import { webhookStore } from '../../shared/composition/webhooks';
import { loadConfig } from '../../shared/config';
import { createLogger } from '../../shared/observability';
import { deliverEvent, type EventOutcome } from '../../shared/webhooks/deliver-event';

export const webhookJobSchema = z.object({
  accountId: z.string().min(1),
  eventId: z.string().regex(/^evt_[0-9a-f]{24}$/),
  body: z.string().min(2),
});

let logger: ReturnType<typeof createLogger> | undefined;

export async function handler(event: { detail?: unknown }): Promise<EventOutcome> {
  logger ??= createLogger(loadConfig().serviceName);
  const job = webhookJobSchema.parse(event.detail);
  const outcome = await deliverEvent(webhookStore(), job);
  logger.info('webhook event handled', { accountId: job.accountId, eventId: job.eventId, outcome });
  return outcome;
}
