/**
 * Adds titles and logos to an account's watched catalogue.
 * Input: the account, titles ({id, title, nice?}) and logos ({id, image_url}).
 * Output: each title's result as screened now, and the data date.
 *   1. Screen the titles (with the account's allowlist) in slices of a batch-screen call's size.
 *   2. Store every item with its result; an id already watched is replaced.
 */
import type { ScreeningService } from '../screening/screening-service';
import type { WatchStore } from '../ports';
import { type WatchItem, watchResultOf } from './watch';

export const SCREEN_SLICE = 1000;

export interface AddToWatchInput {
  items: { id: string; title: string; nice?: string }[];
  logos: { id: string; image_url: string }[];
}

export interface AddToWatchOutput {
  results: { id: string; risk: string; tro_hit: boolean; top_conflict: string }[];
  titles: number;
  logos: number;
  data_as_of: string;
}

export async function addToWatch(
  deps: { store: WatchStore; screening: ScreeningService },
  accountId: string,
  input: AddToWatchInput,
  options: { allowlist?: readonly string[]; now: Date; signal?: AbortSignal },
): Promise<AddToWatchOutput> {
  const addedAt = options.now.toISOString();
  const items: WatchItem[] = [];
  const results: AddToWatchOutput['results'] = [];
  let dataAsOf = '';
  for (let start = 0; start < input.items.length; start += SCREEN_SLICE) {
    const slice = input.items.slice(start, start + SCREEN_SLICE);
    const screened = await deps.screening.screen(
      slice.map((i) => ({ title: i.title, ...(i.nice !== undefined ? { nice: i.nice } : {}) })),
      { signal: options.signal, ...(options.allowlist?.length ? { allowlist: options.allowlist } : {}) },
    );
    dataAsOf = screened.dataAsOf;
    screened.results.forEach((result, i) => {
      const given = slice[i]!;
      items.push({
        accountId,
        itemId: given.id,
        kind: 'title',
        title: given.title,
        ...(given.nice !== undefined ? { nice: given.nice } : {}),
        result: watchResultOf(result, screened.dataAsOf),
        addedAt,
        screenedAt: addedAt,
      });
      results.push({ id: given.id, risk: result.risk, tro_hit: result.tro_hit, top_conflict: result.top_conflict });
    });
  }
  for (const logo of input.logos) {
    items.push({ accountId, itemId: logo.id, kind: 'logo', imageUrl: logo.image_url, addedAt });
  }
  await deps.store.putItems(items);
  return { results, titles: input.items.length, logos: input.logos.length, data_as_of: dataAsOf };
}
