/**
 * POST /v1/webhook/redeliver: sends dead letters again, once the receiver is fixed (shared/webhooks/redeliver.ts).
 *   `{"id": "evt_…"}`: that dead letter now, one try, to the webhook as it is now; delivered, the dead letter is
 *   removed. Answers the outcome as a test delivery does.
 *   `{"all": true, "cursor"?}`: up to MAX_REQUEUED_PER_CALL dead letters, newest first, handed back to the deliverer
 *   (its tries and backoff) and removed from the dead letters; answers the ids re-queued and `next_cursor` (null when
 *   none is left after them), to pass back as `cursor` for the next ones.
 * Free; professional and above; 404 `not_found` without a webhook or (one id) without that dead letter.
 */
import * as z from 'zod';
import { dependencies } from '../../shared/composition/metering';
import { webhookDispatch, webhookStore } from '../../shared/composition/webhooks';
import { InvalidRequestError } from '../../shared/errors';
import { buildApiHandler, lazyHandler } from '../../shared/http/api-handler';
import type { Operation } from '../../shared/http/types';
import type { WebhookDispatch, WebhookStore } from '../../shared/ports';
import { InProcessWebhookDispatch } from '../../shared/adapters/local/in-process-webhook-dispatch';
import { decodeDeadLetterCursor, encodeDeadLetterCursor } from '../../shared/webhooks/dead-letter-cursor';
import type { DeliverySettings } from '../../shared/webhooks/deliver-event';
import { MAX_REQUEUED_PER_CALL, redeliverDeadLetter, requeueDeadLetters } from '../../shared/webhooks/redeliver';
import type { TestDeliveryResponse } from '../test-webhook/handler';

export const redeliverRequestSchema = z.object({
  id: z
    .string({ error: 'must be a string' })
    .regex(/^evt_[0-9a-f]{24}$/, 'must be the id of a dead letter (evt_ and 24 hex digits)')
    .optional()
    .describe('One dead letter to send again now (its id in GET /v1/webhook/dead-letters). Give id or all.'),
  all: z
    .literal(true, { error: 'must be true' })
    .optional()
    .describe(
      `true: re-queue the dead letters, up to ${MAX_REQUEUED_PER_CALL} a call, newest first, for delivery with the usual tries. Give id or all.`,
    ),
  cursor: z
    .string({ error: 'must be a string' })
    .min(1)
    .max(1000)
    .optional()
    .describe('With all: next_cursor of the previous call, unchanged, for the dead letters after it.'),
});

export type RedeliverRequest = z.infer<typeof redeliverRequestSchema>;

export interface RequeueResponse {
  requeued: string[];
  count: number;
  next_cursor: string | null;
}

/** Exactly one of `id` and `all`; `cursor` only with `all` (each an invalid_request on its field). */
export function validateRedeliver(input: RedeliverRequest): void {
  if (input.id !== undefined && input.all)
    throw new InvalidRequestError([{ field: 'all', message: 'give either id or all, not both' }]);
  if (input.id === undefined && !input.all)
    throw new InvalidRequestError([{ field: 'id', message: 'is required (or "all": true for every dead letter)' }]);
  if (input.cursor !== undefined && !input.all)
    throw new InvalidRequestError([{ field: 'cursor', message: 'goes only with "all": true' }]);
}

export function redeliverWebhookOperation(
  store: WebhookStore,
  /** Tests only: their own CA and loopback receiver. Production passes nothing. */
  settings: DeliverySettings = {},
  /** Where re-queued dead letters go; by default the deliverer in this process, with the same settings. */
  dispatch: WebhookDispatch = new InProcessWebhookDispatch(store, { settings, onError: () => undefined }),
): Operation<RedeliverRequest, TestDeliveryResponse | RequeueResponse> {
  return {
    name: 'redeliver-webhook',
    method: 'POST',
    minTier: 'professional',
    schema: redeliverRequestSchema,
    validate: validateRedeliver,
    run: async (input, context) => {
      if (input.all) {
        const after = input.cursor ? decodeDeadLetterCursor(input.cursor) : undefined;
        const outcome = await requeueDeadLetters({ store, dispatch }, context.accountId, after ? { after } : {});
        return {
          requeued: outcome.requeued,
          count: outcome.requeued.length,
          next_cursor: outcome.last ? encodeDeadLetterCursor(outcome.last) : null,
        };
      }
      const eventId = input.id!;
      const started = Date.now();
      const outcome = await redeliverDeadLetter(store, context.accountId, eventId, settings);
      return {
        event_id: eventId,
        url: outcome.url,
        delivered: outcome.delivered,
        ...(outcome.status !== undefined ? { status: outcome.status } : {}),
        ...(outcome.error ? { error: outcome.error } : {}),
        duration_ms: Date.now() - started,
      };
    },
  };
}

export const handler = lazyHandler(() =>
  buildApiHandler(redeliverWebhookOperation(webhookStore(), {}, webhookDispatch()), dependencies()),
);
