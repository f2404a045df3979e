/** POST /v1/batch-screen: 1 point per item, professional tier and above; results[i] answers items[i]. */
import { dependencies } from '../../shared/composition/metering';
import { screeningService } from '../../shared/composition/screening';
import { allowlistStore } from '../../shared/composition/allowlist';
import { buildApiHandler, lazyHandler } from '../../shared/http/api-handler';
import type { Operation } from '../../shared/http/types';
import type { AllowlistStore } from '../../shared/ports';
import type { ScreeningResult } from '../../shared/screening/screen-titles';
import type { ScreeningService } from '../../shared/screening/screening-service';
import { batchScreenRequestSchema, precheckBatchScreen, type BatchScreenRequest } from './schema';

export interface BatchScreenResponse {
  results: ScreeningResult[];
  count: number;
  data_as_of: string;
}

export async function screenBatch(
  screening: ScreeningService,
  input: BatchScreenRequest,
  options: { allowlist?: readonly string[]; signal?: AbortSignal } = {},
): Promise<BatchScreenResponse> {
  const { allowlist, signal } = options;
  const { results, dataAsOf } = await screening.screen(input.items, {
    detail: input.detail,
    signal,
    ...(allowlist?.length ? { allowlist } : {}),
  });
  return { results, count: results.length, data_as_of: dataAsOf };
}

/** `allowlists`: the accounts' own brands, which screening does not raise for them. */
export function batchScreenOperation(
  screening: ScreeningService,
  allowlists?: AllowlistStore,
): Operation<BatchScreenRequest, BatchScreenResponse> {
  return {
    name: 'batch-screen',
    minTier: 'professional',
    schema: batchScreenRequestSchema,
    precheck: precheckBatchScreen,
    // Over the work budget: refused before the charge, with how many items fit.
    validate: (input) => screening.checkWork(input.items),
    cost: (input) => ({ points: input.items.length, units: input.items.length }),
    run: async (input, context) =>
      screenBatch(screening, input, {
        allowlist: (await allowlists?.get(context.accountId))?.brands,
        signal: context.signal,
      }),
  };
}

export const handler = lazyHandler(() =>
  buildApiHandler(batchScreenOperation(screeningService(), allowlistStore()), dependencies()),
);
