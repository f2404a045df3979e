/**
 * Builds data/screening/common-phrases.json: two- and three-word terms of ordinary language and of trade ("surge
 * protector", "pci express", "omega 3", "hair clip"), as the engine normalises them. The screening model reads it:
 * a mark word that stands inside such a term with the words around it ("surge" in "surge protector") is more likely
 * the term than a brand; a mark that is itself such a term ("PCI Express") is an ordinary name of a thing.
 *
 * Sources, none fetched:
 *  - WordNet 3.0 (Debian package wordnet-base: /usr/share/wordnet/data.noun, data.adj, data.verb, whose phrasal
 *    verbs are descriptions in titles: "hollow out", "slip on", "roll up"): its lower-case multi-word
 *    lemmas (capitalised lemmas are proper names), leaving out synsets whose gloss calls them a trademark or trade name;
 *  - the Nice classification's goods (../shared/data/nice): the head of each term before "for", "of", a comma or a
 *    bracket ("surge protectors", "vulcanisation accelerators"), in singular and plural;
 *  - the Shopify product taxonomy (../shared/data/lexicon/shopify-taxonomy): category names (in singular and
 *    plural) and the attribute values (and the singular of a plural one) that name no brand of the Amazon brand
 *    list (../shared/data/lexicon/amazon-brand-list; not "PlayStation 5") and are no maker's product line (values
 *    of platforms, processor series, consoles and operating systems: not "Adobe Creative", "Intel core i7").
 *
 * The phrases that hold a dual-use word of the lexicon ("surge protector", "omega 3"), as the sources write them, are
 * also listed in builders/screening/common-phrases-with-dual-use-words.txt: the screening trainer makes training
 * titles of them (builders/screening/rule-variants.ts termVariants).
 *
 * Written as a Bloom filter (shared/marks/key-filter.ts) of about 21 bits a phrase: about 2 in 10,000 other word
 * runs answer yes (test/unit/screening/common-phrases.test.ts measures it on random word pairs). Run:
 * apt-get install wordnet-base && npx tsx builders/build-common-phrases.ts [--shared DIR] [--check] (`--check` exits 1
 * when the committed files differ from what the sources give).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { KeyFilter } from '../shared/marks/key-filter';
import { normalizeText } from '../shared/marks/lookup-keys';
import { factsOfNormalised } from '../shared/screening/lexicon';
import { isEnglishWord } from '../shared/screening/word-frequencies';
import lexicon from '../data/lexicon/lexicon.json';
import { DEFAULT_SHARED_DIR } from './lexicon/paths';
import {
  readAmazonBrandWords,
  readNiceGoods,
  readShopifyAttributeValues,
  readShopifyCategories,
} from './lexicon/sources';
import { numberForms, singularOf } from './lexicon/word-forms';

const WORDNET = '/usr/share/wordnet';
export const OUT = path.join(__dirname, '../data/screening/common-phrases.json');
export const WITH_DUAL_USE = path.join(__dirname, 'screening/common-phrases-with-dual-use-words.txt');
export const WITH_UNLISTED = path.join(__dirname, 'screening/common-phrases-with-unlisted-words.txt');
const TRADE_NAME = /\b(trademark|trade name|brand name)\b/i;
const PHRASE = /^[a-z0-9]+( [a-z0-9]+){1,2}$/;

/**
 * A taxonomy value that names no brand: none of its words is a one-word brand of the Amazon brand list that is no
 * English word. Consoles, platforms and formats are names ("PlayStation 5", "Xbox One", "Atari 2600"); technical
 * terms stay ("PCI Express", "SATA III", "Omega 3").
 */
function namesNoBrand(value: string, brandWords: ReadonlySet<string>): boolean {
  return value.split(' ').every((word) => !brandWords.has(word) || isEnglishWord(word));
}

/**
 * Taxonomy attributes whose values are makers' product lines, not kinds of goods: processor series ("Intel core
 * i7"), software and TV platforms ("Adobe Creative"), consoles, operating systems ("Chrome OS").
 */
const PRODUCT_LINE_ATTRIBUTE = /\b(platform|series|console system|operating system)\b/i;

/** The lower-case multi-word lemmas of a WordNet data file, trade names left out. */
function wordNetPhrases(file: string): string[] {
  const out: string[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line === '' || line.startsWith(' ')) continue;
    const [data = '', gloss = ''] = line.split(' | ');
    if (TRADE_NAME.test(gloss)) continue;
    const fields = data.split(' ');
    const count = Number.parseInt(fields[3] ?? '0', 16);
    for (let i = 0; i < count; i++) {
      const lemma = (fields[4 + 2 * i] ?? '').replace(/\((a|p|ip)\)$/, '');
      if (!/[_-]/.test(lemma) || lemma !== lemma.toLowerCase()) continue;
      out.push(normalizeText(lemma.replace(/_/g, ' ')));
    }
  }
  return out;
}

/**
 * A noun term with its last word in singular and plural ("surge protectors" and "surge protector"); any other term
 * as written and, when its last word looks plural, in singular ("hair clips" and "hair clip").
 */
function withNumberForms(phrase: string, noun: boolean): string[] {
  const words = phrase.split(' ');
  const last = words.pop()!;
  const singular = singularOf(last);
  const forms = noun ? numberForms(last) : singular ? [last, singular] : [last];
  return forms.map((form) => [...words, form].join(' '));
}

/** The head of a Nice goods term: what comes before "for", "of", "other than", a comma or a bracket. */
function niceHead(description: string): string {
  const head = description.split(/\s*[[(,;]|\s+(?:for|of|other than|not|in|with|being|made|used|adapted)\s+/)[0] ?? '';
  return normalizeText(head.replace(/\*/g, ''));
}

/** Whether the sources are on this machine (WordNet from Debian, the rest in the shared folder). */
export function commonPhraseSourcesPresent(shared = DEFAULT_SHARED_DIR): boolean {
  return (
    existsSync(path.join(WORDNET, 'data.noun')) && existsSync(path.join(shared, 'data/nice/nice-classification.json'))
  );
}

/**
 * A word no word list of the engine knows: not English, not in the lexicon (product, descriptive, dual-use, stop
 * word), not a number. In a title such a word reads as a coined name ("pci" in "pci express", "sata" in "sata
 * cable") unless something says it is a term of the trade.
 */
function isUnlistedWord(word: string): boolean {
  const f = factsOfNormalised(word);
  return (
    /[a-z]/.test(word) &&
    word.length >= 2 &&
    !isEnglishWord(word) &&
    !(f.generic || f.dualUse || f.stopword || f.descriptor || f.trivial || f.givenName)
  );
}

/**
 * The files' texts: common-phrases.json, the terms holding a dual-use word, and the terms of goods (Nice, Shopify)
 * holding an unlisted word ("pci express", "micro usb").
 */
export function buildCommonPhrases(shared = DEFAULT_SHARED_DIR): {
  json: string;
  withDualUse: string;
  withUnlisted: string;
  summary: string;
} {
  if (!existsSync(path.join(WORDNET, 'data.noun')))
    throw new Error(`${WORDNET} is missing: apt-get install wordnet-base`);
  const hash = createHash('sha256');
  const brandWords = readAmazonBrandWords(shared);
  const phrases = new Set<string>();
  const counts: Record<string, number> = {};
  // As the sources write them (the training titles use these), and with every number form of a noun's last word.
  const written = new Set<string>();
  // Those of the sources of goods (the Nice goods, the Shopify taxonomy), not of WordNet's language at large.
  const writtenOfGoods = new Set<string>();
  const add = (source: string, candidates: Iterable<string>, nouns: boolean): void => {
    let n = 0;
    const goods = !source.startsWith('wordnet');
    for (const candidate of candidates) {
      if (PHRASE.test(candidate)) written.add(candidate);
      if (PHRASE.test(candidate) && goods) writtenOfGoods.add(candidate);
      for (const phrase of withNumberForms(candidate, nouns)) {
        if (!PHRASE.test(phrase) || phrases.has(phrase)) continue;
        phrases.add(phrase);
        n++;
      }
    }
    counts[source] = n;
  };
  for (const file of ['data.noun', 'data.adj', 'data.verb']) {
    hash.update(readFileSync(path.join(WORDNET, file)));
    add(`wordnet ${file}`, wordNetPhrases(path.join(WORDNET, file)), file === 'data.noun');
  }
  add(
    'nice goods',
    readNiceGoods(shared).map((term) => niceHead(term.description)),
    true,
  );
  add(
    'shopify categories',
    readShopifyCategories(shared).map((parts) => normalizeText(parts[parts.length - 1]!)),
    true,
  );
  add(
    'shopify attribute values',
    readShopifyAttributeValues(shared)
      .filter((value) => !PRODUCT_LINE_ATTRIBUTE.test(value.attribute))
      .map((value) => normalizeText(value.value))
      .filter((value) => namesNoBrand(value, brandWords)),
    false,
  );
  const sorted = [...phrases].sort();
  // Twice the filter's designed load in bits (about 21 a phrase), not compacted: fewer false yeses.
  const filter = KeyFilter.forCapacity(2 * sorted.length);
  for (const phrase of sorted) filter.add(phrase);
  const dualUse = new Set((lexicon as { dualUse: string }).dualUse.split(' '));
  const withDualUse = [...written].filter((phrase) => phrase.split(' ').some((word) => dualUse.has(word))).sort();
  const withUnlisted = [...writtenOfGoods].filter((phrase) => phrase.split(' ').some(isUnlistedWord)).sort();
  const data = {
    about:
      'Two- and three-word terms (WordNet 3.0, the Nice goods, the Shopify product taxonomy), normalised, as a Bloom filter. Built by builders/build-common-phrases.ts; see SOURCE.txt.',
    sources: `WordNet 3.0 data.noun + data.adj + data.verb from Debian wordnet-base 1:3.0-37, sha256 ${hash.digest('hex')}; ../shared/data/nice; ../shared/data/lexicon/shopify-taxonomy`,
    counts,
    phrases: sorted.length,
    filter: Buffer.from(filter.bits).toString('base64'),
  };
  return {
    json: `${JSON.stringify(data, null, 1)}\n`,
    withDualUse: `${withDualUse.join('\n')}\n`,
    withUnlisted: `${withUnlisted.join('\n')}\n`,
    summary: `${sorted.length} phrases (${withDualUse.length} with a dual-use word, ${withUnlisted.length} with an unlisted word), ${filter.bits.length} bytes (${JSON.stringify(counts)})`,
  };
}

function main(): void {
  const argv = process.argv.slice(2);
  const at = argv.indexOf('--shared');
  const built = buildCommonPhrases(at >= 0 ? path.resolve(argv[at + 1]!) : DEFAULT_SHARED_DIR);
  if (argv.includes('--check')) {
    const same =
      readFileSync(OUT, 'utf8') === built.json &&
      readFileSync(WITH_DUAL_USE, 'utf8') === built.withDualUse &&
      readFileSync(WITH_UNLISTED, 'utf8') === built.withUnlisted;
    console.log(same ? 'common phrases are up to date' : 'common phrases differ from what the sources give: rebuild');
    process.exit(same ? 0 : 1);
  }
  writeFileSync(OUT, built.json);
  writeFileSync(WITH_DUAL_USE, built.withDualUse);
  writeFileSync(WITH_UNLISTED, built.withUnlisted);
  console.log(`${built.summary} -> ${path.relative(process.cwd(), OUT)}`);
}

if (require.main === module) main();
