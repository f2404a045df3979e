/** Per-account request rate: the account's own limit or the service default, per fixed window. 429 beyond it. */
import { RateLimitedError } from '../errors';
import type { RateLimiter } from '../ports';
import type { ApiMiddleware, ApiRequest } from './types';

export function rateLimit(options: {
  rateLimiter: RateLimiter;
  defaultLimit: number;
  windowSeconds: number;
  now: () => Date;
}): ApiMiddleware {
  const rateLimitBefore = async (request: ApiRequest): Promise<void> => {
    const caller = request.internal.caller!;
    const limit = caller.rateLimit ?? options.defaultLimit;
    const decision = await options.rateLimiter.hit(caller.accountId, limit, options.now());
    request.internal.rateLimit = { limit: decision.limit, remaining: decision.remaining };
    if (!decision.allowed) throw new RateLimitedError(limit, options.windowSeconds, decision.resetSeconds);
  };

  return { before: rateLimitBefore };
}
