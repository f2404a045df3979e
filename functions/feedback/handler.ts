/** POST /v1/feedback: a seller's report on one screening result, kept for the brand-use model. Free, every tier. */
import { feedbackStore } from '../../shared/composition/feedback';
import { dependencies } from '../../shared/composition/metering';
import { type FeedbackRecord, newFeedbackId } from '../../shared/feedback/feedback';
import { buildApiHandler, lazyHandler } from '../../shared/http/api-handler';
import type { Operation } from '../../shared/http/types';
import type { FeedbackStore } from '../../shared/ports';
import { type FeedbackRequest, feedbackRequestSchema } from './schema';

export interface FeedbackCreated {
  id: string;
  created_at: string;
}

export function feedbackOperation(
  store: FeedbackStore,
  now: () => Date = () => new Date(),
): Operation<FeedbackRequest, FeedbackCreated> {
  return {
    name: 'feedback',
    method: 'POST',
    minTier: 'free',
    successStatus: 201,
    schema: feedbackRequestSchema,
    run: async (input, context) => {
      const at = now();
      const record: FeedbackRecord = {
        accountId: context.accountId,
        feedbackId: newFeedbackId(at),
        kind: input.kind,
        title: input.title,
        ...(input.brand !== undefined ? { brand: input.brand } : {}),
        ...(input.mark !== undefined ? { mark: input.mark } : {}),
        ...(input.top_conflict !== undefined ? { topConflict: input.top_conflict } : {}),
        ...(input.note ? { note: input.note } : {}),
        ...(input.request_id !== undefined ? { requestId: input.request_id } : {}),
        ...(input.item_index !== undefined ? { itemIndex: input.item_index } : {}),
        ...(input.watch_item_id !== undefined ? { watchItemId: input.watch_item_id } : {}),
        keyId: context.keyId,
        reportRequestId: context.requestId,
        createdAt: at.toISOString(),
      };
      await store.add(record);
      return { id: record.feedbackId, created_at: record.createdAt };
    },
  };
}

export const handler = lazyHandler(() =>
  buildApiHandler(feedbackOperation(feedbackStore(), dependencies().now), dependencies()),
);
