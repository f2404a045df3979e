/**
 * The labelled data of the screening model and its evaluation, split BY BRAND: every brand group (the key of the
 * brand's maker name, so "Adobe" and "Adobe Systems Inc" are one group: labelled-titles.ts makerName; Amazon's marks
 * are one group) falls in exactly one of train, validation and test, by a SHA-256 of the seed and the group, so no
 * brand is fitted on in one split and judged in another. Titles without a label are not used.
 *
 * Two mark corpora, both loaded through the real ingest code into the in-memory stores (test/support):
 *   shipped      the sample corpus `npm start` loads (data/sample, data/tro, data/uspto);
 *   registered   the same plus every labelled brand as a live word mark, its classes mapped from the product words
 *                of its titles (a marks-jsonl batch built here).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { ingestBatch } from '../../shared/ingest/ingest-batch';
import { isNamePhrase, isUnordinaryWord } from '../../shared/screening/brand-spans';
import { followsNominativeCue, inferNiceClassesOfFacts } from '../../shared/screening/lexicon';
import { isCommonPhrase } from '../../shared/screening/word-frequencies';
import type { MarkSummary } from '../../shared/ports';
import { createScreeningService } from '../../shared/screening/screening-service';
import type { CandidateExample, TitleScreener } from '../../shared/screening/screen-titles';
import { wordsOfTitle } from '../../shared/screening/title-words';
import { loadSampleCorpus } from '../../local/sample-corpus';
import { createInMemoryDataStores } from '../../test/support/in-memory-data-stores';
import { unlistedTerms } from './common-terms';
import { screenByBrandGroup } from './plain-word-counts';
import { AMAZON_MARKS, brandKey, labelledTitles, type LabelledSet, type LabelledTitle } from './labelled-titles';

export const SPLIT_SEED = 'screening-split-2026-11';
export type Split = 'train' | 'validation' | 'test';
export type CorpusMode = 'shipped' | 'registered';

export function splitOf(group: string, seed = SPLIT_SEED): Split {
  const bucket = createHash('sha256').update(`${seed}\n${group}`).digest().readUInt32BE(0) / 2 ** 32;
  return bucket < 0.6 ? 'train' : bucket < 0.8 ? 'validation' : 'test';
}

/**
 * The cross-fitting folds of the train split (builders/train-screening-model.ts): the Platt scaling and the
 * thresholds are chosen on the validation titles and on every train title as scored by trees fitted without its
 * brand group's fold, about five times the titles validation alone holds. By SHA-256 of a seed and the group, so
 * one maker's titles share a fold.
 */
export const CROSS_FIT_FOLDS = 5;
const CROSS_FIT_SEED = 'screening-cross-fit-2026-11';

export function crossFitFold(group: string): number {
  return createHash('sha256').update(`${CROSS_FIT_SEED}\n${group}`).digest().readUInt32BE(0) % CROSS_FIT_FOLDS;
}

/**
 * The train titles that are scored out of fold: all but those of a brand group that is a whole labelled set's
 * train titles (Amazon's marks are the Markup set's one group). Trees fitted without such a group have never seen
 * its marketplace, unlike the model that ships; how the model does on an unseen marketplace is the hold-out check's
 * to say (holdOutSet).
 */
export function crossFitGroups(train: SplitTitles): Set<string> {
  const groupsOfSet = new Map<string, Set<string>>();
  for (const t of train.branded) {
    const groups = groupsOfSet.get(t.set) ?? new Set<string>();
    groups.add(t.group);
    groupsOfSet.set(t.set, groups);
  }
  return new Set([...groupsOfSet.values()].filter((groups) => groups.size > 1).flatMap((groups) => [...groups]));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The title without the brand: every occurrence, however it is cased, as a whole word or words. */
export function withoutBrand(title: string, brand: string): string {
  return title
    .replace(new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(brand)}(?=$|[^\\p{L}\\p{N}])`, 'giu'), '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The brand is written in the title as whole words. */
export function namesBrand(title: string, brand: string): boolean {
  return brand !== '' && withoutBrand(title, brand) !== title.replace(/\s+/g, ' ').trim();
}

export interface SplitTitles {
  /** Labelled titles that name their brand. */
  branded: LabelledTitle[];
  /** The same titles with the brand taken out (and empty ones dropped). */
  removed: LabelledTitle[];
}

/** A split's titles in the order the trainer reads them: those naming their brand, then the same with it removed. */
export function brandedThenRemoved(split: SplitTitles): LabelledTitle[] {
  return [...split.branded, ...split.removed];
}

/**
 * The titles of each split, the brand keys labelled in each, and `allBrands`: every labelled brand's key, the
 * names the labels know as brands (a title that names one of them in words that are not ordinary words mentions a
 * brand, whatever split the brand's own titles are in; see labelOf).
 */
export function splitTitles(): Record<Split, SplitTitles> & {
  brands: Record<Split, Set<string>>;
  allBrands: Set<string>;
} {
  const out = {
    train: { branded: [], removed: [] },
    validation: { branded: [], removed: [] },
    test: { branded: [], removed: [] },
  } as Record<Split, SplitTitles>;
  const brands: Record<Split, Set<string>> = { train: new Set(), validation: new Set(), test: new Set() };
  for (const t of labelledTitles()) {
    if (!t.group || t.brandKeys.length === 0 || !namesBrand(t.title, t.brand)) continue;
    const split = splitOf(t.group);
    out[split].branded.push(t);
    for (const key of t.brandKeys) brands[split].add(key);
    let stripped = t.title;
    const named = t.set === 'markup-amazon' ? AMAZON_MARKS.filter((mark) => namesBrand(t.title, mark)) : [t.brand];
    for (const mark of named) stripped = withoutBrand(stripped, mark);
    if (stripped && wordsOfTitle(stripped).length > 0)
      out[split].removed.push({ ...t, id: `${t.id}:removed`, title: stripped, brandKeys: [] });
  }
  const allBrands = new Set([...brands.train, ...brands.validation, ...brands.test]);
  return { ...out, brands, allBrands };
}

/**
 * One labelled set held out whole, for a check across marketplaces: `kept` is every split without that set's
 * titles; `heldOut` is that set's train and validation titles (its test titles stay unread) whose brand no kept
 * train title has, so a model fitted on `kept` has seen neither the marketplace nor the brands.
 */
export function holdOutSet(
  splits: ReturnType<typeof splitTitles>,
  set: LabelledSet,
): { kept: ReturnType<typeof splitTitles>; heldOut: SplitTitles } {
  const without = (s: SplitTitles): SplitTitles => ({
    branded: s.branded.filter((t) => t.set !== set),
    removed: s.removed.filter((t) => t.set !== set),
  });
  const kept = {
    ...splits,
    train: without(splits.train),
    validation: without(splits.validation),
    test: without(splits.test),
  };
  const seen = new Set(kept.train.branded.flatMap((t) => t.brandKeys));
  const unseen = (t: LabelledTitle) => t.set === set && !seen.has(brandKey(t.brand));
  const heldOut = {
    branded: [...splits.train.branded, ...splits.validation.branded].filter(unseen),
    removed: [...splits.train.removed, ...splits.validation.removed].filter(unseen),
  };
  return { kept, heldOut };
}

/** The classes the product words of some titles point to: those with a quarter of the weight or more, at most 3. */
export function classesOfTitles(titles: readonly string[]): string[] {
  const totals = new Map<string, number>();
  for (const title of titles)
    for (const { nice, weight } of inferNiceClassesOfFacts(wordsOfTitle(title).map((w) => w.facts)))
      totals.set(nice, (totals.get(nice) ?? 0) + weight);
  const sum = [...totals.values()].reduce((a, b) => a + b, 0);
  return [...totals.entries()]
    .filter(([, w]) => w >= 0.25 * sum)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([n]) => n)
    .sort();
}

export function markLine(serial: string, mark: string, nice: readonly string[]): string {
  return JSON.stringify({ serial, mark, nice, is_live: true, drawing_kind: 'word' });
}

/** The labelled brands as a canonical marks-jsonl batch: one live word mark each, classes from its titles. */
export function registeredBrandBatch(): string {
  const byKey = new Map<string, { spellings: Map<string, number>; titles: string[] }>();
  for (const t of labelledTitles()) {
    if (!t.brand || !t.group) continue;
    const key = brandKey(t.brand);
    if (!key) continue;
    const entry = byKey.get(key) ?? { spellings: new Map<string, number>(), titles: [] as string[] };
    entry.spellings.set(t.brand, (entry.spellings.get(t.brand) ?? 0) + 1);
    if (entry.titles.length < 20) entry.titles.push(withoutBrand(t.title, t.brand));
    byKey.set(key, entry);
  }
  const lines: string[] = [];
  let serial = 0;
  for (const [, entry] of [...byKey.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const mark = [...entry.spellings.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
    lines.push(markLine(`LB-${String(++serial).padStart(6, '0')}`, mark, classesOfTitles(entry.titles)));
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The common terms of goods holding an unlisted word (unlistedTerms: "Pci Express", "Micro Usb") as live word
 * marks, classes from their own words: for training only (loadCorpus's `termMarks`), so that titles using such a
 * term as a term are seen matched by a mark.
 */
export function termMarkBatch(): string {
  const lines = unlistedTerms().map((term, i) =>
    markLine(
      `TM-${String(i + 1).padStart(6, '0')}`,
      term.replace(/\b\p{L}/gu, (c) => c.toUpperCase()),
      classesOfTitles([term]),
    ),
  );
  return `${lines.join('\n')}\n`;
}

export interface Corpus {
  screener: TitleScreener;
  marks: number;
  stores: ReturnType<typeof createInMemoryDataStores>;
}

/**
 * A register-scale corpus (`npm run data:register-scale`: every dictionary word somebody's mark) to load first, under
 * the sample corpus and the labelled brands: the trainer's and the evaluation's `--register FILE`. Its marks are
 * ingested before the labelled brands, so a labelled brand's own record is the newest under its key.
 */
/**
 * The marks of the register-scale corpus that the labelled titles can find (builders/build-register-slice.ts): for
 * those titles, the same matches as the whole 1,000,000-mark corpus, in a file small enough to ship and load in
 * seconds. Loaded under every corpus here unless another register (or none: null) is named.
 */
export const REGISTER_SLICE = path.join(__dirname, '../../data/screening/register-slice.jsonl.gz');

export interface CorpusOptions {
  termMarks?: boolean;
  /** A marks-jsonl file of a register-scale corpus; REGISTER_SLICE by default, none with null. */
  register?: string | null;
  /** Told of every mark each lookup of the screener found, with its key (builders/build-register-slice.ts). */
  onFound?: (marks: Iterable<MarkSummary>, key: string) => void;
  /** A marks-jsonl batch ingested last (the marks sellers' reports name: feedback-examples.ts). */
  extra?: { batch: string; source: string };
}

/** A screener over the chosen corpus, loaded through the real ingest code into in-memory stores. */
export async function loadCorpus(
  mode: CorpusMode,
  options: Parameters<typeof createScreeningService>[1] = {},
  { termMarks = false, register = REGISTER_SLICE, onFound, extra }: CorpusOptions = {},
): Promise<Corpus> {
  const stores = createInMemoryDataStores();
  if (onFound) {
    const lookup = stores.marks.lookup.bind(stores.marks);
    stores.marks.lookup = async (market, keys) => {
      const found = await lookup(market, keys);
      for (const [key, marks] of found) onFound(marks, key);
      return found;
    };
  }
  if (register) {
    const summary = await ingestBatch(stores, {
      kind: 'marks-jsonl',
      market: 'US',
      input: register.endsWith('.gz') ? createReadStream(register).pipe(createGunzip()) : createReadStream(register),
      batchDate: '2026-11-21',
      source: path.basename(register),
      holder: 'screening-dataset',
    });
    if (!summary.complete) throw new Error(`${register}: ${JSON.stringify(summary)}`);
  }
  await loadSampleCorpus(stores);
  const ingest = async (batch: string, source: string) => {
    const summary = await ingestBatch(stores, {
      kind: 'marks-jsonl',
      market: 'US',
      input: Readable.from([batch]),
      batchDate: '2026-11-24',
      source,
      holder: 'screening-dataset',
    });
    if (!summary.complete || summary.rejected > 0) throw new Error(`${source} batch: ${JSON.stringify(summary)}`);
  };
  if (mode === 'registered') await ingest(registeredBrandBatch(), 'labelled-brands');
  if (termMarks) await ingest(termMarkBatch(), 'term-marks');
  if (extra) await ingest(extra.batch, extra.source);
  let marks = 0;
  for await (const _ of stores.marks.allSerials('US')) marks++;
  return { screener: createScreeningService(stores, { refreshMs: 3_600_000, ...options }).screener, marks, stores };
}

export interface LabelledExample extends CandidateExample {
  title: LabelledTitle;
  label: 0 | 1;
  /** How many examples this one stands for in the fit (thinRegisterNegatives); 1 when absent. */
  weight?: number;
}

/**
 * Whether a match is a brand use by the labels: the title's own labelled brand; or a mark the title names as
 * written, in a whole word or words of which one is no ordinary word (not a product, descriptive, stopword or
 * number word, nor an English dictionary word: "Cover for Samsung Galaxy", "Dell Inspiron ... Battery"). The labels give each title one brand, but
 * titles name other brands too (what an accessory fits, the maker of a part); such a mention is a brand use, and
 * calling it none would teach the model that a coined brand after "for" is no brand. A mark matched by ordinary
 * words only ("Regular Fit", "Crown"), by words that are together a common term ("PCI Express": isTermRun) or cut
 * out of a longer token or hyphenated code counts only when it is the title's own brand.
 */
export function labelOf(example: CandidateExample, title: LabelledTitle): 0 | 1 {
  if (title.brandKeys.includes(brandKey(example.match.mark))) return 1;
  return namesMarkInCoinedWords(example) || namesMarkNominatively(example) || namesMarkAsName(example) ? 1 : 0;
}

/**
 * The run names a registered name of two words or more as written, as whole words (isNamePhrase: "Star Wars" in
 * "Hasbro Star Wars Clone Wars ... Playset", "League of Legends" on a maker's mug, "Amazon Echo" where the label
 * says Echo). The labels give each title one brand, its maker; the licensed name or product line beside it is a
 * brand use too. Called none, it taught the model that a famous name made of dictionary words is no brand after
 * its licensee's name (0.017 for "Hasbro Star Wars Lightsaber" under 2026-11-29-67f7b5c3).
 */
export function namesMarkAsName(example: Pick<CandidateExample, 'match' | 'candidate' | 'words'>): boolean {
  const { match, candidate, words } = example;
  if (match.kind !== 'exact') return false;
  const cut = (i: number) => words[i] !== undefined && (words[i]!.continued || words[i]!.hyphen);
  if (cut(candidate.start - 1) || cut(candidate.end - 1)) return false;
  return isNamePhrase(words, candidate.start, candidate.end);
}

/**
 * The run's words are, as a whole, a common term of two or three words ("PCI Express", "Micro USB": WordNet, the
 * Nice goods, the Shopify taxonomy; word-frequencies.ts): the name of a kind of thing, not of its maker, even where
 * a word of it is no dictionary word. Only the title's own brand makes such a run a brand use.
 */
export function isTermRun(example: Pick<CandidateExample, 'candidate' | 'words'>): boolean {
  const { start, end } = example.candidate;
  if (end - start < 2 || end - start > 3) return false;
  return isCommonPhrase(
    example.words
      .slice(start, end)
      .map((w) => w.norm)
      .join(' '),
  );
}

/** Words that join what a cue introduces to more of the same: "for Apple and Pear" names fruit. */
const JOINERS = new Set(['and', 'or', '&']);

/**
 * The run names the mark as written, as whole words, straight after a nominative cue ("Band Compatible with Apple
 * Watch", "Case for Samsung Galaxy"): the title names the brand its item fits, a use of the mark worth showing
 * (中 at most, title-conflicts.ts) even when its words are ordinary words. Not when the run is plain product,
 * descriptive, stop or number words ("for Men", "for Car") or is joined by "and" to more words ("for Apple and
 * Pear"), nor one word of a person's name.
 */
export function namesMarkNominatively(example: Pick<CandidateExample, 'match' | 'candidate' | 'words'>): boolean {
  const { match, candidate, words } = example;
  if (match.kind !== 'exact' || example.candidate.run.cjk) return false;
  const cut = (i: number) => words[i] !== undefined && (words[i]!.continued || words[i]!.hyphen);
  if (cut(candidate.start - 1) || cut(candidate.end - 1)) return false;
  const norms = words.map((w) => w.norm);
  if (!followsNominativeCue(norms, candidate.start)) return false;
  if (JOINERS.has(norms[candidate.end] ?? '')) return false;
  if (words[candidate.start]!.facts.givenName || isTermRun(example)) return false;
  for (let i = candidate.start; i < candidate.end; i++) {
    const facts = words[i]!.facts;
    if (facts.dualUse || !(facts.generic || facts.stopword || facts.descriptor || facts.trivial)) return true;
  }
  return false;
}

/**
 * What sellers write in a field they leave empty ("Silver NA Brass NA K Ring"): no word of a name. The labelled
 * titles hold eleven train matches of the mark NA in such fields, which the coined-word rule would call brand uses.
 */
const EMPTY_FIELD = new Set(['na', 'nil', 'none']);

/** The run names the mark as written, as whole words, one of which is no ordinary word. */
export function namesMarkInCoinedWords(example: Pick<CandidateExample, 'match' | 'candidate' | 'words'>): boolean {
  const { match, candidate, words } = example;
  // Cut out of a token of letters and digits or of hyphenated words ("FA-RK-28X28"): a code, not a name.
  const cut = (i: number) => words[i] !== undefined && (words[i]!.continued || words[i]!.hyphen);
  if (match.kind === 'fuzzy' || cut(candidate.start - 1) || cut(candidate.end - 1)) return false;
  if (isTermRun(example)) return false;
  // One word of a person's name ("Victor Hugo") names the person.
  if (
    words[candidate.start - 1]?.facts.givenName ||
    (candidate.end - candidate.start === 1 && words[candidate.start]!.facts.givenName)
  )
    return false;
  for (let i = candidate.start; i < candidate.end; i++) {
    const word = words[i]!;
    if (isUnordinaryWord(word) && word.norm.length >= 2 && !word.lookAlike && !EMPTY_FIELD.has(word.norm)) return true;
  }
  return false;
}

/**
 * Every match of the titles, labelled: each brand's titles screened without its own titles in the plain-word counts
 * (screenByBrandGroup), as the evaluation and validation read them, or, with `counts` "every title", with them (the
 * trainer's train titles).
 */
export async function labelledExamples(
  screener: TitleScreener,
  titles: readonly LabelledTitle[],
  counts: 'without own brand' | 'every title' = 'without own brand',
): Promise<LabelledExample[][]> {
  const screen = async (chunk: readonly LabelledTitle[]) => {
    const examples = await screener.examples(chunk.map((t) => ({ title: t.title })));
    return examples.map((list, j) => list.map((e) => ({ ...e, title: chunk[j]!, label: labelOf(e, chunk[j]!) })));
  };
  if (counts === 'without own brand') return screenByBrandGroup(titles, screen);
  const out: LabelledExample[][] = [];
  for (let i = 0; i < titles.length; i += 1000) out.push(...(await screen(titles.slice(i, i + 1000))));
  return out;
}

/**
 * A fingerprint of what the model is fitted and chosen on: SHA-256 of every example's label and features, in order.
 * The trainer records it for the validation titles; a test recomputes it with the engine as it stands, so a change
 * to what the engine reads (the lexicon, title words, a feature) cannot ship with a model fitted on other numbers:
 * `npm run train:screen` must run again, and must give the shipped model back when nothing changed.
 */
export function featureFingerprint(examples: readonly Pick<LabelledExample, 'label' | 'features'>[]): string {
  const hash = createHash('sha256');
  for (const example of examples) {
    hash.update(Uint8Array.of(example.label));
    hash.update(new Uint8Array(example.features.buffer, example.features.byteOffset, example.features.byteLength));
  }
  return hash.digest('hex');
}
