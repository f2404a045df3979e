/**
 * In-memory implementations of the metering ports, for measuring what the chain itself costs with the storage
 * taken out. Benchmarks only: every test that touches storage uses DynamoDB Local.
 */
import { InsufficientPointsError } from '../../shared/errors';
import type {
  Account,
  AccountStore,
  ApiKeyRecord,
  Debit,
  IdempotencyStore,
  LedgerEntry,
  RateLimiter,
  UsageLedger,
} from '../../shared/ports';

export class InMemoryMetering {
  readonly accountsById = new Map<string, Account>();
  readonly keys = new Map<string, ApiKeyRecord>();
  readonly entries = new Map<string, LedgerEntry>();

  readonly accounts: AccountStore = {
    getAccount: async (id) => this.accountsById.get(id),
    findApiKey: async (hash) => this.keys.get(hash),
    createAccount: async (input) => {
      const account: Account = {
        accountId: `acct_${this.accountsById.size}`,
        name: input.name,
        tier: input.tier,
        points: 0,
        createdAt: input.now.toISOString(),
      };
      this.accountsById.set(account.accountId, account);
      return account;
    },
    saveApiKey: async (record) => void this.keys.set(record.keyHash, record),
    listApiKeys: async (id) => [...this.keys.values()].filter((k) => k.accountId === id),
    revokeApiKey: async () => false,
    setTier: async () => undefined,
    setRateLimit: async () => undefined,
    setSuspended: async () => undefined,
    expireApiKey: async () => false,
    listAccounts: async () => [...this.accountsById.values()],
    findApiKeysByPrefix: async (prefix) => [...this.keys.values()].filter((k) => k.prefix.startsWith(prefix)),
  };

  readonly ledger: UsageLedger = {
    debit: async (input): Promise<Debit> => {
      const account = this.accountsById.get(input.accountId)!;
      if (account.points < input.cost) throw new InsufficientPointsError(account.points, input.cost);
      account.points -= input.cost;
      const entryId = `${input.now.toISOString()}#${input.requestId}`;
      this.entries.set(entryId, {
        accountId: input.accountId,
        entryId,
        kind: 'charge',
        status: 'charged',
        operation: input.operation,
        points: input.cost,
        units: input.units,
        requestId: input.requestId,
        at: input.now.toISOString(),
      });
      return { accountId: input.accountId, entryId, cost: input.cost };
    },
    refund: async (debit) => {
      const entry = this.entries.get(debit.entryId);
      if (entry?.status !== 'charged') return false;
      entry.status = 'refunded';
      this.accountsById.get(debit.accountId)!.points += debit.cost;
      return true;
    },
    credit: async (input) => {
      const account = this.accountsById.get(input.accountId)!;
      account.points += input.points;
      return account.points;
    },
    entries: async (id) => [...this.entries.values()].filter((e) => e.accountId === id),
    adjust: async () => {
      throw new Error('not used by the benchmarks');
    },
    recordEvent: async () => {
      throw new Error('not used by the benchmarks');
    },
    page: async () => ({ entries: [], more: false }),
    between: async function* () {},
  };

  readonly idempotency: IdempotencyStore = {
    begin: async () => ({ kind: 'started' }),
    complete: async () => undefined,
    release: async () => undefined,
  };

  readonly rateLimiter: RateLimiter = {
    hit: async (_id, limit) => ({ allowed: true, limit, remaining: limit, resetSeconds: 1 }),
  };
}
