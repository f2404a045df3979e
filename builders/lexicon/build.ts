/**
 * The lexicon build: the generic, dual-use, trademark, descriptor and given-name lists and the product-word classes,
 * from the sources (sources.ts) and the hand lists (hand-lists.ts). Steps as numbered in builders/build-lexicon.ts.
 */
import { MODIFIER_SUFFIX, type LexiconData } from '../../shared/screening/lexicon';
import {
  CHINESE_GENERIC,
  CHINESE_STOPWORDS,
  COMMON_GIVEN_NAMES,
  DESCRIPTIVE_STANDARDS,
  ENGLISH_STOPWORDS,
  TITLE_DESCRIPTORS,
  TRADE_NAMES_IN_SOURCES,
  UNITS,
  UNITS_AFTER_NUMBER,
} from './hand-lists';
import { DEFAULT_SHARED_DIR } from './paths';
import { classesOfWords, modifiersOf } from './product-classes';
import { DESCRIPTOR_ATTRIBUTE_PATTERNS, EXCLUDED_ATTRIBUTES, GENERIC_ATTRIBUTE_PATTERNS } from './shopify-choices';
import { type LexiconSources, readShopifyAttributeValues, readSources } from './sources';
import { LATIN_WORD, listOf, numberForms, wordsOf, worthListing } from './word-forms';

/** productClasses: classes ("09:60 28:40") -> the words that have exactly those weights, space-separated. */
export interface LexiconFile extends LexiconData {
  about: string;
  counts: Record<string, number>;
}

/** The hand lists that every step consults, as sets. */
interface HandSets {
  stopwords: Set<string>;
  units: Set<string>;
  tradeNames: Set<string>;
}

const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const sorted = (words: Iterable<string>): string[] => [...new Set(words)].sort(byCodeUnits);

const isChosenAttribute = (attribute: string, patterns: RegExp[]): boolean =>
  !EXCLUDED_ATTRIBUTES.has(attribute) && patterns.some((pattern) => pattern.test(attribute));

/** 1. generic words, and the Shopify attributes whose values were taken. */
function genericWordsOf(
  sources: LexiconSources,
  hand: HandSets,
): { generic: Set<string>; chosenAttributes: Set<string> } {
  const generic = new Set<string>();
  // Tokens of one or two letters from the sources are abbreviations in parentheses ("Gem mint (GM)", "(PS)") that
  // are brands as often as not: only the hand lists bring short words.
  const addGeneric = (word: string): void => {
    if (!worthListing(word) || (word.length <= 2 && LATIN_WORD.test(word)) || hand.stopwords.has(word)) return;
    for (const form of numberForms(word)) generic.add(form);
  };
  for (const pathParts of sources.categories)
    for (const word of wordsOf(pathParts[pathParts.length - 1]!)) addGeneric(word);
  const chosenAttributes = new Set<string>();
  for (const { value, attribute } of sources.attributeValues) {
    if (!isChosenAttribute(attribute, GENERIC_ATTRIBUTE_PATTERNS)) continue;
    chosenAttributes.add(attribute);
    for (const word of wordsOf(value)) addGeneric(word);
  }
  for (const term of sources.niceGoods) for (const word of wordsOf(term.description)) addGeneric(word);
  for (const word of [...listOf(DESCRIPTIVE_STANDARDS), ...listOf(TITLE_DESCRIPTORS)]) {
    for (const form of numberForms(word)) generic.add(form);
  }
  for (const word of listOf(CHINESE_GENERIC)) generic.add(word);
  for (const word of hand.tradeNames) generic.delete(word);
  return { generic, chosenAttributes };
}

/**
 * 2. the dual-use words: the brand-names-that-are-words list, plus the WordNet trademarks and the single-word
 * Amazon-list brands that the sources use as words too ("fossil", "walkers", "element").
 */
function dualUseWordsOf(sources: LexiconSources, isWordOfSources: (word: string) => boolean): Set<string> {
  const dualUse = new Set(sources.dualUseTerms);
  for (const mark of sources.wordNetMarks) if (isWordOfSources(mark)) dualUse.add(mark);
  for (const brand of sources.amazonBrandWords) {
    if (brand.length >= 3 && LATIN_WORD.test(brand) && isWordOfSources(brand)) dualUse.add(brand);
  }
  return dualUse;
}

/**
 * Descriptors: colours, materials, patterns ... and the hand-listed title descriptors and standards. Kept whole (not
 * made disjoint from `generic`): the engine asks this list on its own.
 */
function descriptorsOf(sources: LexiconSources, hand: HandSets): Set<string> {
  const descriptors = new Set<string>();
  for (const { value, attribute } of sources.attributeValues) {
    if (!isChosenAttribute(attribute, DESCRIPTOR_ATTRIBUTE_PATTERNS)) continue;
    for (const word of wordsOf(value)) {
      if (!worthListing(word) || (word.length <= 2 && LATIN_WORD.test(word)) || hand.stopwords.has(word)) continue;
      descriptors.add(word);
      // The adjective of a colour or material ("golden", "wooden", "woollen").
      if (LATIN_WORD.test(word)) descriptors.add(`${word}en`);
    }
  }
  for (const word of [...listOf(TITLE_DESCRIPTORS), ...listOf(DESCRIPTIVE_STANDARDS)]) {
    for (const form of numberForms(word)) descriptors.add(form);
  }
  for (const word of hand.tradeNames) descriptors.delete(word);
  return descriptors;
}

/** Given names that read only as names: none that another list holds. */
function givenNamesOf(otherLists: Iterable<{ has(word: string): boolean }>): Set<string> {
  const lists = [...otherLists];
  return new Set(listOf(COMMON_GIVEN_NAMES).filter((name) => !lists.some((list) => list.has(name))));
}

/** classes -> the words with exactly those weights, sorted, each modifier marked with MODIFIER_SUFFIX. */
function productClassesJsonOf(classesOfWord: Map<string, string>, modifiers: Set<string>): Record<string, string> {
  const productClasses = new Map<string, string[]>();
  for (const [word, weights] of classesOfWord) {
    const words = productClasses.get(weights);
    if (words) words.push(word);
    else productClasses.set(weights, [word]);
  }
  const productClassesJson: Record<string, string> = {};
  for (const weights of [...productClasses.keys()].sort(byCodeUnits)) {
    productClassesJson[weights] = sorted(productClasses.get(weights)!)
      .map((word) => (modifiers.has(word) ? `${word}${MODIFIER_SUFFIX}` : word))
      .join(' ');
  }
  return productClassesJson;
}

export function buildLexicon(sharedDir: string = DEFAULT_SHARED_DIR): LexiconFile {
  const sources = readSources(sharedDir);
  const hand: HandSets = {
    stopwords: new Set([...listOf(ENGLISH_STOPWORDS), ...listOf(CHINESE_STOPWORDS)]),
    units: new Set(listOf(UNITS)),
    tradeNames: new Set(listOf(TRADE_NAMES_IN_SOURCES)),
  };
  const { stopwords, units, tradeNames } = hand;

  // 4. product word -> classes, and the product words that are modifiers in category names.
  const classesOfWord = classesOfWords(sources, hand);
  const modifiers = modifiersOf(sources.categories, classesOfWord);
  // 1. generic words.
  const { generic, chosenAttributes } = genericWordsOf(sources, hand);
  // 3. known trademark words, and 2. the dual-use words (a trademark that the sources use as a word too).
  const knownTrademarks = new Set([...sources.wordNetMarks, ...tradeNames]);
  const isWordOfSources = (word: string): boolean => generic.has(word) || classesOfWord.has(word) || units.has(word);
  const dualUse = dualUseWordsOf(sources, isWordOfSources);
  const descriptors = descriptorsOf(sources, hand);
  const givenNames = givenNamesOf([generic, dualUse, knownTrademarks, classesOfWord, units, stopwords]);

  // Keep the lists disjoint where one implies the other, so the file stays small: a product word, a unit or a
  // stopword is generic at run time without being listed again.
  for (const word of [...stopwords, ...units, ...classesOfWord.keys()]) generic.delete(word);

  return {
    about:
      'Screening lexicon, generated by builders/build-lexicon.ts; sources, licences and choices in data/lexicon/SOURCES.md.',
    counts: {
      stopwords: stopwords.size,
      units: units.size,
      unitsAfterNumber: listOf(UNITS_AFTER_NUMBER).length,
      generic: generic.size,
      dualUse: dualUse.size,
      knownTrademarks: knownTrademarks.size,
      productWords: classesOfWord.size,
      shopifyAttributesUsed: chosenAttributes.size,
      descriptors: descriptors.size,
      givenNames: givenNames.size,
      modifiers: modifiers.size,
    },
    stopwords: sorted(stopwords).join(' '),
    units: sorted(units).join(' '),
    unitsAfterNumber: sorted(listOf(UNITS_AFTER_NUMBER)).join(' '),
    generic: sorted(generic).join(' '),
    dualUse: sorted(dualUse).join(' '),
    knownTrademarks: sorted(knownTrademarks),
    productClasses: productClassesJsonOf(classesOfWord, modifiers),
    descriptors: sorted(descriptors).join(' '),
    givenNames: sorted(givenNames).join(' '),
  };
}

/** The file's text: one list or map per line, so a rebuild diffs readably and stays compact. */
export function serializeLexicon(lexicon: LexiconFile): string {
  const lines = Object.entries(lexicon).map(([key, value]) => `  ${JSON.stringify(key)}: ${JSON.stringify(value)}`);
  return `{\n${lines.join(',\n')}\n}\n`;
}

/** The Shopify attributes whose values step 1 takes as generic words, sorted. */
export function attributesChosen(sharedDir: string = DEFAULT_SHARED_DIR): string[] {
  const names = new Set(readShopifyAttributeValues(sharedDir).map((value) => value.attribute));
  return [...names].filter((name) => isChosenAttribute(name, GENERIC_ATTRIBUTE_PATTERNS)).sort(byCodeUnits);
}
