/**
 * Account administration as use cases over the ports: what the admin CLI and the local runtime call.
 * Points are only ever moved through the ledger, so every point on an account has a record.
 */
import type { AccountStore, ApiKeyRecord, LedgerEntry, UsageLedger } from '../ports';
import { displayPrefix, generateApiKey, hashApiKey, newId } from './api-keys';
import type { Tier } from './tiers';

export interface IssuedKey {
  /** Shown once; only its hash is kept. */
  apiKey: string;
  keyId: string;
  prefix: string;
}

export async function openAccount(
  stores: { accounts: AccountStore; ledger: UsageLedger },
  input: { name: string; tier: Tier; points: number; rateLimit?: number; now: Date },
) {
  const account = await stores.accounts.createAccount({
    name: input.name,
    tier: input.tier,
    rateLimit: input.rateLimit,
    now: input.now,
  });
  const points =
    input.points > 0
      ? await stores.ledger.credit({
          accountId: account.accountId,
          points: input.points,
          note: 'opening balance',
          now: input.now,
        })
      : 0;
  return { ...account, points };
}

export async function issueApiKey(
  accounts: AccountStore,
  input: { accountId: string; envName: string; label?: string; now: Date },
): Promise<IssuedKey> {
  const account = await accounts.getAccount(input.accountId, { consistent: true });
  if (!account) throw new Error(`no account ${input.accountId}`);
  const apiKey = generateApiKey(input.envName);
  const record: ApiKeyRecord = {
    keyHash: hashApiKey(apiKey),
    keyId: newId('key'),
    accountId: input.accountId,
    tier: account.tier,
    ...(account.rateLimit ? { rateLimit: account.rateLimit } : {}),
    ...(account.suspendedAt ? { suspendedAt: account.suspendedAt } : {}),
    prefix: displayPrefix(apiKey),
    createdAt: input.now.toISOString(),
    ...(input.label ? { label: input.label } : {}),
  };
  await accounts.saveApiKey(record);
  return { apiKey, keyId: record.keyId, prefix: record.prefix };
}

/** The balance the ledger explains: credits minus charges that were not refunded. */
export function ledgerBalance(entries: LedgerEntry[]): number {
  return entries.reduce(
    (sum, e) =>
      sum + (e.kind === 'credit' ? e.points : e.kind === 'adjustment' || e.status === 'charged' ? -e.points : 0),
    0,
  );
}

export async function auditAccount(stores: { accounts: AccountStore; ledger: UsageLedger }, accountId: string) {
  const [account, entries] = await Promise.all([
    stores.accounts.getAccount(accountId, { consistent: true }),
    stores.ledger.entries(accountId),
  ]);
  if (!account) throw new Error(`no account ${accountId}`);
  const explained = ledgerBalance(entries);
  const requestIds = entries.filter((e) => e.kind === 'charge').map((e) => e.requestId);
  const duplicateCharges = requestIds.length - new Set(requestIds).size;
  return {
    accountId,
    balance: account.points,
    explained,
    consistent: explained === account.points && duplicateCharges === 0,
    duplicateCharges,
    entries: entries.length,
  };
}
