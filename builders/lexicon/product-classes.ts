/** Head nouns of Nice goods terms and Shopify category names, and the class votes that become a word's weights. */
import { normalizeText } from '../../shared/marks/lookup-keys';
import {
  AUDIENCE_WORDS,
  CHINESE_PRODUCT_CLASSES,
  CLOTHING_HEADS,
  HAND_PRODUCT_CLASSES,
  SOUTH_ASIAN_PRODUCT_CLASSES,
  UNINFORMATIVE_HEADS,
} from './hand-lists';
import { SHOPIFY_BRANCH_CLASSES } from './shopify-choices';
import type { LexiconSources } from './sources';
import { LATIN_WORD, listOf, numberForms, singularOf } from './word-forms';

const NICE_CUT =
  / (for|of|with|used|adapted|not|other|in|made|being|to|from|against|containing|based|especially|intended|on|as|at) /;

/** The head noun of a Nice goods term: "drinking bottles for sports" -> "bottles", "disks, magnetic" -> "disks". */
export function niceHeadNoun(description: string): string | undefined {
  const main = description
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\([^)]*\)/g, ' ')
    .toLowerCase()
    .split(/[,;]/)[0]!;
  const phrase = ` ${main} `.split(NICE_CUT)[0]!;
  return headOf(normalizeText(phrase).split(' ').filter(Boolean));
}

function headOf(words: string[]): string | undefined {
  let index = words.length - 1;
  while (index >= 0 && UNINFORMATIVE_HEADS.has(words[index]!)) index--;
  const head = words[index];
  return head && LATIN_WORD.test(head) && head.length >= 3 ? head : undefined;
}

/**
 * The head nouns of a Shopify category name: one per conjunct ("Headphones & Headsets" -> both), skipping a lone
 * modifier before a longer conjunct ("Sport & Safety Whistles" -> "whistles" only).
 */
export function categoryHeadNouns(name: string): string[] {
  const parts = name
    .replace(/\([^)]*\)/g, ' ')
    .split(/\s*(?:&|,|\band\b)\s*/)
    .map((part) => normalizeText(part).split(' ').filter(Boolean))
    .filter((words) => words.length > 0);
  const heads: string[] = [];
  parts.forEach((words, index) => {
    const next = parts[index + 1];
    const loneModifier = words.length === 1 && next !== undefined && next.length > 1 && !words[0]!.endsWith('s');
    if (loneModifier) return;
    const head = headOf(words);
    if (head) heads.push(head);
  });
  return heads;
}

function branchClassOf(pathParts: string[]): string | null | undefined {
  for (let length = pathParts.length; length > 0; length--) {
    const key = pathParts.slice(0, length).join(' > ');
    if (key in SHOPIFY_BRANCH_CLASSES) return SHOPIFY_BRANCH_CLASSES[key];
  }
  return undefined;
}

/** votes[lemma][class] = number of goods terms and category sibling groups that name the lemma as their head. */
type Votes = Map<string, Map<string, number>>;

function vote(votes: Votes, word: string, nice: string, count = 1): void {
  const lemma = singularOf(word) ?? word;
  let byClass = votes.get(lemma);
  if (!byClass) {
    byClass = new Map();
    votes.set(lemma, byClass);
  }
  byClass.set(nice, (byClass.get(nice) ?? 0) + count);
}

/** A class below this share of a word's votes is noise ("whistles" in a firearms term); it is dropped. */
const MIN_CLASS_SHARE = 0.1;
const MAX_CLASSES_PER_WORD = 4;

/** "08:75 21:25": the classes of one word with integer percentages, strongest first, ties by class. */
function weightsOf(byClass: Map<string, number>): string {
  const total = [...byClass.values()].reduce((sum, count) => sum + count, 0);
  const kept = [...byClass.entries()]
    .filter(([, count]) => count / total >= MIN_CLASS_SHARE)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, MAX_CLASSES_PER_WORD);
  const keptTotal = kept.reduce((sum, [, count]) => sum + count, 0);
  return kept.map(([nice, count]) => `${nice}:${Math.round((100 * count) / keptTotal)}`).join(' ');
}

/** Adds a hand-given class to computed weights: the hand class gets half the weight, the rest is scaled down. */
function mergeWeights(weights: string, nice: string): string {
  const byClass = new Map<string, number>();
  for (const entry of weights.split(' ')) {
    const [cls, weight] = entry.split(':');
    byClass.set(cls!, Number(weight) / 2);
  }
  byClass.set(nice, (byClass.get(nice) ?? 0) + 50);
  return weightsOf(byClass);
}

/**
 * The class of each one-word Shopify category in a branch that maps to a class ("Apparel & Accessories > Jewelry >
 * Rings" -> ring 14): what a merchandise taxonomy calls that kind of goods, so what the word means alone in a
 * listing. Head-noun votes count each Nice term once, and compounds the word heads outnumber it ("napkin rings",
 * "piston rings", "curtain rings" read "ring" as 21 and 06), so this class takes half of the word's weight
 * (mergeWeights, as the Chinese hand table does).
 */
function bareCategoryClasses(sources: LexiconSources): Map<string, string> {
  const classes = new Map<string, string>();
  for (const pathParts of sources.categories) {
    const nice = branchClassOf(pathParts);
    const words = normalizeText(pathParts[pathParts.length - 1]!.replace(/\([^)]*\)/g, ' '))
      .split(' ')
      .filter(Boolean);
    if (!nice || words.length !== 1) continue;
    const head = headOf(words);
    if (!head) continue;
    const lemma = singularOf(head) ?? head;
    const headClass = nice === '28' && CLOTHING_HEADS.has(lemma) ? '25' : nice;
    // A word that two branches name alone in different classes says no one meaning: none is taken.
    const previous = classes.get(lemma);
    classes.set(lemma, previous === undefined || previous === headClass ? headClass : '');
  }
  for (const [lemma, nice] of classes) if (nice === '') classes.delete(lemma);
  return classes;
}

/**
 * The class votes: the head noun of every Nice goods term (one vote for its class), of every Shopify category whose
 * branch maps to a class (one vote per sibling group), and the hand tables (two votes a word).
 */
function classVotes(sources: LexiconSources): Votes {
  const votes: Votes = new Map();
  for (const term of sources.niceGoods) {
    const head = niceHeadNoun(term.description);
    if (head) vote(votes, head, term.nice);
  }
  const groups = new Set<string>();
  for (const pathParts of sources.categories) {
    const nice = branchClassOf(pathParts);
    if (!nice) continue;
    const parent = pathParts.slice(0, -1).join(' > ');
    for (const head of categoryHeadNouns(pathParts[pathParts.length - 1]!)) {
      const lemma = singularOf(head) ?? head;
      const headClass = nice === '28' && CLOTHING_HEADS.has(lemma) ? '25' : nice;
      // One vote per sibling group: "Bb Tin Whistles", "C Tin Whistles" ... under "Tin Whistles" count once.
      const group = `${lemma}|${headClass}|${parent}`;
      if (groups.has(group)) continue;
      groups.add(group);
      vote(votes, head, headClass);
    }
  }
  for (const [nice, words] of [
    ...Object.entries(HAND_PRODUCT_CLASSES),
    ...Object.entries(SOUTH_ASIAN_PRODUCT_CLASSES),
  ]) {
    for (const word of listOf(words)) vote(votes, word, nice, 2);
  }
  return votes;
}

/**
 * Product word -> its classes with weights ("09:60 28:40"), for every number form of each voted lemma that is not a
 * stopword, a trade name, a colour or an audience word, plus the Chinese hand table.
 */
export function classesOfWords(
  sources: LexiconSources,
  excluded: { stopwords: Set<string>; tradeNames: Set<string> },
): Map<string, string> {
  const classesOfWord = new Map<string, string>();
  const bare = bareCategoryClasses(sources);
  for (const [lemma, byClass] of classVotes(sources)) {
    if (
      excluded.stopwords.has(lemma) ||
      excluded.tradeNames.has(lemma) ||
      sources.colours.has(lemma) ||
      AUDIENCE_WORDS.has(lemma)
    ) {
      continue;
    }
    const bareClass = bare.get(lemma);
    const weights = bareClass ? mergeWeights(weightsOf(byClass), bareClass) : weightsOf(byClass);
    for (const form of numberForms(lemma)) if (!classesOfWord.has(form)) classesOfWord.set(form, weights);
  }
  for (const [nice, words] of Object.entries(CHINESE_PRODUCT_CLASSES)) {
    for (const word of listOf(words)) {
      const previous = classesOfWord.get(word);
      classesOfWord.set(word, previous ? mergeWeights(previous, nice) : `${nice}:100`);
    }
  }
  return classesOfWord;
}

/**
 * Product words that name what another product is for or made of in some category name ("Wine Racks", "Flower
 * Pots"): followed by another product word in a title, such a word is half of one product's name.
 */
export function modifiersOf(categories: string[][], classesOfWord: Map<string, string>): Set<string> {
  const modifiers = new Set<string>();
  for (const pathParts of categories) {
    for (const part of pathParts) {
      const words = normalizeText(part).split(' ').filter(Boolean);
      for (const word of words.slice(0, -1)) {
        for (const form of numberForms(word)) if (classesOfWord.has(form)) modifiers.add(form);
      }
    }
  }
  return modifiers;
}
