/**
 * The operator's use cases beyond opening accounts: find accounts, report usage per key and period, take points
 * off with a reason, suspend and resume, rotate a key with a grace period. Each one that changes an account leaves
 * a record in its ledger (an `adjustment` or an `event`), so the account's history reads whole in one place.
 */
import type { Account, AccountStore, ApiKeyRecord, UsageLedger } from '../ports';
import { issueApiKey, type IssuedKey } from './accounts';

export interface AdminStores {
  accounts: AccountStore;
  ledger: UsageLedger;
}

/** Accounts whose id or name contains the text (any case), or that hold a key with the given display prefix. */
export async function findAccounts(
  stores: AdminStores,
  query: { text?: string; keyPrefix?: string },
): Promise<Account[]> {
  if (query.keyPrefix) {
    const keys = await stores.accounts.findApiKeysByPrefix(query.keyPrefix);
    const ids = [...new Set(keys.map((k) => k.accountId))];
    const accounts = await Promise.all(ids.map((id) => stores.accounts.getAccount(id, { consistent: true })));
    return accounts.filter((a): a is Account => a !== undefined);
  }
  const all = await stores.accounts.listAccounts();
  const text = query.text?.toLowerCase();
  return text
    ? all.filter((a) => a.accountId.toLowerCase().includes(text) || a.name.toLowerCase().includes(text))
    : all;
}

export interface UsageRow {
  day: string;
  keyId: string;
  operation: string;
  requests: number;
  points: number;
  units: number;
  refunded: number;
}

/** Charges of an account in [from, to), one row per UTC day, key and operation, newest day first. */
export async function usageByKeyAndDay(
  stores: AdminStores,
  accountId: string,
  range: { from: Date; to: Date; keyId?: string },
): Promise<UsageRow[]> {
  const rows = new Map<string, UsageRow>();
  for await (const e of stores.ledger.between(accountId, range)) {
    if (e.kind !== 'charge') continue;
    const day = e.at.slice(0, 10);
    const keyId = e.keyId ?? '(none)';
    const id = `${day}#${keyId}#${e.operation}`;
    let row = rows.get(id);
    if (!row) {
      row = { day, keyId, operation: e.operation, requests: 0, points: 0, units: 0, refunded: 0 };
      rows.set(id, row);
    }
    if (e.status === 'refunded') {
      row.refunded++;
      continue;
    }
    row.requests++;
    row.points += e.points;
    row.units += e.units;
  }
  return [...rows.values()].sort(
    (a, b) => b.day.localeCompare(a.day) || a.keyId.localeCompare(b.keyId) || a.operation.localeCompare(b.operation),
  );
}

async function requireAccount(stores: AdminStores, accountId: string): Promise<Account> {
  const account = await stores.accounts.getAccount(accountId, { consistent: true });
  if (!account) throw new Error(`no account ${accountId}`);
  return account;
}

function requireReason(reason: string | undefined): string {
  if (!reason || reason.trim() === '') throw new Error('a reason is required: it is kept in the ledger');
  return reason.trim();
}

/** A negative adjustment: the balance goes down by `points` (never below zero) with the reason on record. */
export async function adjustDown(
  stores: AdminStores,
  input: { accountId: string; points: number; reason?: string; now: Date },
): Promise<number> {
  return stores.ledger.adjust({
    accountId: input.accountId,
    points: input.points,
    reason: requireReason(input.reason),
    now: input.now,
  });
}

export async function suspendAccount(
  stores: AdminStores,
  input: { accountId: string; reason?: string; now: Date },
): Promise<void> {
  const reason = requireReason(input.reason);
  const account = await requireAccount(stores, input.accountId);
  if (account.suspendedAt)
    throw new Error(`account ${input.accountId} is already suspended (since ${account.suspendedAt})`);
  await stores.accounts.setSuspended(input.accountId, input.now.toISOString());
  await stores.ledger.recordEvent({ accountId: input.accountId, operation: 'suspend', note: reason, now: input.now });
}

export async function resumeAccount(
  stores: AdminStores,
  input: { accountId: string; reason?: string; now: Date },
): Promise<void> {
  const reason = requireReason(input.reason);
  const account = await requireAccount(stores, input.accountId);
  if (!account.suspendedAt) throw new Error(`account ${input.accountId} is not suspended`);
  await stores.accounts.setSuspended(input.accountId, undefined);
  await stores.ledger.recordEvent({ accountId: input.accountId, operation: 'resume', note: reason, now: input.now });
}

/** `24h`, `90m`, `7d`, `0` (at once): the grace period of a rotated key, at most 30 days. */
export function parseGrace(text: string): number {
  const match = /^(\d+)\s*([smhd]?)$/.exec(text.trim());
  if (!match) throw new Error('--grace must be a duration such as 0, 90m, 24h or 7d');
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86_400 }[match[2] as '' | 's' | 'm' | 'h' | 'd'];
  const seconds = Number(match[1]) * unit;
  if (seconds > 30 * 86_400) throw new Error('--grace may be at most 30 days');
  return seconds * 1000;
}

/**
 * A new key for the same account (the old one's label kept); the old key keeps working for the grace period,
 * then is refused as revoked. Recorded in the ledger with both key ids.
 */
export async function rotateApiKey(
  stores: AdminStores,
  input: { accountId: string; keyId: string; graceMs: number; envName: string; now: Date },
): Promise<{ issued: IssuedKey; oldKey: Pick<ApiKeyRecord, 'keyId' | 'prefix'>; oldKeyExpiresAt: string }> {
  const old = (await stores.accounts.listApiKeys(input.accountId)).find((k) => k.keyId === input.keyId);
  if (!old || old.revokedAt) throw new Error('no such active key on that account');
  if (old.expiresAt && old.expiresAt <= input.now.toISOString()) throw new Error('that key has already expired');
  const issued = await issueApiKey(stores.accounts, {
    accountId: input.accountId,
    envName: input.envName,
    label: old.label,
    now: input.now,
  });
  const expiresAt = new Date(input.now.getTime() + input.graceMs).toISOString();
  await stores.accounts.expireApiKey(input.accountId, input.keyId, expiresAt);
  await stores.ledger.recordEvent({
    accountId: input.accountId,
    operation: 'rotate-key',
    keyId: input.keyId,
    note: `key ${old.keyId} (${old.prefix}) replaced by ${issued.keyId} (${issued.prefix}); old key valid until ${expiresAt}`,
    now: input.now,
  });
  return { issued, oldKey: { keyId: old.keyId, prefix: old.prefix }, oldKeyExpiresAt: expiresAt };
}

/** Rows as an aligned text table or as CSV (RFC 4180 quoting). */
export function formatRows(
  rows: readonly Record<string, unknown>[],
  columns: readonly string[],
  format: 'table' | 'csv',
): string {
  const cell = (v: unknown) => (v === undefined || v === null ? '' : String(v));
  if (format === 'csv') {
    const quote = (v: string) => (/[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
    return [columns.join(','), ...rows.map((r) => columns.map((c) => quote(cell(r[c]))).join(','))].join('\n');
  }
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [
    line([...columns]),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map((r) => line(columns.map((c) => cell(r[c])))),
  ].join('\n');
}
