/**
 * GET /v1/webhook/dead-letters: the account's webhook events that failed every try, newest first, each with its
 * payload as it was sent, the URL, the tries and the last error; kept 30 days. Paged with an opaque cursor. The
 * alerts they carried are also on GET /v1/alerts. Free, every tier.
 */
import * as z from 'zod';
import { dependencies } from '../../shared/composition/metering';
import { webhookStore } from '../../shared/composition/webhooks';
import { buildApiHandler, lazyHandler } from '../../shared/http/api-handler';
import type { Operation } from '../../shared/http/types';
import type { WebhookStore } from '../../shared/ports';
import { decodeDeadLetterCursor, encodeDeadLetterCursor } from '../../shared/webhooks/dead-letter-cursor';
import { deadLetterView } from '../../shared/webhooks/webhook';

export const deadLettersQuerySchema = z.object({
  limit: z
    .number({ error: 'must be a whole number from 1 to 100' })
    .int('must be a whole number from 1 to 100')
    .min(1, 'must be at least 1')
    .max(100, 'must be at most 100')
    .default(20)
    .describe('Dead letters per page, newest first.'),
  cursor: z.string().min(1).max(1000).optional().describe('next_cursor of the previous page, unchanged.'),
});

export type DeadLettersQuery = z.infer<typeof deadLettersQuerySchema>;

export interface DeadLettersPage {
  dead_letters: Record<string, unknown>[];
  count: number;
  next_cursor: string | null;
}

export function webhookDeadLettersOperation(store: WebhookStore): Operation<DeadLettersQuery, DeadLettersPage> {
  return {
    name: 'webhook-dead-letters',
    method: 'GET',
    minTier: 'free',
    schema: deadLettersQuerySchema,
    queryFields: { limit: 'integer', cursor: 'string' },
    run: async (input, context) => {
      const after = input.cursor ? decodeDeadLetterCursor(input.cursor) : undefined;
      const page = await store.pageDeadLetters(context.accountId, { limit: input.limit, ...(after ? { after } : {}) });
      return {
        dead_letters: page.deadLetters.map(deadLetterView),
        count: page.deadLetters.length,
        next_cursor: page.last ? encodeDeadLetterCursor(page.last) : null,
      };
    },
  };
}

export const handler = lazyHandler(() => buildApiHandler(webhookDeadLettersOperation(webhookStore()), dependencies()));
