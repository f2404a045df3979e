/**
 * A seller's watched catalogue: listing titles kept per account with their last screening result, re-screened when
 * new data lands (./rescreen.ts); a change of result becomes an alert. Logos may be watched by image reference;
 * they are stored but not yet re-screened.
 */
import type { Risk, ScreeningResult } from '../screening/screen-titles';

export const MAX_WATCH_TITLES_PER_CALL = 10_000;
export const MAX_WATCH_LOGOS_PER_CALL = 1_000;
export const MAX_WATCH_ID_CHARS = 128;

/** The part of a screening result a watched title keeps, and that an alert compares. */
export interface WatchResult {
  risk: Risk;
  topConflict: string;
  troHit: boolean;
  /** The data batch date the result was computed from. */
  dataAsOf: string;
}

export interface WatchItem {
  accountId: string;
  /** The seller's own id (e.g. a SKU): the table's sort key, unique within the account. */
  itemId: string;
  kind: 'title' | 'logo';
  title?: string;
  nice?: string;
  imageUrl?: string;
  /** Titles only: the result of the last screening. */
  result?: WatchResult;
  addedAt: string;
  screenedAt?: string;
}

export function watchResultOf(result: ScreeningResult, dataAsOf: string): WatchResult {
  return { risk: result.risk, topConflict: result.top_conflict, troHit: result.tro_hit, dataAsOf };
}

/** Whether a new result differs from the kept one in what a seller acts on (the data date alone is no change). */
export function resultChanged(before: WatchResult | undefined, after: WatchResult): boolean {
  if (!before) return false;
  return before.risk !== after.risk || before.topConflict !== after.topConflict || before.troHit !== after.troHit;
}

/** A watched item as the API shows it. */
export function watchItemView(item: WatchItem): Record<string, unknown> {
  return {
    id: item.itemId,
    kind: item.kind,
    ...(item.title !== undefined ? { title: item.title } : {}),
    ...(item.nice !== undefined ? { nice: item.nice } : {}),
    ...(item.imageUrl !== undefined ? { image_url: item.imageUrl } : {}),
    ...(item.result
      ? {
          risk: item.result.risk,
          tro_hit: item.result.troHit,
          top_conflict: item.result.topConflict,
          data_as_of: item.result.dataAsOf,
        }
      : {}),
    added_at: item.addedAt,
    ...(item.screenedAt ? { screened_at: item.screenedAt } : {}),
  };
}
