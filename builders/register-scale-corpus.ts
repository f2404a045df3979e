/**
 * A register-scale US word-mark corpus in the canonical marks JSONL (data/FORMATS.md), for scale tests of ingest
 * and screening:
 *   npm run data:register-scale -- --marks 3000000 --out /work/scale/us-marks-3m.jsonl [--seed N]
 *
 * Input: the Debian word lists (`apt-get install wamerican wordnet-base`: /usr/share/dict/american-english and
 * /usr/share/wordnet/data.{noun,adj,verb}), the project's brand lists (data/lexicon/lexicon.json: its known
 * trademarks and dual-use brand words; data/sample/us-marks.jsonl; data/tro/tro_brands_sample.csv), the lexicon's
 * product words (shared/screening/lexicon.ts) and common words (data/screening/word-vectors.json's vocabulary).
 * Output: one JSON line per mark, streamed (never the whole corpus in memory), the same seed giving the same bytes.
 *
 * Sources of mark texts (upper case, as the USPTO's mark-identification field writes standard characters):
 *   dictionary  every lower-case word of 3+ letters of the word list (no possessives), 1 to 3 times, each time
 *               another owner; the word's own goods class (the lexicon's product-word inference: INK -> 02/16,
 *               CUSHIONS -> 20/24) is its first class half of the time it has one;
 *   wordnet     every multi-word lemma of WordNet (field 5 onwards of data.noun/adj/verb, "_" -> " ", adjective
 *               markers "(a)" "(p)" "(ip)" dropped), once. The Nice goods and Shopify taxonomy phrases the project
 *               knows are held under data/ only as a Bloom filter (data/screening/common-phrases.json), so they
 *               cannot be listed and are not used;
 *   brand       every brand of the project's lists, 1 to 12 times (BRAND_REPEATS), nine in ten of them under the
 *               brand's own company, as an established brand holds its name across its lines of goods;
 *   misspelling one or two one-edit variants of each brand (a letter dropped, doubled, or two swapped);
 *   coined      pronounceable coined names of 4 to 10 letters (consonant-vowel syllables);
 *   pair        two common words ("BLUE HARBOR", "SWIFT PEAK").
 * The natural total is every dictionary, wordnet, brand and misspelling entry plus NATURAL_COINED coined names and
 * NATURAL_PAIRS pairs. `--marks N` below it takes a deterministic sample of each source in proportion to its size
 * (selection sampling, so every kind is there at any N); above it, more coined names and pairs fill up to N. The
 * sources are interleaved at random (each next record from a source in proportion to what it has left), so any
 * prefix of the file holds every kind.
 *
 * Each record: serial US-RS-0000001 ... (unique, in file order; no office uses the prefix), 1 to 4 Nice classes
 * (skewed to one) drawn from CLASS_MIX, a USPTO status code (about 45% dead, 12% pending, 43% registered: the codes
 * and their Live/Dead meaning are those of data/uspto/code-tables/status_codes.csv), an owner (synthetic company
 * names), a filing date, a registration number when registered, drawing kind word (or both, stylised), and a goods
 * line of product words of its first class from the lexicon.
 *
 * A summary goes to stderr: counts per source, live/pending/dead, elapsed time. If the Debian lists are missing the
 * command exits 1 saying so.
 */
import { createWriteStream, existsSync, readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import lexiconData from '../data/lexicon/lexicon.json';
import { inferNiceClasses, type NiceWeight } from '../shared/screening/lexicon';
import { drawFrom, seededRandom, type Draw } from './synthetic-uspto/random';

/**
 * Weight of each Nice class among new filings (about per mille: they add up to 1,014, and a class is drawn in
 * proportion to its weight), used to draw a mark's classes. An approximation, not a measured
 * table: it follows the order of the USPTO's published filings by class (35, 9, 25, 41 and 42 far ahead, then 5, 3,
 * 28, 18, 21, 20, 30, 16 ...; USPTO Data Visualization Center and Trademark annual reports), with the shares rounded
 * by hand.
 */
export const CLASS_MIX: Readonly<Record<string, number>> = Object.freeze({
  '35': 105,
  '09': 90,
  '25': 85,
  '41': 70,
  '42': 60,
  '05': 42,
  '03': 40,
  '28': 38,
  '18': 30,
  '21': 32,
  '20': 28,
  '30': 30,
  '16': 28,
  '44': 25,
  '43': 24,
  '14': 20,
  '10': 18,
  '11': 18,
  '36': 20,
  '29': 15,
  '32': 14,
  '33': 14,
  '45': 15,
  '07': 14,
  '08': 12,
  '24': 14,
  '31': 10,
  '12': 12,
  '06': 10,
  '01': 8,
  '02': 4,
  '04': 5,
  '13': 2,
  '15': 3,
  '17': 5,
  '19': 5,
  '22': 3,
  '23': 1,
  '26': 6,
  '27': 3,
  '34': 5,
  '37': 10,
  '38': 7,
  '39': 8,
  '40': 6,
});

/** How many classes a mark has: 1 to 4, skewed to one (per mille). */
const CLASS_COUNT_WEIGHTS: readonly [number, number][] = [
  [1, 620],
  [2, 220],
  [3, 100],
  [4, 60],
];

export type StatusCategoryOut = 'registered' | 'pending' | 'dead';

/**
 * USPTO status codes by category, weighted (per mille within the category); their Live/Dead meaning is that of
 * data/uspto/code-tables/status_codes.csv (the unit test checks it).
 */
export const STATUS_CODES: Readonly<Record<StatusCategoryOut, readonly [string, number][]>> = Object.freeze({
  dead: [
    ['602', 300], // abandoned - failure to respond
    ['606', 190], // abandoned - no statement of use
    ['710', 240], // cancelled - section 8
    ['601', 60], // abandoned - express
    ['626', 50], // registered - backfile cancelled or expired
    ['711', 60], // cancelled - section 7
    ['618', 40], // abandoned file - backfile
    ['614', 30], // abandoned, petition to revive denied
    ['713', 30], // cancelled - section 18
  ],
  pending: [
    ['630', 200], // new application, not yet assigned
    ['641', 250], // non-final action mailed
    ['686', 150], // published for opposition
    ['688', 200], // notice of allowance issued
    ['661', 100], // response after non-final action entered
    ['744', 100], // statement of use filed
  ],
  registered: [
    ['700', 420], // registered
    ['800', 330], // registered and renewed
    ['702', 200], // section 8 & 15 accepted
    ['701', 50], // section 8 accepted
  ],
});

/** Shares of the status categories (per mille): about 45% dead, as asked of the corpus. */
const STATUS_WEIGHTS: readonly [StatusCategoryOut, number][] = [
  ['dead', 450],
  ['pending', 120],
  ['registered', 430],
];

export const SOURCES = ['dictionary', 'wordnet', 'brand', 'misspelling', 'coined', 'pair'] as const;
export type SourceName = (typeof SOURCES)[number];

export const NATURAL_COINED = 100_000;
export const NATURAL_PAIRS = 100_000;
export const SERIAL_PREFIX = 'US-RS-';

/** One line of the corpus (the marks JSONL fields; data/FORMATS.md). */
export interface CorpusLine {
  serial: string;
  mark: string;
  nice: number[];
  is_live: boolean;
  status_code: string;
  status_category: StatusCategoryOut;
  owner: string;
  filing_date: string;
  registration_number?: string;
  drawing_kind: 'word' | 'both';
  goods: string;
}

export interface RegisterScaleInputs {
  /** Lower-case dictionary words (dictionaryWordsOf). */
  dictionaryWords: readonly string[];
  /** WordNet multi-word lemmas, spaces between words (wordnetLemmasOf). */
  wordnetLemmas: readonly string[];
  /** Brand names as the lists write them. */
  brands: readonly string[];
  /** Common words for the two-word pairs. */
  commonWords: readonly string[];
}

export interface RegisterScaleOptions {
  marks: number;
  seed: number;
  /** The Nice classes a text's product words point to; default the lexicon's inference (inferNiceClasses). */
  ownClassesOf?: (words: readonly string[]) => readonly NiceWeight[];
  /** Natural counts of coined names and pairs (defaults NATURAL_COINED, NATURAL_PAIRS); tests make them small. */
  naturalCoined?: number;
  naturalPairs?: number;
}

export interface RegisterScaleSummary {
  natural: Record<SourceName, number>;
  written: Record<SourceName, number>;
  total: number;
  live: number;
  pending: number;
  dead: number;
}

// ---------------------------------------------------------------------------------------------- the word lists

/** The word list's lower-case words of 3+ letters, no possessives, once each, in list order. */
export function dictionaryWordsOf(text: string): string[] {
  const seen = new Set<string>();
  for (const line of text.split('\n')) {
    const word = line.trim();
    if (word.includes("'") || !/^\p{Ll}{3,}$/u.test(word)) continue;
    seen.add(word);
  }
  return [...seen];
}

/** The multi-word lemmas of one WordNet data file (data.noun, data.adj, data.verb), "_" -> " ". */
export function wordnetLemmasOf(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('  ')) continue; // the licence header lines start with two spaces
    const fields = line.split(' ');
    const count = Number.parseInt(fields[3] ?? '', 16);
    if (!Number.isFinite(count)) continue;
    for (let index = 0; index < count; index++) {
      const lemma = fields[4 + 2 * index];
      if (!lemma?.includes('_')) continue;
      out.push(lemma.replace(/\((a|p|ip)\)$/, '').replace(/_/g, ' '));
    }
  }
  return out;
}

/** Once each, whatever the case, first spelling kept, order kept. */
export function uniqueTexts(texts: Iterable<string>): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const text of texts) {
    const clean = text.replace(/\s+/g, ' ').trim();
    const key = clean.toLowerCase();
    if (clean === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(clean);
  }
  return out;
}

// ------------------------------------------------------------------------------------------------ the draws

function weighted<T>(draw: Draw, table: readonly (readonly [T, number])[]): T {
  let total = 0;
  for (const [, weight] of table) total += weight;
  let point = draw.random() * total;
  for (const [value, weight] of table) {
    point -= weight;
    if (point < 0) return value;
  }
  return table[table.length - 1]![0];
}

const CLASS_TABLE: readonly [string, number][] = Object.entries(CLASS_MIX);

/** Product words of each class from the lexicon (its own words, not modifiers, singular where a plural is listed). */
function goodsWordsByClass(): Map<string, string[]> {
  const byClass = new Map<string, Set<string>>();
  for (const [weights, words] of Object.entries(lexiconData.productClasses as Record<string, string>)) {
    const top = weights.split(' ')[0]!.split(':')[0]!;
    const set = byClass.get(top) ?? new Set<string>();
    for (const word of words.split(' ')) if (/^[a-z]+$/.test(word)) set.add(word); // no modifiers, no Chinese
    byClass.set(top, set);
  }
  const out = new Map<string, string[]>();
  for (const [nice, set] of byClass) {
    const words = [...set].filter((word) => !(word.endsWith('s') && set.has(word.slice(0, -1))));
    out.set(nice, words.sort());
  }
  return out;
}

const GOODS_WORDS = goodsWordsByClass();
const FALLBACK_GOODS: Readonly<Record<string, string>> = {
  '35': 'advertising; business management; online retail store services',
  '36': 'financial services; insurance services; real estate services',
  '37': 'building construction; repair services; installation services',
  '38': 'telecommunications services; broadcasting; streaming of audio and video',
  '39': 'transport; packaging and storage of goods; travel arrangement',
  '40': 'treatment of materials; custom manufacturing; printing services',
  '41': 'education; providing of training; entertainment; sporting and cultural activities',
  '42': 'software as a service; scientific and technological services; design of computer software',
  '43': 'restaurant services; temporary accommodation',
  '44': 'medical services; beauty care services; agricultural services',
  '45': 'legal services; security services; personal and social services',
};

function goodsOf(draw: Draw, nice: string): string {
  const words = GOODS_WORDS.get(nice);
  if (!words || words.length === 0) return FALLBACK_GOODS[nice] ?? `goods in class ${nice}`;
  const count = draw.int(1, 4);
  const chosen = new Set<string>();
  for (let index = 0; index < count; index++) chosen.add(draw.pick(words));
  const text = [...chosen].join('; ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const ONSETS = ['b', 'c', 'd', 'f', 'g', 'h', 'j', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'z', 'br', 'cr', 'dr'];
const ONSETS_RARE = ['st', 'tr', 'pl', 'gr', 'ch', 'sh', 'kr', 'fl', 'qu', 'x', 'w', 'y'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'a', 'e', 'i', 'o', 'a'];
const VOWELS_RARE = ['ai', 'ea', 'io', 'ou', 'y'];
const CODAS = ['n', 'x', 'r', 's', 'l', 't', 'm', 'k'];

/** A pronounceable coined name of 4 to 10 letters: consonant-vowel syllables, now and then a closing consonant. */
export function coinedName(draw: Draw): string {
  const target = draw.int(4, 10);
  for (;;) {
    let name = '';
    while (name.length < target - 1) {
      name += draw.chance(0.15) ? draw.pick(ONSETS_RARE) : draw.pick(ONSETS);
      name += draw.chance(0.08) ? draw.pick(VOWELS_RARE) : draw.pick(VOWELS);
    }
    if (name.length < target && draw.chance(0.6)) name += draw.pick(CODAS);
    if (name.length >= 4 && name.length <= 10) return name;
  }
}

/** One edit of a brand: a letter dropped, doubled, or two neighbours swapped; undefined when none differs. */
export function misspell(draw: Draw, brand: string): string | undefined {
  const letters = [...brand];
  const positions = letters.flatMap((char, index) => (/\p{L}/u.test(char) ? [index] : []));
  if (positions.length < 3) return undefined;
  for (let attempt = 0; attempt < 6; attempt++) {
    const at = draw.pick(positions);
    const kind = draw.int(0, 2);
    const copy = [...letters];
    if (kind === 0) copy.splice(at, 1);
    else if (kind === 1) copy.splice(at, 0, letters[at]!);
    else {
      const next = at + 1;
      if (next >= copy.length || !/\p{L}/u.test(copy[next]!)) continue;
      [copy[at], copy[next]] = [copy[next]!, copy[at]!];
    }
    const text = copy.join('').trim();
    if (text.toLowerCase() !== brand.toLowerCase() && [...text].filter((c) => /\p{L}/u.test(c)).length >= 3)
      return text;
  }
  return undefined;
}

const COMPANY_SUFFIXES = [
  'LLC',
  'Inc.',
  'Holdings LLC',
  'Brands LLC',
  'Corporation',
  'Co., Ltd.',
  'Group, Inc.',
  'Ltd.',
  'GmbH',
  'International Inc.',
  'Industries, Inc.',
  'Trading Co., Ltd.',
  'Technology Co., Ltd.',
  'Products LLC',
  'S.A.',
  'Pty Ltd',
];
const GIVEN_NAMES = (lexiconData.givenNames as string).split(' ');

function capitalised(text: string): string {
  return text.replace(/(^|\s)(\p{L})/gu, (_all, space: string, letter: string) => space + letter.toUpperCase());
}

/** A synthetic owner: a company named after the mark, a dictionary word or a coined name, or now and then a person. */
function ownerOf(draw: Draw, markText: string, words: readonly string[]): string {
  const roll = draw.random();
  if (roll < 0.25) return `${capitalised(markText.toLowerCase()).slice(0, 60)} ${draw.pick(COMPANY_SUFFIXES)}`;
  if (roll < 0.55) return `${capitalised(draw.pick(words))} ${draw.pick(COMPANY_SUFFIXES)}`;
  if (roll < 0.85) return `${capitalised(coinedName(draw))} ${draw.pick(COMPANY_SUFFIXES)}`;
  return `${capitalised(draw.pick(GIVEN_NAMES))} ${capitalised(coinedName(draw))}`;
}

function dateOf(draw: Draw, fromYear: number, toYear: number): string {
  const year = draw.int(fromYear, toYear);
  return `${year}-${String(draw.int(1, 12)).padStart(2, '0')}-${String(draw.int(1, 28)).padStart(2, '0')}`;
}

// -------------------------------------------------------------------------------------------- the sources

interface Entry {
  text: string;
}

interface Source {
  name: SourceName;
  natural: number;
  quota: number;
  /** The next entry of the source's share (materialised sources sample their list; generated ones draw). */
  next(): Entry;
}

/** Selection sampling (Knuth's algorithm S): exactly `quota` of `entries`, in order, each equally likely. */
function sampledSource(name: SourceName, entries: readonly Entry[], draw: Draw): Source {
  const source: Source = {
    name,
    natural: entries.length,
    quota: entries.length,
    next: () => {
      throw new Error('unreachable');
    },
  };
  let index = 0;
  let taken = 0;
  source.next = () => {
    for (; index < entries.length; index++) {
      const left = entries.length - index;
      if (draw.random() * left < source.quota - taken) {
        taken++;
        return entries[index++]!;
      }
    }
    throw new Error(`source ${name} ran out`);
  };
  return source;
}

function repeated(draw: Draw, texts: readonly string[], weights: readonly [number, number][]): Entry[] {
  const out: Entry[] = [];
  for (const text of texts) {
    const times = weighted(draw, weights);
    for (let time = 0; time < times; time++) out.push({ text });
  }
  return out;
}

/** Splits `total` over `sizes` in proportion (largest remainders), each part at most its size when total <= sum. */
export function proportionalQuotas(sizes: readonly number[], total: number): number[] {
  const sum = sizes.reduce((a, b) => a + b, 0);
  if (sum === 0) return sizes.map(() => 0);
  const exact = sizes.map((size) => (size * total) / sum);
  const quotas = exact.map(Math.floor);
  let left = total - quotas.reduce((a, b) => a + b, 0);
  const order = exact
    .map((value, index) => ({ index, rest: value - Math.floor(value) }))
    .sort((a, b) => b.rest - a.rest);
  for (const { index } of order) {
    if (left <= 0) break;
    quotas[index]! += 1;
    left--;
  }
  return quotas;
}

type SourceDraw = (offset: number) => Draw;

const REPEATS: readonly [number, number][] = [
  [1, 50],
  [2, 30],
  [3, 20],
];

/**
 * How often a listed brand is filed: an established brand holds its name in many registrations, one for each line
 * of goods it sells or licenses (a famous mark's owner files it in a dozen classes or more), far more often than
 * an ordinary word is filed by any one owner.
 */
const BRAND_REPEATS: readonly [number, number][] = [
  [1, 20],
  [2, 20],
  [3, 20],
  [5, 15],
  [8, 15],
  [12, 10],
];

/** The share of a listed brand's registrations its own company holds; the rest are other owners' (licensees, others). */
const BRAND_OWN_SHARE = 0.9;

/** One or two one-edit variants of each brand that are not themselves a listed brand, once each. */
function misspellingsOf(draw: Draw, brands: readonly string[]): Entry[] {
  const brandKeys = new Set(brands.map((brand) => brand.toLowerCase()));
  const misspellings: Entry[] = [];
  const misspelt = new Set<string>();
  for (const brand of brands) {
    const count = draw.int(1, 2);
    for (let index = 0; index < count; index++) {
      const variant = misspell(draw, brand);
      if (variant === undefined) continue;
      const key = variant.toLowerCase();
      if (brandKeys.has(key) || misspelt.has(key)) continue;
      misspelt.add(key);
      misspellings.push({ text: variant });
    }
  }
  return misspellings;
}

/** The six sources with their natural sizes and their quotas for `options.marks`. */
function sourcesOf(inputs: RegisterScaleInputs, options: RegisterScaleOptions, sourceDraw: SourceDraw): Source[] {
  const prepare = sourceDraw(1);
  const brands = uniqueTexts(inputs.brands);
  const misspellings = misspellingsOf(prepare, brands); // first: the order of the draws fixes the bytes of a seed
  const lists: [SourceName, Entry[]][] = [
    ['dictionary', repeated(prepare, uniqueTexts(inputs.dictionaryWords), REPEATS)],
    ['wordnet', uniqueTexts(inputs.wordnetLemmas).map((text) => ({ text }))],
    ['brand', repeated(prepare, brands, BRAND_REPEATS)],
    ['misspelling', misspellings],
  ];
  const commonWords = uniqueTexts(inputs.commonWords);
  const naturalCoined = options.naturalCoined ?? NATURAL_COINED;
  const naturalPairs = commonWords.length >= 2 ? (options.naturalPairs ?? NATURAL_PAIRS) : 0;
  const sizes = [...lists.map(([, entries]) => entries.length), naturalCoined, naturalPairs];
  const naturalTotal = sizes.reduce((a, b) => a + b, 0);
  let quotas: number[];
  if (options.marks <= naturalTotal) quotas = proportionalQuotas(sizes, options.marks);
  else {
    // Above the natural total, more coined names and pairs fill up to N.
    const extra = options.marks - naturalTotal;
    quotas = [...sizes];
    if (naturalPairs > 0) {
      quotas[4]! += Math.ceil(extra / 2);
      quotas[5]! += Math.floor(extra / 2);
    } else quotas[4]! += extra;
  }

  const sources: Source[] = lists.map(([name, entries], index) => {
    const source = sampledSource(name, entries, sourceDraw(10 + index));
    source.quota = quotas[index]!;
    return source;
  });
  const coinedDraw = sourceDraw(20);
  sources.push({
    name: 'coined',
    natural: naturalCoined,
    quota: quotas[4]!,
    next: () => ({ text: coinedName(coinedDraw) }),
  });
  const pairDraw = sourceDraw(21);
  sources.push({
    name: 'pair',
    natural: naturalPairs,
    quota: quotas[5]!,
    next: () => {
      const first = pairDraw.pick(commonWords);
      let second = pairDraw.pick(commonWords);
      while (second === first) second = pairDraw.pick(commonWords);
      return { text: `${first} ${second}` };
    },
  });
  return sources;
}

/**
 * The corpus as lines, one at a time. `summary` is filled in as the lines go (complete once the generator ends).
 */
export function* registerScaleLines(
  inputs: RegisterScaleInputs,
  options: RegisterScaleOptions,
  summary: RegisterScaleSummary = emptySummary(),
): Generator<CorpusLine, void, undefined> {
  if (!Number.isInteger(options.marks) || options.marks < 0) throw new Error('marks must be a whole number >= 0');
  const ownClassesOf = options.ownClassesOf ?? inferNiceClasses;
  const sourceDraw: SourceDraw = (offset) => drawFrom(seededRandom((options.seed * 7919 + offset) >>> 0));
  const sources = sourcesOf(inputs, options, sourceDraw);
  for (const source of sources) {
    summary.natural[source.name] = source.natural;
    summary.written[source.name] = 0;
  }

  const draw = sourceDraw(30);
  const ownerWords = inputs.dictionaryWords.length > 0 ? inputs.dictionaryWords : ['acme'];
  const left = sources.map((source) => source.quota);
  let remaining = left.reduce((a, b) => a + b, 0);
  for (let serialNumber = 1; remaining > 0; serialNumber++) {
    // The next source in proportion to what each has left: any prefix of the file holds every kind.
    let point = Math.floor(draw.random() * remaining);
    let chosen = 0;
    while (point >= left[chosen]!) point -= left[chosen++]!;
    left[chosen]! -= 1;
    remaining--;
    const source = sources[chosen]!;
    const line = lineOf(draw, serialNumber, source.name, source.next(), ownClassesOf, ownerWords);
    summary.written[source.name] += 1;
    summary.total++;
    if (line.status_category === 'dead') summary.dead++;
    else if (line.status_category === 'pending') summary.pending++;
    else summary.live++;
    yield line;
  }
}

export function emptySummary(): RegisterScaleSummary {
  const zero = () => Object.fromEntries(SOURCES.map((name) => [name, 0])) as Record<SourceName, number>;
  return { natural: zero(), written: zero(), total: 0, live: 0, pending: 0, dead: 0 };
}

function lineOf(
  draw: Draw,
  serialNumber: number,
  source: SourceName,
  entry: Entry,
  ownClassesOf: (words: readonly string[]) => readonly NiceWeight[],
  ownerWords: readonly string[],
): CorpusLine {
  const classes = new Set<string>();
  if (source === 'dictionary' || source === 'wordnet' || source === 'pair') {
    // The word's own goods class, half of the time it has one (a mark INK in class 02 or 16, MEMORY in 09).
    const own = ownClassesOf(entry.text.toLowerCase().split(' '));
    if (own.length > 0 && draw.chance(0.5))
      classes.add(
        weighted(
          draw,
          own.map(({ nice, weight }) => [nice, weight] as const),
        ),
      );
  }
  const count = weighted(draw, CLASS_COUNT_WEIGHTS);
  while (classes.size < count) classes.add(weighted(draw, CLASS_TABLE));
  const [firstClass] = classes;
  const nice = [...classes].map(Number).sort((a, b) => a - b);

  const category = weighted(draw, STATUS_WEIGHTS);
  const statusCode = weighted(draw, STATUS_CODES[category]);
  const mark = entry.text.toUpperCase();
  const line: CorpusLine = {
    serial: `${SERIAL_PREFIX}${String(serialNumber).padStart(7, '0')}`,
    mark,
    nice,
    is_live: category === 'registered',
    status_code: statusCode,
    status_category: category,
    owner:
      source === 'brand' && draw.chance(BRAND_OWN_SHARE)
        ? `${capitalised(entry.text.toLowerCase()).slice(0, 60)} ${COMPANY_SUFFIXES[0]}`
        : ownerOf(draw, entry.text, ownerWords),
    filing_date:
      category === 'pending' ? dateOf(draw, 2024, 2026).replace(/^2026-(1[12])/, '2026-10') : dateOf(draw, 1965, 2023),
    drawing_kind: draw.chance(0.88) ? 'word' : 'both',
    goods: goodsOf(draw, firstClass!),
  };
  if (category === 'registered' || (category === 'dead' && (statusCode.startsWith('7') || statusCode === '626')))
    line.registration_number = String(draw.int(1_000_000, 7_999_999));
  return line;
}

// ------------------------------------------------------------------------------------------------ the command

const DICTIONARY_FILE = '/usr/share/dict/american-english';
const WORDNET_FILES = ['data.noun', 'data.adj', 'data.verb'].map((name) => path.join('/usr/share/wordnet', name));
const ROOT = path.join(__dirname, '..');

function missingListsMessage(missing: readonly string[]): string {
  return (
    `missing ${missing.join(', ')}: the register-scale corpus needs the Debian word lists. ` +
    'Install them with `sudo apt-get install wamerican wordnet-base` and run again.'
  );
}

/** The brands of the project's lists: lexicon known trademarks and dual-use words, the US sample, the TRO sample. */
function projectBrands(): string[] {
  const brands: string[] = [...(lexiconData.knownTrademarks as string[])];
  brands.push(...(lexiconData.dualUse as string).split(' '));
  for (const line of readFileSync(path.join(ROOT, 'data/sample/us-marks.jsonl'), 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    brands.push((JSON.parse(line) as { mark: string }).mark);
  }
  const troLines = readFileSync(path.join(ROOT, 'data/tro/tro_brands_sample.csv'), 'utf8').split('\n').slice(1);
  for (const line of troLines) {
    const brand = line.startsWith('"') ? line.slice(1, line.indexOf('"', 1)) : line.split(',')[0];
    if (brand) brands.push(brand);
  }
  return brands.filter((brand) => brand.trim() !== '');
}

/** Common words for pairs: the 20,000 commonest words of general text that are dictionary words of 3-8 letters. */
function commonWordsOf(dictionary: ReadonlySet<string>): string[] {
  const vectors = JSON.parse(readFileSync(path.join(ROOT, 'data/screening/word-vectors.json'), 'utf8')) as {
    vocabulary: string;
  };
  const stop = new Set((lexiconData.stopwords as string).split(' '));
  return vectors.vocabulary
    .split(' ')
    .slice(0, 20_000)
    .filter((word) => word.length >= 3 && word.length <= 8 && dictionary.has(word) && !stop.has(word));
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { marks: { type: 'string' }, out: { type: 'string' }, seed: { type: 'string' } },
  });
  const marks = Number(values.marks);
  const seed = Number(values.seed ?? '43');
  if (!values.marks || !Number.isInteger(marks) || marks < 0) throw new Error('--marks N (a whole number) is required');
  if (!Number.isInteger(seed)) throw new Error('--seed must be a whole number');
  if (!values.out) throw new Error('--out FILE is required');
  const missing = [DICTIONARY_FILE, ...WORDNET_FILES].filter((file) => !existsSync(file));
  if (missing.length > 0) {
    console.error(missingListsMessage(missing));
    process.exit(1);
  }
  const started = Date.now();
  const dictionaryWords = dictionaryWordsOf(readFileSync(DICTIONARY_FILE, 'utf8'));
  const wordnetLemmas = WORDNET_FILES.flatMap((file) => wordnetLemmasOf(readFileSync(file, 'utf8')));
  const inputs: RegisterScaleInputs = {
    dictionaryWords,
    wordnetLemmas,
    brands: projectBrands(),
    commonWords: commonWordsOf(new Set(dictionaryWords)),
  };

  const out = path.resolve(values.out);
  const partial = `${out}.partial`;
  const stream = createWriteStream(partial);
  const summary = emptySummary();
  let chunk = '';
  for (const line of registerScaleLines(inputs, { marks, seed }, summary)) {
    chunk += `${JSON.stringify(line)}\n`;
    if (chunk.length >= 1 << 16) {
      if (!stream.write(chunk)) await new Promise<void>((resolve) => stream.once('drain', resolve));
      chunk = '';
    }
  }
  await new Promise<void>((resolve, reject) => {
    stream.once('error', reject);
    stream.end(chunk, () => resolve());
  });
  renameSync(partial, out);

  const seconds = (Date.now() - started) / 1000;
  const perSource = SOURCES.map(
    (name) =>
      `  ${name.padEnd(12)} ${summary.written[name].toLocaleString('en').padStart(10)}  (natural ${summary.natural[name].toLocaleString('en')})`,
  ).join('\n');
  console.error(
    `Wrote ${summary.total.toLocaleString('en')} marks to ${out} in ${seconds.toFixed(1)} s (seed ${seed})\n` +
      `${perSource}\n` +
      `  live (registered) ${summary.live.toLocaleString('en')}, pending ${summary.pending.toLocaleString('en')}, dead ${summary.dead.toLocaleString('en')}\n` +
      `  inputs: ${dictionaryWords.length.toLocaleString('en')} dictionary words, ${wordnetLemmas.length.toLocaleString('en')} WordNet multi-word lemmas (before removing repeats), ` +
      `${inputs.brands.length.toLocaleString('en')} brand entries, ${inputs.commonWords.length.toLocaleString('en')} common words`,
  );
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(`error: ${(error as Error).message}`);
    process.exit(1);
  });
}
