/**
 * A term of ordinary language written as one word, its words told apart by their capitals: "Strawberry LipBalm 4g",
 * "Kids HairClip Set", "Stainless Steel WaterBottle". Sellers write goods' names so, and in a register of real
 * size the same words are somebody's mark (LIP BALM, WATER BOTTLE: most pairs of common words are registered for
 * something). The title's one word matches the mark's words run together, and the model, which reads a word of
 * several capitalised parts as a coined name (as "PlayStation" and "AirPods" are), rated these brand uses at 0.99.
 * Where the mark's own words make a term that WordNet or the product taxonomy knows (isCommonPhrase: "lip balm",
 * "hair clip", "water bottle"; not "air pods", "play station"), the word is that term and no use of the mark. A word
 * written as one without such capitals ("Nutcase" for NUT CASE, "lipbalm") is read by the model as words are; a mark
 * registered as one word (FACETIME, POWERPOINT) is a name its owner chose to write as one, and is left to the model;
 * so are a mark the register shows as strong and a TRO brand's, whose owners' filings say the words are a name, and
 * the title's first word, where its brand stands: "CoffeeBean Regular Fit Baby Girl's Pink Trousers" names a label
 * by the words of COFFEE BEAN, and reading it as the term lost that brand on the 1,000,000-mark corpus.
 */
import { normalizeText } from '../marks/lookup-keys';
import type { Candidate } from './candidates';
import { isStrongMark } from './mark-strength';
import type { RunMatch } from './run-matches';
import type { TitleWord } from './title-words';
import { isCommonPhrase } from './word-frequencies';

const LETTERS = /^\p{L}+$/u;
/** A capital straight after a small letter: words run together and told apart by their capitals. */
const CAMEL_CASE = /\p{Ll}\p{Lu}/u;
const termOfMark = new Map<string, boolean>();

/** The mark's text is two words or more of letters that make a term of ordinary language ("LIP BALM"). */
function isTermMark(mark: string): boolean {
  let answer = termOfMark.get(mark);
  if (answer === undefined) {
    const words = normalizeText(mark).split(' ');
    answer = words.length >= 2 && words.every((word) => LETTERS.test(word)) && isCommonPhrase(words.join(' '));
    if (termOfMark.size > 100_000) termOfMark.clear();
    termOfMark.set(mark, answer);
  }
  return answer;
}

/**
 * The match reads one word of the title as a mark of several words that make a term ("LipBalm" as LIP BALM), and
 * the mark is neither a TRO brand's nor strong: no use of the mark.
 */
export function isGluedTerm(words: readonly TitleWord[], candidate: Candidate, match: RunMatch): boolean {
  // The title's first word is where its brand stands ("CoffeeBean Baby Girl's Trousers"): left to the model.
  if (match.kind !== 'exact' || match.tro || candidate.start === 0 || candidate.end - candidate.start !== 1)
    return false;
  const word = words[candidate.start]!;
  if (word.continued || word.hyphen || word.cjk || words[candidate.start - 1]?.continued) return false;
  // The seller's own capitals show the words ("LipBalm"); a word written as one ("Nutcase" for NUT CASE, "lipbalm")
  // is read as words are, by the model.
  return CAMEL_CASE.test(word.text) && isTermMark(match.mark) && !isStrongMark(match);
}
