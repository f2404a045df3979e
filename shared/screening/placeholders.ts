/**
 * A placeholder a listing feed writes where a value is missing: "Sterling Silver NA Brass NA K Ring" (no stone, no
 * purity), "Colour: null". It stands for nothing, so it is no brand use of a mark of the same letters (NA, NULL and
 * NIL are all somebody's marks). Only where a value would stand, not first in the title, where a brand stands ("NA-KD"
 * is a label; a hyphenated or joined token is never a placeholder).
 */
import type { Candidate } from './candidates';
import type { TitleWord } from './title-words';

const PLACEHOLDERS: ReadonlySet<string> = new Set(['na', 'nan', 'nil', 'null', 'undefined']);

export function isPlaceholder(words: readonly TitleWord[], candidate: Candidate): boolean {
  if (candidate.end - candidate.start !== 1 || candidate.start === 0) return false;
  const word = words[candidate.start]!;
  const before = words[candidate.start - 1]!;
  return (
    PLACEHOLDERS.has(word.norm) && !word.continued && !word.hyphen && !before.continued && !before.hyphen && !word.cjk
  );
}
