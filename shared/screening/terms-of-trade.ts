/**
 * A word of a title that sellers write as a term of trade, not as anybody's name, though in a register of real size
 * somebody has registered it (most words and pairs of common words are registered for something). Two forms:
 *
 * - **A term run together and told apart by its capitals**: "Strawberry LipBalm 4g", "Kids HairClip Set",
 *   "Stainless Steel WaterBottle". The title's one word matches the mark's words run together (LIP BALM, WATER
 *   BOTTLE), and the model, which reads a word of several capitalised parts as a coined name (as "PlayStation" and
 *   "AirPods" are), rated these brand uses at 0.99. Where the mark's own words make a term that WordNet or the
 *   product taxonomy knows (isCommonPhrase: "lip balm", "hair clip"; not "air pods", "play station"), the word is
 *   that term. A word written as one without such capitals ("Nutcase" for NUT CASE) is read by the model as words
 *   are; a mark registered as one word (FACETIME, POWERPOINT) is a name its owner chose to write as one.
 * - **A clipped material or finish**: "acid-free poly folder" (polyester, polypropylene), "PAN CGA-S008 Digi
 *   Camcorder Battery" (digital). The mark is the one word, which is no English word and no product word, and it is
 *   the first four letters or more of a word the lexicon lists as a material, colour, pattern or finish, at least
 *   three letters longer. Of the 2,393 one-word names of the Amazon brand list, one is such a clipping (Everlast);
 *   of the 2,597 brands labelled in the title sets, one (Gran).
 * - **An abbreviation of the trade**: "Official OEM USB Charger", "SanDisk 32 GB micro SD Memory Card", "bulk oem
 *   hard drive". The mark is the one word, and the word is one the product taxonomy writes for a kind, format or
 *   standard of goods (data/screening/trade-abbreviations.json, builders/build-trade-abbreviations.ts: makers'
 *   lines, emblems, ratings, brand-list names and English words left out).
 *
 * Either way the word is read so only past the title's first word, where its brand stands ("CoffeeBean Regular Fit
 * Baby Girl's Pink Trousers" names a label by the words of COFFEE BEAN, and reading it as the term lost that brand
 * on the 1,000,000-mark corpus; "Poly Voyager 4320 headset" names its maker), nor a clipping or abbreviation straight
 * after "by" or "from" ("Solid Cotton Kurta by SD" names its maker), and never for a mark the register shows
 * as strong or a TRO brand's, whose owners' filings say the word is a name. These are rules after the model: the
 * examples it was fitted on are unchanged.
 */
import lexiconData from '../../data/lexicon/lexicon.json';
import tradeAbbreviationData from '../../data/screening/trade-abbreviations.json';
import { normalizeText } from '../marks/lookup-keys';
import type { Candidate } from './candidates';
import { isGenericWord } from './lexicon';
import { isStrongMark } from './mark-strength';
import type { RunMatch } from './run-matches';
import type { TitleWord } from './title-words';
import { isCommonPhrase, isEnglishWord } from './word-frequencies';

const LETTERS = /^\p{L}+$/u;
const LOWER_LETTERS = /^[a-z]+$/;
/** A capital straight after a small letter: words run together and told apart by their capitals. */
const CAMEL_CASE = /\p{Ll}\p{Lu}/u;
/** The fewest letters a clipping keeps, and the fewest it drops. */
const CLIPPING_KEEPS = 4;
const CLIPPING_DROPS = 3;

/** Words before a run that name its maker ("by SD", "from Digi"). */
const MAKER_CUES: ReadonlySet<string> = new Set(['by', 'from']);

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

const TRADE_ABBREVIATIONS: ReadonlySet<string> = new Set(tradeAbbreviationData.words.split(' '));

/** "oem", "sd", "ptfe": an abbreviation the trade writes for a kind, format or standard of goods (normalised). */
export function isTradeAbbreviation(word: string): boolean {
  return TRADE_ABBREVIATIONS.has(word);
}

let clippings: ReadonlySet<string> | undefined;

/**
 * Every beginning of CLIPPING_KEEPS letters or more of a lexicon descriptor that leaves CLIPPING_DROPS letters or
 * more out ("poly" of "polyester", "digi" of "digital"). The lexicon writes each material's "-en" adjective beside
 * it ("wooden"); those of a word already listed add nothing and are passed over. Built on first use (about 40,000
 * beginnings of 9,826 descriptors).
 */
function clippingsOfDescriptors(): ReadonlySet<string> {
  if (clippings) return clippings;
  const descriptors = new Set((lexiconData as { descriptors: string }).descriptors.split(' '));
  const out = new Set<string>();
  for (const word of descriptors) {
    if (!LOWER_LETTERS.test(word) || (word.endsWith('en') && descriptors.has(word.slice(0, -2)))) continue;
    for (let end = CLIPPING_KEEPS; end <= word.length - CLIPPING_DROPS; end++) out.add(word.slice(0, end));
  }
  clippings = out;
  return out;
}

/** "poly", "digi": a word that is only the clipped start of a material or finish (see the file's comment). */
export function isClippedDescriptor(word: string): boolean {
  return LOWER_LETTERS.test(word) && clippingsOfDescriptors().has(word) && !isEnglishWord(word) && !isGenericWord(word);
}

/**
 * The match reads one word of the title, past its first, as a term of trade (the file's comment): a term run
 * together ("LipBalm" as LIP BALM), a clipped material ("poly" as POLY) or an abbreviation of the trade ("OEM"), of
 * a mark that is neither a TRO brand's nor strong: no use of the mark.
 */
export function isTermOfTrade(words: readonly TitleWord[], candidate: Candidate, match: RunMatch): boolean {
  // The title's first word is where its brand stands ("CoffeeBean Baby Girl's Trousers"): left to the model.
  if (match.kind !== 'exact' || match.tro || candidate.start === 0 || candidate.end - candidate.start !== 1)
    return false;
  const word = words[candidate.start]!;
  if (word.continued || word.hyphen || word.cjk || words[candidate.start - 1]?.continued) return false;
  // The seller's own capitals show the words ("LipBalm"); a word written as one ("Nutcase" for NUT CASE, "lipbalm")
  // is read as words are, by the model.
  if (CAMEL_CASE.test(word.text)) return isTermMark(match.mark) && !isStrongMark(match);
  // A word the seller names as the maker ("Solid Cotton Kurta by SD") is a name, whatever else it abbreviates.
  if (MAKER_CUES.has(words[candidate.start - 1]!.norm)) return false;
  return (isClippedDescriptor(word.norm) || isTradeAbbreviation(word.norm)) && !isStrongMark(match);
}
