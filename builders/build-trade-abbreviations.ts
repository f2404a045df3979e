/**
 * Builds data/screening/trade-abbreviations.json: the abbreviations the trade writes for kinds, formats and standards
 * of goods ("OEM" for a maker's own part, "SD" for a memory card, "SDXC", "PTFE", "NTSC"), as the engine normalises
 * them. Sellers write them in titles as terms ("Official OEM USB Charger", "micro SD Memory Card"), and in a register
 * of real size somebody has registered each as a mark; screening reads such a word past a title's first word as the
 * term (shared/screening/terms-of-trade.ts).
 *
 * Source, not fetched: the Shopify product taxonomy's attribute values (../shared/data/lexicon/shopify-taxonomy,
 * MIT): each value written as one token of two to six capitals and digits, with two capitals or more. Left out:
 *  - values of attributes that name makers' lines, emblems or ratings rather than kinds of goods: platforms, series,
 *    consoles, operating systems, chipset and processor families, multi-GPU and parallel-processing technologies
 *    (AMD, CUDA, SLI), sports logos (NFL, NBA), film ratings (PG) and the bodies that certify bats (NCAA, USSSA:
 *    associations with marks of their own);
 *  - a value that is a one-word name of the Amazon brand list (../shared/data/lexicon/amazon-brand-list, MIT:
 *    RAID, PS), a trade name WordNet records (the lexicon's known trademarks), an English word (CUE, OPUS: the model
 *    reads those as words) or a word the lexicon already reads as generic, a unit or a stopword (USB, HDMI: never
 *    looked up on their own).
 *
 * Run: npx tsx builders/build-trade-abbreviations.ts [--shared DIR] [--check] (`--check` exits 1 when the committed
 * file differs from what the source gives).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { normalizeText } from '../shared/marks/lookup-keys';
import { isGenericWord, isKnownTrademarkWord, isStopword, isUnit } from '../shared/screening/lexicon';
import { isEnglishWord } from '../shared/screening/word-frequencies';
import { DEFAULT_SHARED_DIR } from './lexicon/paths';
import { readAmazonBrandWords, readShopifyAttributeValues } from './lexicon/sources';

export const OUT = path.join(__dirname, '../data/screening/trade-abbreviations.json');

/** One token of capitals and digits, two capitals or more ("OEM", "SDXC", "SD"; not "A4", "3D"). */
const ABBREVIATION = /^(?=(?:[0-9]*[A-Z]){2})[A-Z0-9]{2,6}$/;

/** Attributes whose values are makers' lines, emblems or ratings, not kinds of goods (see the file's comment). */
const NOT_KINDS_OF_GOODS =
  /\b(platform|series|console system|operating system|family|multi-gpu|parallel processing|logo|rating|bat standard)\b/i;

export function buildTradeAbbreviations(shared: string): { json: string; summary: string } {
  const brandWords = readAmazonBrandWords(shared);
  const values = readShopifyAttributeValues(shared);
  const kept = new Set<string>();
  let candidates = 0;
  for (const { value, attribute } of values) {
    if (!ABBREVIATION.test(value) || NOT_KINDS_OF_GOODS.test(attribute)) continue;
    candidates++;
    const word = normalizeText(value);
    if (
      brandWords.has(word) ||
      isKnownTrademarkWord(word) ||
      isEnglishWord(word) ||
      isGenericWord(word) ||
      isUnit(word) ||
      isStopword(word)
    )
      continue;
    kept.add(word);
  }
  const words = [...kept].sort();
  const data = {
    about:
      "Abbreviations of kinds, formats and standards of goods, from the Shopify product taxonomy's attribute values, normalised. Built by builders/build-trade-abbreviations.ts; see SOURCE.txt.",
    source: '../shared/data/lexicon/shopify-taxonomy/attribute_values.txt (2025-01-unstable, MIT)',
    words: words.join(' '),
  };
  return {
    json: `${JSON.stringify(data, null, 1)}\n`,
    summary: `${words.length} abbreviations of ${candidates} values written as one token of capitals`,
  };
}

function main(): void {
  const args = process.argv.slice(2);
  const sharedAt = args.indexOf('--shared');
  const shared = sharedAt >= 0 ? path.resolve(args[sharedAt + 1]!) : DEFAULT_SHARED_DIR;
  const built = buildTradeAbbreviations(shared);
  if (args.includes('--check')) {
    const same = existsSync(OUT) && readFileSync(OUT, 'utf8') === built.json;
    console.log(same ? 'trade abbreviations are up to date' : 'trade abbreviations differ from the source: rebuild');
    process.exit(same ? 0 : 1);
  }
  writeFileSync(OUT, built.json);
  console.log(`${built.summary} -> ${path.relative(process.cwd(), OUT)}`);
}

if (require.main === module) main();
