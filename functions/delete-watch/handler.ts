/**
 * DELETE /v1/watch/{id}: stops watching one item. Free, every tier.
 * Input: the item's id (the seller's own, percent-encoded in the path). Output: the id and whether it was watched.
 *   1. Delete the item: it is no longer re-screened, and a re-screen running meanwhile does not bring it back.
 *   2. Its alerts stay: they record what the data showed then, and are read and acknowledged as before.
 * Deleting an id that is not watched answers `deleted: false` (a retried DELETE is not an error).
 */
import * as z from 'zod';
import { dependencies } from '../../shared/composition/metering';
import { watchStore } from '../../shared/composition/watch';
import { buildApiHandler, lazyHandler } from '../../shared/http/api-handler';
import type { Operation } from '../../shared/http/types';
import type { WatchStore } from '../../shared/ports';
import { watchIdSchema } from '../put-watch/schema';

export const deleteWatchInputSchema = z.object({ id: watchIdSchema });

export type DeleteWatchInput = z.infer<typeof deleteWatchInputSchema>;

export interface DeleteWatchResponse {
  id: string;
  /** False when the id was not watched. */
  deleted: boolean;
}

export function deleteWatchOperation(store: WatchStore): Operation<DeleteWatchInput, DeleteWatchResponse> {
  return {
    name: 'delete-watch',
    method: 'DELETE',
    minTier: 'free',
    schema: deleteWatchInputSchema,
    pathFields: ['id'],
    run: async (input, context) => ({ id: input.id, deleted: await store.deleteItem(context.accountId, input.id) }),
  };
}

export const handler = lazyHandler(() => buildApiHandler(deleteWatchOperation(watchStore()), dependencies()));
