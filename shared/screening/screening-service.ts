/**
 * The screening engine with its sources kept warm for the life of a function instance: the TRO list and the key
 * filters (refreshed every 5 minutes: new data is seen within 5 minutes) and the data date (every minute), around
 * one TitleScreener and its key cache.
 */
import type { DataBatchStore, KeyFilterStore, MarkStore, TroStore } from '../ports';
import { allowlistKeys, applyAllowlist } from './allowlist';
import { TitleScreener, type ScreeningItem, type ScreeningResult } from './screen-titles';
import { TroIndex } from './tro-index';

export interface ScreeningService {
  /** `allowlist`: the calling account's own brands, which are not raised (see ./allowlist.ts). */
  screen(
    items: readonly ScreeningItem[],
    options: { detail?: boolean; allowlist?: readonly string[] },
  ): Promise<{ results: ScreeningResult[]; dataAsOf: string }>;
}

function refreshing<T>(load: () => Promise<T>, everyMs: number): () => Promise<T> {
  let value: Promise<T> | undefined;
  let loadedAt = 0;
  return () => {
    if (!value || Date.now() - loadedAt > everyMs) {
      loadedAt = Date.now();
      const next = load();
      // A failed refresh is retried on the next call rather than remembered.
      next.catch(() => {
        if (value === next) value = undefined;
      });
      value = next;
    }
    return value;
  };
}

export function createScreeningService(stores: { marks: MarkStore; tro: TroStore; batches: DataBatchStore; keyFilters: KeyFilterStore }): ScreeningService & { screener: TitleScreener } {
  const tro = refreshing(async () => new TroIndex(await stores.tro.all()), 5 * 60_000);
  const dataAsOf = refreshing(async () => (await stores.batches.latestComplete('US', 'marks'))?.dataAsOf ?? '', 60_000);
  const filters = { US: refreshing(() => stores.keyFilters.load('US'), 5 * 60_000), CN: refreshing(() => stores.keyFilters.load('CN'), 5 * 60_000) };
  const screener = new TitleScreener({ marks: stores.marks, tro, keyFilter: (market) => filters[market]() });
  return {
    screener,
    async screen(items, options) {
      const allowed = allowlistKeys(options.allowlist ?? []);
      if (allowed.size === 0) {
        const [results, asOf] = await Promise.all([screener.screen(items, { detail: options.detail }), dataAsOf()]);
        return { results, dataAsOf: asOf };
      }
      // The allowlist filters finished results, which needs each one's conflicts: asked for, then trimmed.
      const [results, asOf] = await Promise.all([screener.screen(items, { detail: true }), dataAsOf()]);
      return { results: results.map((r) => applyAllowlist(r, allowed, options.detail === true)), dataAsOf: asOf };
    },
  };
}
