/**
 * An abbreviation the title spells out beside it: "power over ethernet poe switch", "PoE (Power over Ethernet)",
 * "liquid crystal display LCD monitor". The letters are the term's initials, so the title names the term, not a
 * brand of the same letters (POE, TPU and the like are somebody's marks). Read from the title alone, so it holds for
 * any term, listed or not.
 *
 * The spelled-out words must all be ordinary words (the lexicon's kinds or English words): "Hewlett Packard HP"
 * spells out a maker, not a term. A TRO brand or a known trademark word is never read as an abbreviation.
 */
import type { Candidate } from './candidates';
import type { TitleWord } from './title-words';
import { isEnglishWord } from './word-frequencies';

/**
 * Abbreviations of three to six letters: two letters are spelled out by chance too often ("GE Light Bulb"), and longer
 * ones are rarely spelled out in a title.
 */
const MIN_LETTERS = 3;
const MAX_LETTERS = 6;
const LETTERS = /^\p{L}+$/u;

function isOrdinary(word: TitleWord): boolean {
  const facts = word.facts;
  return (
    !facts.knownTrademark &&
    (facts.generic || facts.stopword || facts.descriptor || facts.trivial || isEnglishWord(word.norm))
  );
}

/**
 * Whether `letters` are the initials of consecutive words running from `from` in `step` (+1 forward, -1 backward),
 * counting the connecting words or leaving them out ("Federal Bureau of Investigation" is FBI).
 */
function initialsMatch(words: readonly TitleWord[], from: number, step: 1 | -1, letters: string): boolean {
  for (const skipStopwords of [false, true]) {
    const initials: string[] = [];
    for (let i = from; i >= 0 && i < words.length && initials.length < letters.length; i += step) {
      const word = words[i]!;
      if (word.cjk || !isOrdinary(word)) break;
      if (skipStopwords && word.facts.stopword) continue;
      initials.push(word.norm[0]!);
    }
    if (initials.length < letters.length) continue;
    const read = step === 1 ? initials.join('') : initials.reverse().join('');
    if (read === letters) return true;
  }
  return false;
}

/** The candidate is one word of letters that the words right before or right after it spell out. */
export function isSpelledOutAbbreviation(
  words: readonly TitleWord[],
  candidate: Candidate,
  isBrandName: (word: string) => boolean,
): boolean {
  if (candidate.end - candidate.start !== 1) return false;
  const word = words[candidate.start]!;
  const letters = word.norm;
  if (letters.length < MIN_LETTERS || letters.length > MAX_LETTERS || !LETTERS.test(letters)) return false;
  if (word.continued || word.hyphen || word.facts.knownTrademark || isBrandName(letters)) return false;
  return (
    initialsMatch(words, candidate.start - 1, -1, letters) || initialsMatch(words, candidate.start + 1, 1, letters)
  );
}
