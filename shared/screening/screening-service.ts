/**
 * The screening engine with its sources kept warm for the life of a function instance: the TRO list, the key
 * filters and the data date are re-read every `refreshMs`, and a cached lookup key is trusted as long, so a mark
 * batch that completes is screened against within twice that (config SCREENING_REFRESH_SECONDS, 4 s by default).
 */
import type { DataBatchStore, KeyFilterStore, MarkStore, TroStore } from '../ports';
import { allowlistKeys } from './allowlist';
import type { BrandUseModel } from './brand-use-model';
import { TitleScreener, type ScreeningItem, type ScreeningResult } from './screen-titles';
import { TroIndex } from './tro-index';

export interface ScreeningService {
  /** `allowlist`: the calling account's own brands, which are not raised (see ./allowlist.ts). */
  screen(
    items: readonly ScreeningItem[],
    options: { detail?: boolean; allowlist?: readonly string[] },
  ): Promise<{ results: ScreeningResult[]; dataAsOf: string }>;
}

export const DEFAULT_REFRESH_MS = 4_000;

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

export function createScreeningService(
  stores: { marks: MarkStore; tro: TroStore; batches: DataBatchStore; keyFilters: KeyFilterStore },
  options: { refreshMs?: number; model?: BrandUseModel } = {},
): ScreeningService & { screener: TitleScreener } {
  const every = options.refreshMs ?? DEFAULT_REFRESH_MS;
  const tro = refreshing(async () => new TroIndex(await stores.tro.all()), every);
  const dataAsOf = refreshing(async () => (await stores.batches.latestComplete('US', 'marks'))?.dataAsOf ?? '', every);
  const filters = { US: refreshing(() => stores.keyFilters.load('US'), every), CN: refreshing(() => stores.keyFilters.load('CN'), every) };
  const screener = new TitleScreener({ marks: stores.marks, tro, keyFilter: (market) => filters[market]() }, { cacheTtlMs: every, ...(options.model ? { model: options.model } : {}) });
  return {
    screener,
    async screen(items, options) {
      const allowlist = allowlistKeys(options.allowlist ?? []);
      const [results, asOf] = await Promise.all([screener.screen(items, { detail: options.detail, allowlist }), dataAsOf()]);
      return { results, dataAsOf: asOf };
    },
  };
}
