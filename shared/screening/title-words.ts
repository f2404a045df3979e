/**
 * A title as words: Latin words normalised as lookup keys are (shared/marks/lookup-keys), split where letters
 * meet digits ("iPhone15" -> iphone, 15), and CJK runs segmented into words with Intl.Segmenter. Each word keeps
 * what the seller wrote, for the answer and for the capitalisation that tells "Apple iPhone" from "apple slicer",
 * and what the lexicon says about it.
 *
 * The same tokens come up in title after title ("for", "Black", "iPhone"), so each distinct token is split,
 * normalised, segmented and looked up in the lexicon once, and its words are shared (they are frozen).
 */
import { BIDI_CONTROL, INVISIBLE, displaySegments, hasCjk, normalizeText } from '../marks/lookup-keys';
import { foldLookAlikes } from './evasion';
import { factsOfNormalised, isNominativeCueAfter, unitFactsOfNormalised, type WordFacts } from './lexicon';

export interface TitleWord {
  /** As written (after NFKC). */
  readonly text: string;
  /** Normalised: lower-case, accents off. */
  readonly norm: string;
  /** A number for `norm`: words with the same normalised form have the same id, words without different ids. */
  readonly id: number;
  readonly cjk: boolean;
  /** Written with a capital first letter (or all capitals) in a title that is not all capitals. */
  readonly capitalised: boolean;
  /** What the lexicon says about `norm`. */
  readonly facts: WordFacts;
  /**
   * The part of a token written with letters and digits run together ("3D", "E3", "iPhone12") that has another part
   * after it: the token's parts are words of their own, and this says where the token ends.
   */
  readonly continued: boolean;
  /** Followed, with no space, by "&" and another word ("Lock&Lock", "H&M"): the two are written as one name. */
  readonly ampersand: boolean;
  /** Followed, with no space, by "-" and another word ("T-Shirt", "Post-it", "55-250mm"). */
  readonly hyphen: boolean;
  /**
   * Written with letters that look Latin ("Nikе" with a Cyrillic е, "Nıke" with a dotless ı), read as the Latin
   * word; or written backwards inside a right-to-left override ("\u202EekiN"), read as shown ("Nike").
   */
  readonly lookAlike: boolean;
}

const RAW_WORDS = /[\p{L}\p{N}\p{M}'’]+/gu;
/** A character a word can end with (see RAW_WORDS). */
const RAW_WORDS_END = /[\p{L}\p{N}\p{M}]/u;
const LETTER_DIGIT_BOUNDARY = /(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u;
const MARK_SYMBOLS = /[™®©℠℗]/g;
/** Plain ASCII needs none of the Unicode clean-up below: the same words come out. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

/** A token's words, in two forms: as they read in an all-capitals title (never capitalised) and in any other. */
interface TokenWords {
  inShoutingTitle: readonly TitleWord[];
  inOtherTitle: readonly TitleWord[];
}

const tokens = new Map<string, TokenWords>();
const MAX_TOKENS = 200_000;

/**
 * The ids of normalised forms. Ids are never given twice: when the map is cleared (it is bounded), a form seen again
 * gets a new id, so what was filed under an old id is just no longer found.
 */
const ids = new Map<string, number>();
const MAX_IDS = 400_000;
let lastId = 0;

function idOf(norm: string): number {
  let id = ids.get(norm);
  if (id === undefined) {
    if (ids.size >= MAX_IDS) ids.clear();
    id = ++lastId;
    ids.set(norm, id);
  }
  return id;
}

function wordOf(
  text: string,
  norm: string,
  cjk: boolean,
  capitalised: boolean,
  continued = false,
  lookAlike = false,
): TitleWord {
  return Object.freeze({
    text,
    norm,
    id: idOf(norm),
    cjk,
    capitalised,
    facts: factsOfNormalised(norm),
    continued,
    ampersand: false,
    hyphen: false,
    lookAlike,
  });
}

function splitToken(written: string): TokenWords {
  const folded = foldLookAlikes(written);
  const lookAlike = folded !== undefined;
  const token = folded ?? written;
  const inShoutingTitle: TitleWord[] = [];
  const inOtherTitle: TitleWord[] = [];
  const parts = token.split(LETTER_DIGIT_BOUNDARY);
  for (const [index, part] of parts.entries()) {
    if (hasCjk(part)) {
      for (const segment of segmenter.segment(part)) {
        if (!segment.isWordLike) continue;
        const norm = normalizeText(segment.segment);
        if (!norm) continue;
        const word = wordOf(segment.segment, norm, hasCjk(norm), false);
        inShoutingTitle.push(word);
        inOtherTitle.push(word);
      }
      continue;
    }
    const norm = normalizeText(part).replace(/ /g, '');
    if (!norm) continue;
    const first = part[0] ?? '';
    const continued = index < parts.length - 1;
    const plain = wordOf(part, norm, false, false, continued, lookAlike);
    inShoutingTitle.push(plain);
    inOtherTitle.push(first !== first.toLowerCase() ? wordOf(part, norm, false, true, continued, lookAlike) : plain);
  }
  return { inShoutingTitle, inOtherTitle };
}

function wordsOfToken(token: string): TokenWords {
  let words = tokens.get(token);
  if (words === undefined) {
    words = splitToken(token);
    if (tokens.size >= MAX_TOKENS) tokens.clear();
    tokens.set(token, words);
  }
  return words;
}

/** Invisible characters out, mark symbols out before NFKC, which would turn ™ into the letters TM. */
function cleaned(text: string): string {
  return text.replace(INVISIBLE, '').replace(MARK_SYMBOLS, ' ').normalize('NFKC');
}

const NOTHING_REVERSED: readonly (readonly [number, number])[] = [];

/**
 * The title cleaned, in the order a viewer shows it when it holds directional controls (lookup-keys
 * displaySegments: "\u202EekiN" shows "Nike"), and where in it (start, end) what is shown was written otherwise.
 */
function shownTitle(title: string): { text: string; reversed: readonly (readonly [number, number])[] } {
  if (PRINTABLE_ASCII.test(title)) return { text: title, reversed: NOTHING_REVERSED };
  if (!BIDI_CONTROL.test(title)) return { text: cleaned(title), reversed: NOTHING_REVERSED };
  let text = '';
  const reversed: [number, number][] = [];
  for (const segment of displaySegments(title)) {
    const part = cleaned(segment.text);
    if (segment.reversed) reversed.push([text.length, text.length + part.length]);
    text += part;
  }
  return { text, reversed };
}

export function wordsOfTitle(title: string): TitleWord[] {
  const { text, reversed } = shownTitle(title);
  const shouting = text === text.toUpperCase();
  const words: TitleWord[] = [];
  RAW_WORDS.lastIndex = 0;
  for (let match = RAW_WORDS.exec(text); match !== null; match = RAW_WORDS.exec(text)) {
    // "Lock&Lock", "T-Shirt": the word before the "&" or "-" is marked (a copy: the token's words are shared).
    const previous = words.length - 1;
    const joiner = match.index >= 2 ? text[match.index - 1] : undefined;
    const tokenWords = wordsOfToken(match[0]);
    if (
      (joiner === '&' || joiner === '-') &&
      RAW_WORDS_END.test(text[match.index - 2]!) &&
      previous >= 0 &&
      !words[previous]!.cjk &&
      !(joiner === '-' && isConditionPrefix(words[previous]!, tokenWords.inOtherTitle[0])) &&
      !(joiner === '-' && isCueSuffix(tokenWords.inOtherTitle[0]))
    ) {
      words[previous] = Object.freeze({
        ...words[previous]!,
        ...(joiner === '&' ? { ampersand: true } : { hyphen: true }),
      });
    }
    const end = match.index + match[0].length;
    // A token shown otherwise than written (reversed by an override) is an evasive spelling, as look-alikes are.
    const shownReversed = reversed.length > 0 && reversed.some(([from, to]) => from < end && to > match.index);
    for (const word of shouting ? tokenWords.inShoutingTitle : tokenWords.inOtherTitle) {
      const read = word.facts.unitAfterNumber && isQuantityBefore(words) ? readAsUnit(word) : word;
      words.push(shownReversed && !read.lookAlike ? Object.freeze({ ...read, lookAlike: true }) : read);
    }
  }
  return words;
}

/** Words that say what condition an item is in, which sellers glue to the maker's name ("new-Xerox"). */
const CONDITION_WORDS: ReadonlySet<string> = new Set([
  'new',
  'genuine',
  'original',
  'authentic',
  'refurbished',
  'used',
]);

/**
 * A condition word glued by a hyphen to a word that describes nothing ("new-Xerox", "genuine-Canon", "new-Post-it"):
 * the word after it is read as standing on its own, not as the tail of a hyphenated word. A describing word after it
 * ("new-black") keeps the hyphen.
 */
function isConditionPrefix(before: TitleWord, after: TitleWord | undefined): boolean {
  if (after === undefined || after.cjk || !CONDITION_WORDS.has(before.norm)) return false;
  return !(after.facts.descriptor || after.facts.stopword || after.facts.trivial);
}

/**
 * A nominative cue glued by a hyphen to the brand before it ("Lego-compatible", "HP-replacement"): the brand is read
 * as standing on its own, as in "Lego compatible", not as the head of a hyphenated word.
 */
function isCueSuffix(after: TitleWord | undefined): boolean {
  return after !== undefined && !after.cjk && isNominativeCueAfter(after.norm);
}

const DIGITS = /^\d+$/;

/**
 * The words so far end with a number that measures ("1.5", "75", "150" glued to "cc"), not one that counts
 * after "of" ("Pack of 2"): a unit that is also a maker's name, next, is the unit ("1.5 HP Motor", "Soap 75 gm").
 */
function isQuantityBefore(words: readonly TitleWord[]): boolean {
  const last = words[words.length - 1];
  return last !== undefined && DIGITS.test(last.norm) && words[words.length - 2]?.norm !== 'of';
}

/** A copy of the word with what the lexicon says of it as a unit (a copy: the token's words are shared). */
function readAsUnit(word: TitleWord): TitleWord {
  return Object.freeze({ ...word, facts: unitFactsOfNormalised(word.norm) });
}
