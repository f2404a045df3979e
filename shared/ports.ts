/**
 * The ports the domain and the HTTP chain depend on. Adapters live in shared/adapters/aws (DynamoDB, ...) and
 * shared/adapters/local; the composition root (shared/composition-root.ts) picks them from config.
 */
import type { Tier } from './metering/tiers';

export interface Account {
  accountId: string;
  name: string;
  tier: Tier;
  points: number;
  /** Requests allowed per rate-limit window; absent means the service default. */
  rateLimit?: number;
  createdAt: string;
}

/**
 * A key carries a copy of its account's tier and rate limit, so that authenticating a request is one read.
 * Changing an account's tier or limit rewrites its keys in the same transaction.
 */
export interface ApiKeyRecord {
  keyHash: string;
  keyId: string;
  accountId: string;
  tier: Tier;
  rateLimit?: number;
  prefix: string;
  createdAt: string;
  revokedAt?: string;
  label?: string;
}

export interface AccountStore {
  getAccount(accountId: string, options?: { consistent?: boolean }): Promise<Account | undefined>;
  findApiKey(keyHash: string): Promise<ApiKeyRecord | undefined>;
  createAccount(input: { name: string; tier: Tier; rateLimit?: number; now: Date }): Promise<Account>;
  saveApiKey(record: ApiKeyRecord): Promise<void>;
  listApiKeys(accountId: string): Promise<ApiKeyRecord[]>;
  /** Returns false when the key does not exist or was already revoked. */
  revokeApiKey(accountId: string, keyId: string, now: Date): Promise<boolean>;
  /** Changes the account and every one of its keys together. */
  setTier(accountId: string, tier: Tier): Promise<void>;
  setRateLimit(accountId: string, requestsPerWindow: number | undefined): Promise<void>;
}

export type LedgerEntryKind = 'charge' | 'credit';

export interface LedgerEntry {
  accountId: string;
  entryId: string;
  kind: LedgerEntryKind;
  /** charge: charged or refunded; credit: credited. */
  status: 'charged' | 'refunded' | 'credited';
  operation: string;
  /** Points moved: a charge's cost, a credit's amount. Always positive. */
  points: number;
  units: number;
  requestId: string;
  at: string;
  refundedAt?: string;
  refundReason?: string;
  note?: string;
}

export interface Debit {
  accountId: string;
  entryId: string;
  cost: number;
}

export interface UsageLedger {
  /**
   * One atomic transaction: the balance goes down by `cost` only if it stays at or above zero, and the charge
   * record is written with it. Throws InsufficientPointsError (with the balance) or AccountNotFoundError.
   */
  debit(input: { accountId: string; cost: number; units: number; operation: string; requestId: string; now: Date }): Promise<Debit>;
  /** Gives the points of a charge back, at most once. Returns false when it had already been refunded. */
  refund(debit: Debit, reason: string, now: Date): Promise<boolean>;
  /** Adds points (grant, top-up) with a credit record, atomically. Returns the new balance. */
  credit(input: { accountId: string; points: number; note: string; now: Date }): Promise<number>;
  entries(accountId: string, options?: { limit?: number; newestFirst?: boolean }): Promise<LedgerEntry[]>;
}

export interface StoredResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

export type IdempotencyBegin = { kind: 'started' } | { kind: 'replay'; response: StoredResponse };

export interface IdempotencyStore {
  /**
   * Claims the key for this request, or returns the stored first response. Throws IdempotencyKeyReusedError when
   * the key was used with another request, IdempotencyInProgressError while the first request is still running.
   */
  begin(input: { id: string; fingerprint: string; requestId: string; now: Date }): Promise<IdempotencyBegin>;
  complete(input: { id: string; requestId: string; response: StoredResponse; now: Date }): Promise<void>;
  /** Frees the key after a failed request so that the client can retry with it. */
  release(input: { id: string; requestId: string }): Promise<void>;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window ends. */
  resetSeconds: number;
}

export interface RateLimiter {
  hit(accountId: string, limit: number, now: Date): Promise<RateLimitDecision>;
}
