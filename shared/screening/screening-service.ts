/**
 * The screening engine with its sources kept warm for the life of a function instance: the TRO list, the key
 * filters and the data date are re-read every `refreshMs`, and a cached lookup key is trusted as long, so a mark
 * batch that completes is screened against within twice that (config SCREENING_REFRESH_SECONDS, 4 s by default).
 *
 * Its work is bounded here, at the entry, whatever the rules inside do: `checkWork` refuses a batch over the work
 * budget before anything is charged or done, and `screen` works in slices of about 90 ms, yielding to the event
 * loop between them (so that a deadline timer can fire) and stopping at the next slice once `signal` is aborted.
 */
import { WorkAbortedError } from '../errors';
import type { DataBatchStore, KeyFilterStore, MarkStore, TroStore } from '../ports';
import { allowlistKeys } from './allowlist';
import type { BrandUseModel } from './brand-use-model';
import { TitleScreener, type ScreeningItem, type ScreeningResult } from './screen-titles';
import { checkScreeningWork, slicesByWork } from './screening-work';
import { TroIndex } from './tro-index';

export interface ScreeningService {
  /** Throws BatchTooComplexError when the batch is over the work budget. */
  checkWork(items: readonly ScreeningItem[]): void;
  /** `allowlist`: the calling account's own brands, which are not raised (see ./allowlist.ts). */
  screen(
    items: readonly ScreeningItem[],
    options: { detail?: boolean; allowlist?: readonly string[]; signal?: AbortSignal },
  ): Promise<{ results: ScreeningResult[]; dataAsOf: string }>;
}

export const DEFAULT_REFRESH_MS = 4_000;
/** Units per slice: about 90 ms of screening on the benchmark machine. */
export const UNITS_PER_SLICE = 8_000;
/** The default budget of one call: about 2 s of screening on the benchmark machine (screening-work.ts). */
export const DEFAULT_WORK_BUDGET = 180_000;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

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
  options: { refreshMs?: number; model?: BrandUseModel; workBudget?: number; everyRun?: boolean } = {},
): ScreeningService & { screener: TitleScreener } {
  const every = options.refreshMs ?? DEFAULT_REFRESH_MS;
  const budget = options.workBudget ?? DEFAULT_WORK_BUDGET;
  // The same list read again gives the same index, so that what screening verified against it still holds.
  let troRead: { text: string; index: TroIndex } | undefined;
  const tro = refreshing(async () => {
    const brands = await stores.tro.all();
    const text = JSON.stringify(brands);
    if (troRead?.text !== text) troRead = { text, index: new TroIndex(brands) };
    return troRead.index;
  }, every);
  const dataAsOf = refreshing(async () => (await stores.batches.latestComplete('US', 'marks'))?.dataAsOf ?? '', every);
  const filters = {
    US: refreshing(() => stores.keyFilters.load('US'), every),
    CN: refreshing(() => stores.keyFilters.load('CN'), every),
  };
  const screener = new TitleScreener(
    { marks: stores.marks, tro, keyFilter: (market) => filters[market]() },
    { cacheTtlMs: every, everyRun: options.everyRun, ...(options.model ? { model: options.model } : {}) },
  );
  return {
    screener,
    checkWork: (items) => checkScreeningWork(items, budget),
    async screen(items, options) {
      const allowlist = allowlistKeys(options.allowlist ?? []);
      const asOf = dataAsOf();
      asOf.catch(() => undefined);
      const results: ScreeningResult[] = [];
      for (const slice of slicesByWork(items, UNITS_PER_SLICE)) {
        if (options.signal?.aborted) throw new WorkAbortedError('screening');
        results.push(...(await screener.screen(slice, { detail: options.detail, allowlist })));
        await yieldToEventLoop();
      }
      return { results, dataAsOf: await asOf };
    },
  };
}
