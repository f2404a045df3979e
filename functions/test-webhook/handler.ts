/**
 * POST /v1/webhook/test: sends a signed `webhook.test` event to the account's webhook now, once (no retry, no dead
 * letter), and answers what happened: delivered or not, the receiver's status or the error, the time it took.
 * A receiver that refuses the signature answers non-2xx and shows here as `delivered: false`. Free; professional
 * and above; 404 `not_found` when no webhook is set.
 */
import * as z from 'zod';
import { dependencies } from '../../shared/composition/metering';
import { webhookStore } from '../../shared/composition/webhooks';
import { buildApiHandler, lazyHandler } from '../../shared/http/api-handler';
import type { Operation } from '../../shared/http/types';
import type { WebhookStore } from '../../shared/ports';
import type { DeliverySettings } from '../../shared/webhooks/deliver-event';
import { deliverWebhook } from '../../shared/webhooks/deliver-webhook';
import { testEventOf } from '../../shared/webhooks/webhook';
import { WebhookNotSetError } from '../../shared/webhooks/webhook-errors';

export const testWebhookRequestSchema = z.object({});

export interface TestDeliveryResponse {
  event_id: string;
  url: string;
  delivered: boolean;
  /** The receiver's HTTP status, when it answered. */
  status?: number;
  error?: string;
  duration_ms: number;
}

/** A test delivery waits at most this long for the receiver (one try). */
export const TEST_DELIVERY_TIMEOUT_MS = 5000;

export function testWebhookOperation(
  store: WebhookStore,
  now: () => Date = () => new Date(),
  /** Tests only: their own CA and loopback receiver. Production passes nothing. */
  settings: DeliverySettings = {},
): Operation<z.infer<typeof testWebhookRequestSchema>, TestDeliveryResponse> {
  return {
    name: 'test-webhook',
    method: 'POST',
    minTier: 'professional',
    schema: testWebhookRequestSchema,
    run: async (_input, context) => {
      const webhook = await store.get(context.accountId);
      if (!webhook) throw new WebhookNotSetError();
      const job = testEventOf(context.accountId, now());
      const started = Date.now();
      const outcome = await deliverWebhook(
        { accountId: context.accountId, url: webhook.url, secret: webhook.secret },
        job.body,
        { timeoutMs: TEST_DELIVERY_TIMEOUT_MS, ...settings, attempts: 1, eventId: job.eventId },
      );
      return {
        event_id: job.eventId,
        url: webhook.url,
        delivered: outcome.delivered,
        ...(outcome.status !== undefined ? { status: outcome.status } : {}),
        ...(outcome.error ? { error: outcome.error } : {}),
        duration_ms: Date.now() - started,
      };
    },
  };
}

export const handler = lazyHandler(() =>
  buildApiHandler(testWebhookOperation(webhookStore(), dependencies().now), dependencies()),
);
