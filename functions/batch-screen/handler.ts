/**
 * POST /v1/batch-screen: 1 point per item, professional tier and above.
 * The metered chain is complete; the screening engine is not part of this build yet, so the operation answers
 * 503 `service_unavailable` and the charge is refunded by the chain.
 */
import { dependencies } from '../../shared/composition-root';
import { ServiceUnavailableError } from '../../shared/errors';
import { buildApiHandler, lazyHandler } from '../../shared/http/api-handler';
import type { Operation } from '../../shared/http/types';
import { batchScreenRequestSchema, precheckBatchScreen, type BatchScreenRequest } from './schema';

export interface BatchScreenResponse {
  results: { name: string; risk: '高' | '中' | '低'; tro_hit: boolean; top_conflict: string }[];
  count: number;
  data_as_of: string;
}

export async function screenBatch(_input: BatchScreenRequest): Promise<BatchScreenResponse> {
  throw new ServiceUnavailableError('Title screening');
}

export const batchScreenOperation: Operation<BatchScreenRequest, BatchScreenResponse> = {
  name: 'batch-screen',
  minTier: 'professional',
  schema: batchScreenRequestSchema,
  precheck: precheckBatchScreen,
  cost: (input) => ({ points: input.items.length, units: input.items.length }),
  run: screenBatch,
};

export const handler = lazyHandler(() => buildApiHandler(batchScreenOperation, dependencies()));
