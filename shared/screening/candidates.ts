/**
 * Candidate brand uses in a title: runs of consecutive words (up to 4 Latin words, up to 6 CJK words, since
 * segmentation often cuts a Chinese brand into single characters), each with the lookup keys that could find a
 * mark for it. Runs that begin or end with a connecting word ("for", "with", "and" ...) are skipped: no mark is
 * filed that way, and they would only cost lookups.
 */
import { phoneticSkeleton } from '../marks/lookup-keys';
import { isStopword } from './lexicon';
import type { TitleWord } from './title-words';

export const MAX_LATIN_WORDS = 4;
export const MAX_CJK_WORDS = 6;

export interface Candidate {
  /** Index of the first and one past the last word. */
  start: number;
  end: number;
  joined: string;
  cjk: boolean;
  exactKey: string;
  phoneticKey?: string;
}

const skeletonCache = new Map<string, string | undefined>();

function cachedSkeleton(text: string): string | undefined {
  let skeleton = skeletonCache.get(text);
  if (skeleton === undefined && !skeletonCache.has(text)) {
    skeleton = phoneticSkeleton(text);
    if (skeletonCache.size > 200_000) skeletonCache.clear();
    skeletonCache.set(text, skeleton);
  }
  return skeleton;
}

export function candidatesOf(words: readonly TitleWord[]): Candidate[] {
  const out: Candidate[] = [];
  for (let start = 0; start < words.length; start++) {
    const first = words[start]!;
    if (!first.cjk && isStopword(first.norm)) continue;
    const limit = first.cjk ? MAX_CJK_WORDS : MAX_LATIN_WORDS;
    let text = '';
    for (let end = start + 1; end <= Math.min(words.length, start + limit); end++) {
      const last = words[end - 1]!;
      if (last.cjk !== first.cjk) break;
      text += last.norm;
      if (!last.cjk && isStopword(last.norm)) continue;
      const single = end - start === 1;
      // A lone number or letter is no brand use worth a lookup ("15", "x").
      if (single && !first.cjk && (text.length < 2 || /^\d+$/.test(text))) continue;
      // Words carry no spaces, so the run's text is already its joined form.
      const joined = text;
      // Misspellings are looked for in runs of one or two words: longer marks are rarely misspelt into a match.
      const skeleton = first.cjk || end - start > 2 ? undefined : cachedSkeleton(joined);
      out.push({ start, end, joined, cjk: first.cjk, exactKey: `e:${joined}`, ...(skeleton ? { phoneticKey: `p:${skeleton}` } : {}) });
    }
  }
  return out;
}
