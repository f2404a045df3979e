/**
 * PUT /v1/webhook: sets the account's webhook (shared/webhooks/set-webhook.ts). The signing secret is in the answer
 * only when this call issued it (the first call, or `rotate_secret: true`). Free; professional and above.
 */
import { dependencies } from '../../shared/composition/metering';
import { webhookStore } from '../../shared/composition/webhooks';
import { buildApiHandler, lazyHandler } from '../../shared/http/api-handler';
import type { Operation } from '../../shared/http/types';
import type { WebhookStore } from '../../shared/ports';
import type { DeliveryOptions } from '../../shared/webhooks/deliver-webhook';
import { setWebhook } from '../../shared/webhooks/set-webhook';
import { webhookView } from '../../shared/webhooks/webhook';
import { type PutWebhookRequest, putWebhookRequestSchema } from './schema';

export function putWebhookOperation(
  store: WebhookStore,
  now: () => Date = () => new Date(),
  /** Tests only: a loopback receiver allowed by the URL rules. Production passes nothing. */
  urlRules?: Pick<DeliveryOptions, 'allowAddress'>,
): Operation<PutWebhookRequest, Record<string, unknown>> {
  return {
    name: 'put-webhook',
    method: 'PUT',
    minTier: 'professional',
    schema: putWebhookRequestSchema,
    run: async (input, context) => {
      const { webhook, secret } = await setWebhook(
        store,
        context.accountId,
        { url: input.url, rotateSecret: input.rotate_secret },
        { now: now(), ...(urlRules ? { urlRules } : {}) },
      );
      return { ...webhookView(webhook), ...(secret ? { secret } : {}) };
    },
  };
}

export const handler = lazyHandler(() =>
  buildApiHandler(putWebhookOperation(webhookStore(), dependencies().now), dependencies()),
);
