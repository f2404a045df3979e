/**
 * The screening engine with its sources kept warm for the life of a function instance: the TRO list and the key
 * filters (refreshed every 5 minutes: new data is seen within 5 minutes) and the data date (every minute), around
 * one TitleScreener and its key cache.
 *
 * Its work is bounded here, at the entry, whatever the rules inside do: `checkWork` refuses a batch over the work
 * budget before anything is charged or done, and `screen` works in slices of about 90 ms, yielding to the event
 * loop between them (so that a deadline timer can fire) and stopping at the next slice once `signal` is aborted.
 */
import { BatchTooComplexError, WorkAbortedError } from '../errors';
import type { DataBatchStore, KeyFilterStore, MarkStore, TroStore } from '../ports';
import { TitleScreener, type ScreeningItem, type ScreeningResult } from './screen-titles';
import { itemsWithin, slicesByWork, workOfBatch } from './screening-work';
import { TroIndex } from './tro-index';

export interface ScreeningService {
  /** Throws BatchTooComplexError when the batch is over the work budget. */
  checkWork(items: readonly ScreeningItem[]): void;
  screen(items: readonly ScreeningItem[], options: { detail?: boolean; signal?: AbortSignal }): Promise<{ results: ScreeningResult[]; dataAsOf: string }>;
}

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
  options: { workBudget?: number } = {},
): ScreeningService & { screener: TitleScreener } {
  const budget = options.workBudget ?? DEFAULT_WORK_BUDGET;
  const tro = refreshing(async () => new TroIndex(await stores.tro.all()), 5 * 60_000);
  const dataAsOf = refreshing(async () => (await stores.batches.latestComplete('US', 'marks'))?.dataAsOf ?? '', 60_000);
  const filters = { US: refreshing(() => stores.keyFilters.load('US'), 5 * 60_000), CN: refreshing(() => stores.keyFilters.load('CN'), 5 * 60_000) };
  const screener = new TitleScreener({ marks: stores.marks, tro, keyFilter: (market) => filters[market]() });
  return {
    screener,
    checkWork(items) {
      const units = workOfBatch(items);
      if (units > budget) throw new BatchTooComplexError(budget, units, itemsWithin(items, budget));
    },
    async screen(items, options) {
      const asOf = dataAsOf();
      asOf.catch(() => undefined);
      const results: ScreeningResult[] = [];
      for (const slice of slicesByWork(items, UNITS_PER_SLICE)) {
        if (options.signal?.aborted) throw new WorkAbortedError('screening');
        results.push(...(await screener.screen(slice, { detail: options.detail })));
        await yieldToEventLoop();
      }
      return { results, dataAsOf: await asOf };
    },
  };
}
