/**
 * How common a word is as a plain word in listing titles (data/screening/title-word-frequencies.json, built by
 * builders/build-title-frequencies.ts): one of the brand-use model's measures of distinctiveness.
 */
import frequencies from '../../data/screening/title-word-frequencies.json';

const COUNTS: ReadonlyMap<string, number> = (() => {
  const map = new Map<string, number>();
  for (const entry of (frequencies as { counts: string }).counts.split(' ')) {
    const colon = entry.lastIndexOf(':');
    if (colon > 0) map.set(entry.slice(0, colon), Number(entry.slice(colon + 1)));
  }
  return map;
})();

/** In how many titles of the table the (normalised) word stands as a plain word; 0 when never. */
export function plainWordCount(word: string): number {
  return COUNTS.get(word) ?? 0;
}
