/**
 * What GET /v1/usage answers: the records of an account (or of the calling key) in a time range, newest first, a
 * page at a time behind an opaque cursor, with totals of the whole range per operation and per UTC day.
 *
 * Input: the caller (account, key), the range (defaults: the last 30 days), a page size, a cursor.
 *   1. A cursor carries its range and scope, so that every page of one listing answers the same question; a
 *      cursor with a different range or scope given beside it is refused rather than silently mixed.
 *   2. The page is read from the ledger below the cursor's entry; the totals from every record of the range.
 * Output: records, count, next_cursor (null on the last page), totals.
 */
import { InvalidRequestError } from '../errors';
import type { LedgerEntry, LedgerRange, UsageLedger } from '../ports';

export const DEFAULT_RANGE_DAYS = 30;
/** Totals read at most this many records, so that a call stays fast for the busiest account; beyond, complete: false. */
export const MAX_TOTALLED_RECORDS = 100_000;
export const MAX_RANGE_DAYS = 93;
const DAY_MS = 86_400_000;
const BARE_DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface UsageQuery {
  from?: string;
  to?: string;
  limit: number;
  cursor?: string;
  scope: 'account' | 'key';
}

export interface UsageRecord {
  id: string;
  at: string;
  kind: LedgerEntry['kind'];
  operation: string;
  status: LedgerEntry['status'];
  points: number;
  units: number;
  request_id: string;
  key_id?: string;
  note?: string;
  refunded_at?: string;
}

export interface UsageTotals {
  requests: number;
  points: number;
  units: number;
  refunded_requests: number;
  /** False when the range held more than MAX_TOTALLED_RECORDS records: the totals cover the newest of them. */
  complete: boolean;
  by_operation: Record<string, { requests: number; points: number; units: number }>;
  by_day: { date: string; operation: string; requests: number; points: number; units: number }[];
}

export interface UsageReport {
  from: string;
  to: string;
  scope: 'account' | 'key';
  records: UsageRecord[];
  count: number;
  next_cursor: string | null;
  totals: UsageTotals;
}

interface Cursor {
  before: string;
  from: string;
  to: string;
  scope: 'account' | 'key';
}

const refuse = (field: string, message: string) => new InvalidRequestError([{ field, message }]);

/** `to` as a bare date means the end of that day: both dates of a range of dates are included. */
function instantOf(value: string, field: 'from' | 'to'): Date {
  const at = new Date(BARE_DATE.test(value) ? `${value}T00:00:00.000Z` : value);
  if (Number.isNaN(at.getTime())) throw refuse(field, 'must be a date (YYYY-MM-DD) or an ISO 8601 instant');
  return field === 'to' && BARE_DATE.test(value) ? new Date(at.getTime() + DAY_MS) : at;
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.before, cursor.from, cursor.to, cursor.scope])).toString('base64url');
}

export function decodeCursor(text: string): Cursor {
  try {
    const [before, from, to, scope] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown[];
    if ([before, from, to].every((v) => typeof v === 'string') && (scope === 'account' || scope === 'key')) {
      return { before: before as string, from: from as string, to: to as string, scope };
    }
  } catch {
    // falls through to the refusal
  }
  throw refuse('cursor', 'is not a cursor this API gave out: pass next_cursor from the previous page unchanged');
}

/** The range and scope the query asks for, checked: from before to, at most MAX_RANGE_DAYS apart. */
export function resolveRange(
  query: UsageQuery,
  now: Date,
): { from: Date; to: Date; scope: 'account' | 'key'; before?: string } {
  if (query.cursor) {
    const cursor = decodeCursor(query.cursor);
    const asked = {
      from: query.from && instantOf(query.from, 'from').toISOString(),
      to: query.to && instantOf(query.to, 'to').toISOString(),
    };
    if (
      (asked.from && asked.from !== cursor.from) ||
      (asked.to && asked.to !== cursor.to) ||
      query.scope !== cursor.scope
    ) {
      throw refuse(
        'cursor',
        'belongs to another range or scope: send the same from, to and scope as the first page, or none of from and to',
      );
    }
    return { from: new Date(cursor.from), to: new Date(cursor.to), scope: cursor.scope, before: cursor.before };
  }
  const to = query.to ? instantOf(query.to, 'to') : now;
  const from = query.from ? instantOf(query.from, 'from') : new Date(to.getTime() - DEFAULT_RANGE_DAYS * DAY_MS);
  if (from.getTime() >= to.getTime()) throw refuse('from', 'must be before to');
  if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY_MS)
    throw refuse('from', `the range may span at most ${MAX_RANGE_DAYS} days; ask for longer periods in parts`);
  return { from, to, scope: query.scope };
}

export function usageRecordOf(e: LedgerEntry): UsageRecord {
  return {
    id: e.entryId,
    at: e.at,
    kind: e.kind,
    operation: e.operation,
    status: e.status,
    points: e.points,
    units: e.units,
    request_id: e.requestId,
    ...(e.keyId ? { key_id: e.keyId } : {}),
    ...(e.note ? { note: e.note } : {}),
    ...(e.refundedAt ? { refunded_at: e.refundedAt } : {}),
  };
}

/** Totals of the charges among the records: a refunded charge counts as a refunded request, not as points. */
export async function totalsOf(
  entries: AsyncIterable<LedgerEntry> | Iterable<LedgerEntry>,
  maxRecords = MAX_TOTALLED_RECORDS,
): Promise<UsageTotals> {
  const totals: UsageTotals = {
    requests: 0,
    points: 0,
    units: 0,
    refunded_requests: 0,
    complete: true,
    by_operation: {},
    by_day: [],
  };
  const days = new Map<string, UsageTotals['by_day'][number]>();
  let read = 0;
  for await (const e of entries) {
    if (++read > maxRecords) {
      totals.complete = false;
      break;
    }
    if (e.kind !== 'charge') continue;
    if (e.status === 'refunded') {
      totals.refunded_requests++;
      continue;
    }
    totals.requests++;
    totals.points += e.points;
    totals.units += e.units;
    const op = totals.by_operation[e.operation] ?? { requests: 0, points: 0, units: 0 };
    totals.by_operation[e.operation] = op;
    op.requests++;
    op.points += e.points;
    op.units += e.units;
    const date = e.at.slice(0, 10);
    const key = `${date}#${e.operation}`;
    let day = days.get(key);
    if (!day) {
      day = { date, operation: e.operation, requests: 0, points: 0, units: 0 };
      days.set(key, day);
    }
    day.requests++;
    day.points += e.points;
    day.units += e.units;
  }
  totals.by_day = [...days.values()].sort(
    (a, b) => b.date.localeCompare(a.date) || a.operation.localeCompare(b.operation),
  );
  return totals;
}

export async function usageReport(
  ledger: UsageLedger,
  caller: { accountId: string; keyId: string },
  query: UsageQuery,
  now: Date,
): Promise<UsageReport> {
  const { from, to, scope, before } = resolveRange(query, now);
  const range: LedgerRange = { from, to, ...(scope === 'key' ? { keyId: caller.keyId } : {}) };
  const [page, totals] = await Promise.all([
    ledger.page(caller.accountId, { ...range, limit: query.limit, ...(before ? { before } : {}) }),
    totalsOf(ledger.between(caller.accountId, range)),
  ]);
  const last = page.entries.at(-1);
  const nextCursor =
    page.more && last
      ? encodeCursor({ before: last.entryId, from: from.toISOString(), to: to.toISOString(), scope })
      : null;
  const records = page.entries.map(usageRecordOf);
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    scope,
    records,
    count: records.length,
    next_cursor: nextCursor,
    totals,
  };
}
