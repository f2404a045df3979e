/**
 * In how many titles each word stands as a plain word: anywhere but first (where makers' names stand) and not
 * introduced by a nominative cue ("for the Amazon Kindle": there it names what the item fits, and a brand named
 * often would pass for a common word). builders/build-title-frequencies.ts writes it for every labelled title; the
 * check across marketplaces counts without the held-out set (train-screening-model.ts, eval-screen.ts).
 *
 * Training and evaluation screen each brand's titles with that brand's own titles left out of the counts
 * (screenByBrandGroup), as the service meets a brand whose titles it never counted: otherwise the word left first
 * in a title whose brand was taken out ("Helix Lattice Gold Ring") is counted from that very title, never reads
 * as unseen, and a false alarm on a rare word goes uncounted.
 */
import { nominativeCueOfNormalised } from '../../shared/screening/lexicon';
import { wordsOfTitle } from '../../shared/screening/title-words';
import { leavePlainWordsOut, usePlainWordCounts } from '../../shared/screening/word-frequencies';
import { type LabelledTitle, labelledTitles } from './labelled-titles';

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

/** Each brand group's own counts, within the table in use (countPlainWordsOf). */
let countsByGroup: Map<string, Map<string, number>> | undefined;

/** The screening engine reads the plain-word counts of these titles from now on, each brand group's kept apart. */
export function countPlainWordsOf(titles: readonly LabelledTitle[]): void {
  const byGroup = new Map<string, string[]>();
  for (const t of titles) {
    if (!t.group) continue;
    const list = byGroup.get(t.group);
    if (list) list.push(t.title);
    else byGroup.set(t.group, [t.title]);
  }
  usePlainWordCounts(countPlainWords(titles.map((t) => t.title)));
  countsByGroup = new Map([...byGroup].map(([group, list]) => [group, countPlainWords(list)]));
}

/**
 * `screen` over the titles a brand group at a time, that group's own titles left out of the plain-word counts (the
 * counts of every labelled title unless countPlainWordsOf chose others); the results in the titles' order.
 */
export async function screenByBrandGroup<T extends { group?: string }, R>(
  titles: readonly T[],
  screen: (chunk: readonly T[]) => Promise<readonly R[]>,
): Promise<R[]> {
  if (countsByGroup === undefined) countPlainWordsOf(labelledTitles());
  const at = new Map<string | undefined, number[]>();
  titles.forEach((t, i) => {
    const indexes = at.get(t.group);
    if (indexes) indexes.push(i);
    else at.set(t.group, [i]);
  });
  const out = new Array<R>(titles.length);
  try {
    for (const [group, indexes] of at) {
      leavePlainWordsOut(group === undefined ? undefined : countsByGroup!.get(group));
      for (let from = 0; from < indexes.length; from += 1000) {
        const chunk = indexes.slice(from, from + 1000);
        const results = await screen(chunk.map((i) => titles[i]!));
        chunk.forEach((i, k) => {
          out[i] = results[k]!;
        });
      }
    }
  } finally {
    leavePlainWordsOut(undefined);
  }
  return out;
}
