/** PUT /v1/watch: titles to watch (1 point per title, screened now), logos by reference (stored, free). */
import { allowlistStore } from '../../shared/composition/allowlist';
import { dependencies } from '../../shared/composition/metering';
import { screeningService } from '../../shared/composition/screening';
import { watchStore } from '../../shared/composition/watch';
import { buildApiHandler, lazyHandler } from '../../shared/http/api-handler';
import type { Operation } from '../../shared/http/types';
import type { AllowlistStore, WatchStore } from '../../shared/ports';
import type { ScreeningService } from '../../shared/screening/screening-service';
import { type AddToWatchOutput, addToWatch } from '../../shared/watch/add-to-watch';
import { type PutWatchRequest, precheckPutWatch, putWatchRequestSchema } from './schema';

export function putWatchOperation(
  store: WatchStore,
  screening: ScreeningService,
  allowlists?: AllowlistStore,
  now: () => Date = () => new Date(),
): Operation<PutWatchRequest, AddToWatchOutput> {
  return {
    name: 'put-watch',
    method: 'PUT',
    minTier: 'professional',
    schema: putWatchRequestSchema,
    precheck: precheckPutWatch,
    // Charged like batch-screen: one point per title screened; logos are only stored.
    cost: (input) => ({ points: input.items.length, units: input.items.length }),
    run: async (input, context) =>
      addToWatch({ store, screening }, context.accountId, input, {
        allowlist: (await allowlists?.get(context.accountId))?.brands,
        now: now(),
        signal: context.signal,
      }),
  };
}

export const handler = lazyHandler(() =>
  buildApiHandler(
    putWatchOperation(watchStore(), screeningService(), allowlistStore(), dependencies().now),
    dependencies(),
  ),
);
