/**
 * What GET /v1/account answers: the calling key's account as its owner needs it before a call (tier, balance,
 * rate limit, which key this is) and what each operation costs and whether this tier may call it.
 */
import { AccountNotFoundError } from '../errors';
import { PRICE_LIST } from './price-list';
import { meetsTier, type Tier } from './tiers';
import type { AccountStore } from '../ports';

export interface AccountView {
  account_id: string;
  name: string;
  tier: Tier;
  balance: number;
  rate_limit: { requests: number; window_seconds: number; remaining: number };
  key: { id: string; prefix: string };
  created_at: string;
  operations: {
    operation: string;
    method: string;
    path: string;
    points: number;
    per: string;
    min_tier: Tier;
    allowed: boolean;
  }[];
}

export async function accountView(
  accounts: AccountStore,
  caller: { accountId: string; keyId: string; keyPrefix: string; rateLimit?: { limit: number; remaining: number } },
  rateLimitDefaults: { requests: number; windowSeconds: number },
): Promise<AccountView> {
  const account = await accounts.getAccount(caller.accountId, { consistent: true });
  if (!account) throw new AccountNotFoundError();
  const limit = caller.rateLimit?.limit ?? account.rateLimit ?? rateLimitDefaults.requests;
  return {
    account_id: account.accountId,
    name: account.name,
    tier: account.tier,
    balance: account.points,
    rate_limit: {
      requests: limit,
      window_seconds: rateLimitDefaults.windowSeconds,
      remaining: caller.rateLimit?.remaining ?? limit,
    },
    key: { id: caller.keyId, prefix: caller.keyPrefix },
    created_at: account.createdAt,
    operations: PRICE_LIST.map((p) => ({
      operation: p.operation,
      method: p.method,
      path: p.path,
      points: p.points,
      per: p.per,
      min_tier: p.minTier,
      allowed: meetsTier(account.tier, p.minTier),
    })),
  };
}
