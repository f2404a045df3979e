/**
 * DELETE /v1/webhook: removes the account's webhook; alerts are then only read with GET /v1/alerts. Its dead letters
 * stay until they expire. Answers `deleted: false` when none was set (a retried DELETE is no error). Free, every tier.
 */
import * as z from 'zod';
import { dependencies } from '../../shared/composition/metering';
import { webhookStore } from '../../shared/composition/webhooks';
import { buildApiHandler, lazyHandler } from '../../shared/http/api-handler';
import type { Operation } from '../../shared/http/types';
import type { WebhookStore } from '../../shared/ports';

export const deleteWebhookQuerySchema = z.object({});

export function deleteWebhookOperation(
  store: WebhookStore,
): Operation<z.infer<typeof deleteWebhookQuerySchema>, { deleted: boolean }> {
  return {
    name: 'delete-webhook',
    method: 'DELETE',
    minTier: 'free',
    schema: deleteWebhookQuerySchema,
    run: async (_input, context) => ({ deleted: await store.remove(context.accountId) }),
  };
}

export const handler = lazyHandler(() => buildApiHandler(deleteWebhookOperation(webhookStore()), dependencies()));
