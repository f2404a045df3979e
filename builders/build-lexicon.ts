/**
 * Builds the screening lexicon, data/lexicon/lexicon.json, from the public word lists kept beside the project:
 *   npx tsx builders/build-lexicon.ts [--shared DIR] [--out FILE] [--check]
 *
 * Input (read from --shared, default ../shared next to this repository; nothing is fetched):
 *   data/lexicon/shopify-taxonomy/{categories,attribute_values}.txt   Shopify product taxonomy (MIT)
 *   data/nice/nice-classification.json                                Nice classification 10-2015 (compilation CC0)
 *   data/lexicon/dual-use-words/brand_names_that_are_generic_words.csv brand names that are dictionary words
 *   data/lexicon/wordnet-trademark-glosses/wordnet31_trademark_glosses.csv  WordNet 3.1 (WordNet licence)
 *   data/lexicon/amazon-brand-list/brands.txt                          Amazon brand filter list (MIT)
 * plus the hand lists of builders/lexicon/hand-lists.ts (stopwords, units, Chinese words, class tables) and the
 * choices of builders/lexicon/shopify-choices.ts (attributes taken, branch classes), which are part of the source.
 * Output: one compact JSON file, deterministic (sorted, no dates), so a rebuild can be diffed against the committed
 * file (`--check` exits 1 when they differ). data/lexicon/SOURCES.md says what each part comes from and why.
 *
 * Steps:
 *   1. generic words: tokens of every Shopify category name, of the values of deliberately chosen Shopify
 *      attributes (colours, materials, sizes, patterns, shapes, styles, age groups, genders ...), of every Nice goods
 *      term, plus the hand lists; minus trade names that the sources use as materials (Teflon, Kevlar ...);
 *   2. dual-use words: the brand-names-that-are-words list, plus the WordNet trademark words and single-word Amazon-list
 *      brands that step 1 found generic;
 *   3. known trademark words: the lemmas WordNet's glosses name as trademarks or trade names;
 *   4. product word -> Nice classes: the head noun of every Nice goods term (one vote for its class) and of every
 *      Shopify category whose branch the class table (shopify-choices.ts) maps to a class (one vote per sibling
 *      group), plus a hand table for current product words the 2015 terms lack (earbuds ...); votes become weights,
 *      and the class of a one-word Shopify category ("Jewelry > Rings") takes half of its word's weight;
 *   5. every word is normalised with the engine's normalizeText, and nouns get their singular and plural forms.
 * Parts, in builders/lexicon/: sources.ts reads the word lists, word-forms.ts makes singulars and plurals,
 * product-classes.ts does step 4, build.ts the other steps and the file's text.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildLexicon, serializeLexicon } from './lexicon/build';
import { DEFAULT_SHARED_DIR, LEXICON_FILE, ROOT } from './lexicon/paths';

function main(): void {
  const argv = process.argv.slice(2);
  const option = (name: string): string | undefined => {
    const index = argv.indexOf(name);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  const sharedDir = path.resolve(option('--shared') ?? DEFAULT_SHARED_DIR);
  const outFile = path.resolve(option('--out') ?? LEXICON_FILE);
  const text = serializeLexicon(buildLexicon(sharedDir));
  if (argv.includes('--check')) {
    const committed = readFileSync(outFile, 'utf8');
    if (committed !== text) {
      console.error(`${path.relative(ROOT, outFile)} differs from what the sources give: rebuild it.`);
      process.exit(1);
    }
    console.log(`${path.relative(ROOT, outFile)} is up to date.`);
    return;
  }
  writeFileSync(outFile, text);
  console.log(`wrote ${path.relative(ROOT, outFile)} (${Buffer.byteLength(text)} bytes)`);
}

if (require.main === module) main();
