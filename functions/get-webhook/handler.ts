/** GET /v1/webhook: the account's webhook without its secret. Free, every tier; 404 `not_found` when none is set. */
import * as z from 'zod';
import { dependencies } from '../../shared/composition/metering';
import { webhookStore } from '../../shared/composition/webhooks';
import { buildApiHandler, lazyHandler } from '../../shared/http/api-handler';
import type { Operation } from '../../shared/http/types';
import type { WebhookStore } from '../../shared/ports';
import { webhookView } from '../../shared/webhooks/webhook';
import { WebhookNotSetError } from '../../shared/webhooks/webhook-errors';

export const getWebhookQuerySchema = z.object({});

export function getWebhookOperation(
  store: WebhookStore,
): Operation<z.infer<typeof getWebhookQuerySchema>, Record<string, unknown>> {
  return {
    name: 'get-webhook',
    method: 'GET',
    minTier: 'free',
    schema: getWebhookQuerySchema,
    run: async (_input, context) => {
      const webhook = await store.get(context.accountId);
      if (!webhook) throw new WebhookNotSetError();
      return webhookView(webhook);
    },
  };
}

export const handler = lazyHandler(() => buildApiHandler(getWebhookOperation(webhookStore()), dependencies()));
