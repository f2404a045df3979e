/**
 * The brand-use model's measures of distinctiveness: how common a word is as a plain word in listing titles
 * (data/screening/title-word-frequencies.json, built by builders/build-title-frequencies.ts), and whether it is an
 * English dictionary word (data/screening/english-words.json).
 */
import commonPhrases from '../../data/screening/common-phrases.json';
import describingWords from '../../data/screening/describing-words.json';
import englishWords from '../../data/screening/english-words.json';
import frequencies from '../../data/screening/title-word-frequencies.json';
import { KeyFilter } from '../marks/key-filter';

let counts: ReadonlyMap<string, number> = (() => {
  const map = new Map<string, number>();
  for (const entry of (frequencies as { counts: string }).counts.split(' ')) {
    const colon = entry.lastIndexOf(':');
    if (colon > 0) map.set(entry.slice(0, colon), Number(entry.slice(colon + 1)));
  }
  return map;
})();

let leftOut: ReadonlyMap<string, number> | undefined;

/** In how many titles of the table the (normalised) word stands as a plain word; 0 when never. */
export function plainWordCount(word: string): number {
  const count = counts.get(word) ?? 0;
  return leftOut === undefined ? count : Math.max(0, count - (leftOut.get(word) ?? 0));
}

/**
 * Reads another table of plain-word counts from now on, for the check across marketplaces, whose model must not
 * see the held-out set's titles even as counts (builders/screening/plain-word-counts.ts). Not for the service.
 */
export function usePlainWordCounts(table: ReadonlyMap<string, number>): void {
  counts = table;
  leftOut = undefined;
  known.clear();
}

/**
 * Takes some titles' counts out of the table until called again (undefined: none): training and evaluation screen
 * each brand's titles as the service screens a brand it never saw, without that brand's own titles in the counts
 * (builders/screening/screening-dataset.ts screenByBrandGroup). Not for the service.
 */
export function leavePlainWordsOut(table: ReadonlyMap<string, number> | undefined): void {
  if (table === leftOut) return;
  leftOut = table;
  known.clear();
}

const ENGLISH_WORDS: KeyFilter = (() => {
  const data = englishWords as { words: number; filter: string };
  return KeyFilter.fromBytes(Buffer.from(data.filter, 'base64'), data.words);
})();

/**
 * Whether a (normalised) word is an English dictionary word (data/screening/english-words.json, built by
 * builders/build-english-words.ts from the wamerican word list; a Bloom filter: about 0.06% of other words say yes).
 */
export function isEnglishWord(word: string): boolean {
  return word.length >= 3 && ENGLISH_WORDS.mightContain(word);
}

const DESCRIBING_WORDS: KeyFilter = (() => {
  const data = describingWords as { words: number; filter: string };
  return KeyFilter.fromBytes(Buffer.from(data.filter, 'base64'), data.words);
})();

/**
 * Whether a (normalised) word is mainly an adjective in WordNet ("royal", "stylish", "golden"):
 * data/screening/describing-words.json, built by builders/build-describing-words.ts (a Bloom filter).
 */
export function isDescribingWord(word: string): boolean {
  return word.length >= 3 && DESCRIBING_WORDS.mightContain(word);
}

const COMMON_PHRASES: KeyFilter = (() => {
  const data = commonPhrases as { phrases: number; filter: string };
  return KeyFilter.fromBytes(Buffer.from(data.filter, 'base64'), data.phrases);
})();

/**
 * Whether (normalised) words, space-joined, are a two- or three-word term of ordinary language or trade ("surge
 * protector", "pci express", "omega 3"): data/screening/common-phrases.json, built by
 * builders/build-common-phrases.ts from WordNet, the Nice goods and the Shopify taxonomy (a Bloom filter: about 2
 * in 10,000 other runs say yes).
 */
export function isCommonPhrase(words: string): boolean {
  return COMMON_PHRASES.mightContain(words);
}

export interface Distinctiveness {
  /** plainWordCount */
  readonly count: number;
  /** isEnglishWord */
  readonly english: boolean;
}

const known = new Map<string, Distinctiveness>();

/** Both measures of a word, worked out once per word (bounded: a flood of random tokens starts afresh). */
export function distinctivenessOf(word: string): Distinctiveness {
  let value = known.get(word);
  if (value === undefined) {
    value = Object.freeze({ count: plainWordCount(word), english: isEnglishWord(word) });
    if (known.size >= 200_000) known.clear();
    known.set(word, value);
  }
  return value;
}
