/**
 * The work a batch asks of the screener, known before any of it is done, and the slices it is done in.
 *
 * The screener's cost grows with the runs of words it looks up: up to 4 words per run in Latin text, up to 6 in
 * Chinese, where a word is often one character. So a Chinese character weighs about as much as three Latin words
 * (measured: 1,000 titles of 80 Latin words took 0.9 s, 1,000 titles of 500 Chinese characters 18 s, on one core of
 * the benchmark machine). A unit is about 11 microseconds of screening there.
 */
import { BatchTooComplexError } from '../errors';

const CJK_CHAR = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/gu;
const LATIN_WORD = /[\p{L}\p{N}]+/gu;

export const UNITS_PER_CJK_CHAR = 3;

/** The work units of one title: 3 per Chinese, Japanese or Korean character, 1 per other word. */
export function workOfTitle(title: string): number {
  const cjk = title.match(CJK_CHAR)?.length ?? 0;
  const rest = cjk ? title.replace(CJK_CHAR, ' ') : title;
  const words = rest.match(LATIN_WORD)?.length ?? 0;
  return cjk * UNITS_PER_CJK_CHAR + words + 1;
}

export function workOfBatch(items: readonly { title: string }[]): number {
  let units = 0;
  for (const item of items) units += workOfTitle(item.title);
  return units;
}

/** How many of the items, from the first, fit in `budget` units (what a client can send in one call). */
export function itemsWithin(items: readonly { title: string }[], budget: number): number {
  let units = 0;
  for (let i = 0; i < items.length; i++) {
    units += workOfTitle(items[i]!.title);
    if (units > budget) return i;
  }
  return items.length;
}

/** Consecutive slices of the items, each of at most `unitsPerSlice` units (or one item, if one item is more). */
export function slicesByWork<T extends { title: string }>(items: readonly T[], unitsPerSlice: number): T[][] {
  const slices: T[][] = [];
  let current: T[] = [];
  let units = 0;
  for (const item of items) {
    const work = workOfTitle(item.title);
    if (current.length && units + work > unitsPerSlice) {
      slices.push(current);
      current = [];
      units = 0;
    }
    current.push(item);
    units += work;
  }
  if (current.length) slices.push(current);
  return slices;
}

/** Refuses a batch over `budget` work units before anything is charged or done, saying how many items fit. */
export function checkScreeningWork(items: readonly { title: string }[], budget: number): void {
  const units = workOfBatch(items);
  if (units > budget) throw new BatchTooComplexError(budget, units, itemsWithin(items, budget));
}
