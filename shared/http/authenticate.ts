/**
 * Bearer-key authentication. The key is hashed (SHA-256) and looked up by its hash, one read that also gives the
 * account's tier and rate limit. Unknown and revoked keys take the same path (one lookup, then the same refusal),
 * so a client cannot tell them apart; a rotated key past its grace period is refused the same way. A suspended
 * account's keys (each carries a copy of the account's suspension) are refused with 403 `account_suspended`.
 * An account that no longer exists is caught by the debit's condition.
 */
import { AccountSuspendedError, InvalidApiKeyError, MissingApiKeyError } from '../errors';
import { hashApiKey, isWellFormedApiKey } from '../metering/api-keys';
import type { AccountStore } from '../ports';
import { header } from './headers';
import type { ApiMiddleware, ApiRequest } from './types';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

export function authenticate(options: { accounts: AccountStore; now?: () => Date }): ApiMiddleware {
  const authenticateBefore = async (request: ApiRequest): Promise<void> => {
    const authorization = header(request.event, 'authorization');
    if (authorization === undefined || authorization.trim() === '') throw new MissingApiKeyError();
    const key = BEARER.exec(authorization)?.[1];
    if (!key || !isWellFormedApiKey(key)) throw new InvalidApiKeyError('malformed_header');

    const record = await options.accounts.findApiKey(hashApiKey(key));
    if (!record || record.revokedAt) throw new InvalidApiKeyError('unknown_or_revoked');
    // A rotated key keeps working until the end of its grace period, then reads as revoked.
    if (record.expiresAt && record.expiresAt <= (options.now?.() ?? new Date()).toISOString())
      throw new InvalidApiKeyError('unknown_or_revoked');
    if (record.suspendedAt) throw new AccountSuspendedError();

    request.internal.caller = {
      accountId: record.accountId,
      keyId: record.keyId,
      keyPrefix: record.prefix,
      tier: record.tier,
      ...(record.rateLimit ? { rateLimit: record.rateLimit } : {}),
    };
  };

  return { before: authenticateBefore };
}
