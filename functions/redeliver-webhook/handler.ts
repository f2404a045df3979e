/**
 * POST /v1/webhook/redeliver: sends one dead letter again now, one try, to the webhook as it is now
 * (shared/webhooks/redeliver.ts); delivered, the dead letter is removed. Answers the outcome as a test delivery does.
 * Free; professional and above; 404 `not_found` without a webhook or without that dead letter.
 */
import * as z from 'zod';
import { dependencies } from '../../shared/composition/metering';
import { webhookStore } from '../../shared/composition/webhooks';
import { buildApiHandler, lazyHandler } from '../../shared/http/api-handler';
import type { Operation } from '../../shared/http/types';
import type { WebhookStore } from '../../shared/ports';
import type { DeliverySettings } from '../../shared/webhooks/deliver-event';
import { redeliverDeadLetter } from '../../shared/webhooks/redeliver';
import type { TestDeliveryResponse } from '../test-webhook/handler';

export const redeliverRequestSchema = z.object({
  id: z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
    .regex(/^evt_[0-9a-f]{24}$/, 'must be the id of a dead letter (evt_ and 24 hex digits)')
    .describe('The dead letter to send again (its id in GET /v1/webhook/dead-letters).'),
});

export type RedeliverRequest = z.infer<typeof redeliverRequestSchema>;

export function redeliverWebhookOperation(
  store: WebhookStore,
  /** Tests only: their own CA and loopback receiver. Production passes nothing. */
  settings: DeliverySettings = {},
): Operation<RedeliverRequest, TestDeliveryResponse> {
  return {
    name: 'redeliver-webhook',
    method: 'POST',
    minTier: 'professional',
    schema: redeliverRequestSchema,
    run: async (input, context) => {
      const started = Date.now();
      const outcome = await redeliverDeadLetter(store, context.accountId, input.id, settings);
      return {
        event_id: input.id,
        url: outcome.url,
        delivered: outcome.delivered,
        ...(outcome.status !== undefined ? { status: outcome.status } : {}),
        ...(outcome.error ? { error: outcome.error } : {}),
        duration_ms: Date.now() - started,
      };
    },
  };
}

export const handler = lazyHandler(() => buildApiHandler(redeliverWebhookOperation(webhookStore()), dependencies()));
