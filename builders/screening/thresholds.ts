/**
 * The 中 and 高 thresholds of the brand-use model, chosen on validation titles with their brand taken out: the lowest
 * probability at which at most a given share of them carry a conflict the labels call no brand use (the most recall
 * that budget of false alarms buys).
 *
 * Taken once, such a threshold is one order statistic of about 1,100 titles (the 6th worst false alarm for 高): a
 * retrain that changed little moved it by 0.05, and so did one brand more or less. So it is averaged over validation
 * sets drawn again by brand with replacement (THRESHOLD_DRAWS draws, fixed seed). The median of the draws is an order
 * statistic too (it jumped from 0.80 to 0.85 with the seed); their mean moved by 0.002.
 */
import { seededRandom } from '../synthetic-uspto/random';

/** One validation title's matches, scored: the labels' verdict and whether the mark is named as what the item fits. */
export interface ScoredTitle {
  /** The brand group the title belongs to (all its titles are drawn together). */
  group: string;
  scored: readonly { p: number; label: number; nominative: boolean }[];
}

export const THRESHOLD_DRAWS = 501;
export const THRESHOLD_SEED = 20261126;

/** The lowest threshold at which at most `rate` of the titles' worst false alarms (`worst`) reach it. */
export function thresholdOf(worst: readonly number[], rate: number): number {
  const sorted = [...worst].sort((a, b) => b - a);
  const cut = sorted[Math.floor(rate * worst.length)] ?? 0;
  return Math.min(0.99, Math.max(0.05, cut + 1e-6));
}

/**
 * thresholdOf, averaged over validation sets drawn again by brand group. `high`: nominative uses ("case for
 * iPhone") are left out of the false alarms, since 高 is not for them.
 */
export function thresholdFor(titles: readonly ScoredTitle[], rate: number, high: boolean): number {
  const byGroup = new Map<string, number[]>();
  for (const { group, scored } of titles) {
    const worst = Math.max(0, ...scored.filter((e) => e.label === 0 && !(high && e.nominative)).map((e) => e.p));
    byGroup.set(group, [...(byGroup.get(group) ?? []), worst]);
  }
  const groups = [...byGroup.keys()].sort().map((g) => byGroup.get(g)!);
  const random = seededRandom(THRESHOLD_SEED);
  let sum = 0;
  for (let d = 0; d < THRESHOLD_DRAWS; d++) {
    const sample: number[] = [];
    for (let k = 0; k < groups.length; k++) sample.push(...groups[Math.floor(random() * groups.length)]!);
    sum += thresholdOf(sample, rate);
  }
  return sum / THRESHOLD_DRAWS;
}
