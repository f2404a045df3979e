/**
 * Bearer-key authentication. The key is hashed (SHA-256) and looked up by its hash, one read that also gives the
 * account's tier and rate limit. Unknown and revoked keys take the same path (one lookup, then the same refusal),
 * so a client cannot tell them apart. An account that no longer exists is caught by the debit's condition.
 */
import { InvalidApiKeyError, MissingApiKeyError } from '../errors';
import { hashApiKey, isWellFormedApiKey } from '../metering/api-keys';
import type { AccountStore } from '../ports';
import { header } from './headers';
import type { ApiMiddleware, ApiRequest } from './types';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

export function authenticate(options: { accounts: AccountStore }): ApiMiddleware {
  const authenticateBefore = async (request: ApiRequest): Promise<void> => {
    const authorization = header(request.event, 'authorization');
    if (authorization === undefined || authorization.trim() === '') throw new MissingApiKeyError();
    const key = BEARER.exec(authorization)?.[1];
    if (!key || !isWellFormedApiKey(key)) throw new InvalidApiKeyError('malformed_header');

    const record = await options.accounts.findApiKey(hashApiKey(key));
    if (!record || record.revokedAt) throw new InvalidApiKeyError('unknown_or_revoked');

    request.internal.caller = {
      accountId: record.accountId,
      keyId: record.keyId,
      tier: record.tier,
      ...(record.rateLimit ? { rateLimit: record.rateLimit } : {}),
    };
  };

  return { before: authenticateBefore };
}
