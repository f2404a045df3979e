/** POST /v1/image-search: 5 points per call, professional tier and above. */
import { dependencies } from '../../shared/composition/metering';
import { logoSearchService } from '../../shared/composition/logo-search';
import { buildApiHandler, lazyHandler } from '../../shared/http/api-handler';
import type { Operation } from '../../shared/http/types';
import type { LogoSearchResponse } from '../../shared/imaging/search-logos';
import type { LogoSearchService } from '../../shared/imaging/logo-search-service';
import { MODEL_UNLOADABLE_OUTCOME } from './outcomes';
import {
  IMAGE_SEARCH_QUERY_FIELDS,
  imageSearchRequestSchema,
  precheckImageSearch,
  type ImageSearchRequest,
} from './schema';

export const IMAGE_SEARCH_COST = 5;

export function imageSearchOperation(search: LogoSearchService): Operation<ImageSearchRequest, LogoSearchResponse> {
  return {
    name: 'image-search',
    minTier: 'professional',
    schema: imageSearchRequestSchema,
    queryFields: IMAGE_SEARCH_QUERY_FIELDS,
    precheck: precheckImageSearch,
    // Refused here, before the charge: a url by its shape (its DNS answers are checked by the fetch), an inline
    // image by what can be seen without decoding it (an SVG over its rendering budget).
    validate(input) {
      if (input.url !== undefined) search.checkUrl(input.url);
      if (input.image_b64 !== undefined) search.checkInlineImage(input.image_b64);
    },
    cost: () => ({ points: IMAGE_SEARCH_COST, units: 1 }),
    async run(input, context) {
      const response = await search.search(input, {
        ...(context.signal ? { signal: context.signal } : {}),
        // A model that cannot be loaded is no passing slowness: a metric of its own, alarmed on at the first one.
        onDegraded: (cause) => {
          if (cause.reason === 'unloadable') context.outcomes.add(MODEL_UNLOADABLE_OUTCOME);
        },
      });
      if (response.degraded) context.outcomes.add('Degraded');
      return response;
    },
  };
}

export const handler = lazyHandler(() => buildApiHandler(imageSearchOperation(logoSearchService()), dependencies()));
