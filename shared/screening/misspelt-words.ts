/**
 * A misspelling of an ordinary word is that word, not a brand. When the register holds a mark of plain language
 * (SUMPTUOUS, COLORFUL, HEARTH, STATUS QUO: every word an English dictionary word, or the words a term of ordinary
 * language), a title word a letter or two away from it ("Sumptous Sparkle ... Ring", "Colourfull Stylish Necklace",
 * "Hearty ... Ring", "Statusque ... Ring") is the seller's spelling of an ordinary word, or another ordinary word:
 * the seller meant the word, and nobody can own a word's misspellings for what the word already says. Only an exact
 * match of such a mark can be a use of it.
 *
 * A misspelling still counts for a name that is no plain language (NIKEE for NIKE, STANLY for STANLEY), for a brand
 * that files TRO suits (the misspellings that evade a famous name are what those suits are about), and for a mark
 * the register shows as strong (its owner's portfolio across classes, mark-strength.ts).
 */
import { normalizeText } from '../marks/lookup-keys';
import { isStrongMark } from './mark-strength';
import type { RunMatch } from './run-matches';
import { isCommonPhrase, isEnglishWord } from './word-frequencies';

/** Marks already read, by their text: a title batch meets the same ordinary-word marks again and again. */
const plainLanguage = new Map<string, boolean>();
const REMEMBERED_MARKS = 50_000;

/** Every word of the mark is an English word, or its words make a term of ordinary language. */
export function isPlainLanguageMark(mark: string): boolean {
  let plain = plainLanguage.get(mark);
  if (plain === undefined) {
    const words = normalizeText(mark).split(' ').filter(Boolean);
    plain = words.length > 0 && (words.every(isEnglishWord) || (words.length > 1 && isCommonPhrase(words.join(' '))));
    if (plainLanguage.size >= REMEMBERED_MARKS) plainLanguage.clear();
    plainLanguage.set(mark, plain);
  }
  return plain;
}

/**
 * The answer for each fuzzy match, kept as long as the match is: a run's matches are judged again in every title
 * and batch that has the run, and at register scale a batch meets more mark texts than `plainLanguage` keeps.
 */
const misspelt = new WeakMap<RunMatch, boolean>();

/** A misspelt (fuzzy) match of a plain-language mark that is neither a TRO brand nor strong: no use of the mark. */
export function isMisspeltOrdinaryWord(match: RunMatch): boolean {
  if (match.kind !== 'fuzzy') return false;
  let answer = misspelt.get(match);
  if (answer === undefined) {
    answer = !match.tro && !isStrongMark(match) && isPlainLanguageMark(match.mark);
    misspelt.set(match, answer);
  }
  return answer;
}
