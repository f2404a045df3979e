/**
 * In how many titles each word stands as a plain word: anywhere but first (where makers' names stand) and not
 * introduced by a nominative cue ("for the Amazon Kindle": there it names what the item fits, and a brand named
 * often would pass for a common word). builders/build-title-frequencies.ts writes it for every labelled title; the
 * check across marketplaces counts without the held-out set (train-screening-model.ts, eval-screen.ts).
 */
import { nominativeCueOfNormalised } from '../../shared/screening/lexicon';
import { wordsOfTitle } from '../../shared/screening/title-words';

export function countPlainWords(titles: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const title of titles) {
    const seen = new Set<string>();
    const words = wordsOfTitle(title);
    const norms = words.map((word) => word.norm);
    words.forEach((word, i) => {
      if (i > 0 && !word.cjk && !/^\d+$/.test(word.norm) && nominativeCueOfNormalised(norms, i) === undefined)
        seen.add(word.norm);
    });
    for (const word of seen) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return counts;
}
