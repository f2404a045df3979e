/**
 * Where a batch lands in the data bucket says what it is:
 *   incoming/<kind>/<market>/<YYYY-MM-DD>/<file>
 * e.g. incoming/uspto-daily/US/2026-11-20/apc261120.zip, incoming/marks-jsonl/CN/2026-11-20/cn-batch.jsonl.gz.
 * A CN batch's coverage record travels beside it as `<file>.coverage.json`.
 */
import { MARKETS, isCalendarDate, type Market } from '../marks/mark-record';
import { BATCH_KINDS, type BatchKind } from './ingest-batch';

export interface BatchKey {
  kind: BatchKind;
  market: Market;
  batchDate: string;
  fileName: string;
}

const ENTRY_EXTENSION: Record<BatchKind, string> = { 'uspto-daily': '.xml', tsdr: '.xml', 'marks-jsonl': '.jsonl', tro: '.csv' };

export function entryExtensionOf(kind: BatchKind): string {
  return ENTRY_EXTENSION[kind];
}

export function parseBatchKey(key: string): BatchKey | { error: string } {
  const parts = key.split('/');
  if (parts.length !== 5 || parts[0] !== 'incoming') return { error: `expected incoming/<kind>/<market>/<YYYY-MM-DD>/<file>, got ${key}` };
  const [, kind, market, batchDate, fileName] = parts as [string, string, string, string, string];
  if (!(BATCH_KINDS as readonly string[]).includes(kind)) return { error: `unknown kind "${kind}" (one of ${BATCH_KINDS.join(', ')})` };
  if (!(MARKETS as readonly string[]).includes(market)) return { error: `unknown market "${market}" (US or CN)` };
  if (!isCalendarDate(batchDate)) return { error: `"${batchDate}" is not a YYYY-MM-DD date` };
  if (!fileName) return { error: 'no file name' };
  return { kind: kind as BatchKind, market: market as Market, batchDate, fileName };
}

export function isCoverageSidecar(key: string): boolean {
  return key.endsWith('.coverage.json');
}
