/** Readers of the public word lists the lexicon is built from (nothing is fetched: they sit in the shared folder). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { normalizeText } from '../../shared/marks/lookup-keys';

export interface AttributeValue {
  value: string;
  attribute: string;
}

export interface NiceTerm {
  nice: string;
  description: string;
}

export function readNiceGoods(sharedDir: string): NiceTerm[] {
  const file = path.join(sharedDir, 'data/nice/nice-classification.json');
  const data = JSON.parse(readFileSync(file, 'utf8')) as { goods: { number: string; description: string }[] };
  // The class is the basic number's first two digits; the file's "type" field is wrong for some classes.
  return data.goods
    .map((term) => ({ nice: term.number.slice(0, 2), description: term.description }))
    .filter((term) => /^(0[1-9]|[12]\d|3[0-4])$/.test(term.nice));
}

export function readShopifyCategories(sharedDir: string): string[][] {
  const file = path.join(sharedDir, 'data/lexicon/shopify-taxonomy/categories.txt');
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('gid://'))
    .map((line) =>
      line
        .slice(line.indexOf(' : ') + 3)
        .trim()
        .split(' > '),
    );
}

export function readShopifyAttributeValues(sharedDir: string): AttributeValue[] {
  const file = path.join(sharedDir, 'data/lexicon/shopify-taxonomy/attribute_values.txt');
  const values: AttributeValue[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^gid:\/\/\S+\s+: (.*) \[([^\]]+)\]$/.exec(line.trim());
    if (match) values.push({ value: match[1]!, attribute: match[2]! });
  }
  return values;
}

/** The words of the taxonomy's colour values: descriptors, never a product's head ("carbon black" is not class 1). */
export function colourWordsOf(values: AttributeValue[]): Set<string> {
  const colours = new Set<string>();
  for (const { value, attribute } of values) {
    if (/^colou?r$/i.test(attribute)) for (const word of normalizeText(value).split(' ')) if (word) colours.add(word);
  }
  return colours;
}

/** Single-word brand names of the Amazon brand list (MIT), compared after normalisation. */
export function readAmazonBrandWords(sharedDir: string): Set<string> {
  const file = path.join(sharedDir, 'data/lexicon/amazon-brand-list/brands.txt');
  const words = new Set<string>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const normalized = normalizeText(line);
    if (normalized && !normalized.includes(' ')) words.add(normalized);
  }
  return words;
}

function readCsv(file: string): Record<string, string>[] {
  return parse(readFileSync(file, 'utf8'), { columns: true, skip_empty_lines: true }) as Record<string, string>[];
}

export function readDualUseTerms(sharedDir: string): string[] {
  const file = path.join(sharedDir, 'data/lexicon/dual-use-words/brand_names_that_are_generic_words.csv');
  return readCsv(file)
    .map((row) => normalizeText(row.term ?? ''))
    .filter(Boolean);
}

/**
 * The lemmas a WordNet gloss names as a trademark: the capitalised lemmas the gloss quotes ("acyclovir; Zovirax:
 * ... (trade name Zovirax)"), or every capitalised lemma when it quotes none ("Band Aid: trade name for ...").
 */
export function readWordNetTrademarks(sharedDir: string): string[] {
  const file = path.join(sharedDir, 'data/lexicon/wordnet-trademark-glosses/wordnet31_trademark_glosses.csv');
  const marks: string[] = [];
  for (const row of readCsv(file)) {
    const lemmas = (row.lemmas ?? '')
      .split(';')
      .map((lemma) => lemma.trim())
      .filter(Boolean);
    const gloss = ` ${normalizeText(row.gloss ?? '')} `;
    // A trade name is written with a capital ("iPod", "Band Aid"); lower-case lemmas are the common names beside it
    // ("scuba", "table tennis") or words about trademarks themselves ("generic", "proprietary").
    const capitalised = lemmas.filter((lemma) => /\p{Lu}/u.test(lemma));
    const quoted = capitalised.filter((lemma) => gloss.includes(` ${normalizeText(lemma)} `));
    const named = quoted.length > 0 ? quoted : capitalised;
    for (const lemma of named) {
      const normalized = normalizeText(lemma);
      if (!normalized) continue;
      marks.push(normalized);
      if (normalized.includes(' ')) marks.push(normalized.replace(/ /g, ''));
    }
  }
  return marks;
}

/** Everything the build reads from the shared folder. */
export interface LexiconSources {
  niceGoods: NiceTerm[];
  categories: string[][];
  attributeValues: AttributeValue[];
  dualUseTerms: string[];
  wordNetMarks: string[];
  amazonBrandWords: Set<string>;
  /** The words of the taxonomy's colour values. */
  colours: Set<string>;
}

export function readSources(sharedDir: string): LexiconSources {
  const attributeValues = readShopifyAttributeValues(sharedDir);
  return {
    niceGoods: readNiceGoods(sharedDir),
    categories: readShopifyCategories(sharedDir),
    attributeValues,
    dualUseTerms: readDualUseTerms(sharedDir),
    wordNetMarks: readWordNetTrademarks(sharedDir),
    amazonBrandWords: readAmazonBrandWords(sharedDir),
    colours: colourWordsOf(attributeValues),
  };
}
