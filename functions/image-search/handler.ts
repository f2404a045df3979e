/**
 * POST /v1/image-search: 5 points per call, professional tier and above.
 * The metered chain is complete; the image search engine is not part of this build yet, so the operation answers
 * 503 `service_unavailable` and the charge is refunded by the chain.
 */
import { dependencies } from '../../shared/composition-root';
import { ServiceUnavailableError } from '../../shared/errors';
import { buildApiHandler, lazyHandler } from '../../shared/http/api-handler';
import type { Operation } from '../../shared/http/types';
import { IMAGE_SEARCH_QUERY_FIELDS, imageSearchRequestSchema, precheckImageSearch, type ImageSearchRequest } from './schema';

export const IMAGE_SEARCH_COST = 5;

export interface ImageSearchResponse {
  results: { serial: string; mark: string; score: number; nice: string; is_live: 0 | 1; jurisdiction?: string }[];
  count: number;
  data_as_of: string;
  degraded: boolean;
}

export async function searchImage(_input: ImageSearchRequest): Promise<ImageSearchResponse> {
  throw new ServiceUnavailableError('Image search');
}

export const imageSearchOperation: Operation<ImageSearchRequest, ImageSearchResponse> = {
  name: 'image-search',
  minTier: 'professional',
  schema: imageSearchRequestSchema,
  queryFields: IMAGE_SEARCH_QUERY_FIELDS,
  precheck: precheckImageSearch,
  cost: () => ({ points: IMAGE_SEARCH_COST, units: 1 }),
  run: searchImage,
};

export const handler = lazyHandler(() => buildApiHandler(imageSearchOperation, dependencies()));
