import { TierNotAllowedError } from '../errors';
import { meetsTier, type Tier } from '../metering/tiers';
import type { ApiMiddleware, ApiRequest } from './types';

export function requireTier(minimum: Tier): ApiMiddleware {
  const requireTierBefore = (request: ApiRequest): void => {
    const caller = request.internal.caller!;
    if (!meetsTier(caller.tier, minimum)) throw new TierNotAllowedError(caller.tier, minimum);
  };

  return { before: requireTierBefore };
}
