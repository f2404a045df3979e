/**
 * Screens listing titles for trademark conflicts.
 *
 * Input: items ({title, nice?}); `detail` for the words and conflicts behind each answer.
 * Output: one result per item, in order: risk 高/中/低, tro_hit, top_conflict ("" when nothing is left).
 *
 *  1. Split each title into words and candidate runs of words, each with its lookup keys (exact, phonetic); words
 *     and runs are shared between titles (title-words.ts, candidates.ts), so each is worked out once.
 *  2. Resolve every key of the whole batch at once: a run whose cache entries are fresh costs nothing; keys the
 *     market's key filter knows do not exist cost nothing; the rest in BatchGetItem rounds (US marks for every run;
 *     CN marks too for Chinese runs).
 *  3. Verify each run's marks: exact text, or a misspelling within an edit budget that grows with length; the
 *     verified matches stay on the run until its entries or the TRO list change.
 *  4. Weigh each conflict (shared/screening/risk.ts): match, status, class (the item's, or inferred from its
 *     product words), how distinctive the word is and where it stands, a person's name, nominative use, and
 *     whether the brand files TRO suits. Titles with no match skip this step.
 *  5. The title's risk, its TRO flag and its strongest conflict.
 */
import { editDistance, hasCjk, joined, normalizeText } from '../marks/lookup-keys';
import type { KeyFilter } from '../marks/key-filter';
import type { Market } from '../marks/mark-record';
import type { MarkStore, MarkSummary } from '../ports';
import { RunTable, type Candidate, type Run } from './candidates';
import { factsOfNormalised, followsNominativeCue, inferNiceClassesOfFacts, isNumberLike, nominativeCueOfNormalised, type WordFacts } from './lexicon';
import { CONFLICT_FLOOR, HIGH_SCORE, MATCH_WEIGHT, STATUS_WEIGHT, classRelevance, riskOf, type ItemClasses, type MatchKind, type Risk } from './risk';
import { wordsOfTitle, type TitleWord } from './title-words';
import type { TroIndex } from './tro-index';

export interface ScreeningItem {
  title: string;
  /** Two-digit Nice class, when the seller gives one. */
  nice?: string;
}

export interface ConflictDetail {
  mark: string;
  serial: string;
  nice: string;
  is_live: 0 | 1;
  match: MatchKind;
  words: string[];
  tro: boolean;
  score: number;
  reason: string;
}

export interface ScreeningResult {
  name: string;
  risk: Risk;
  tro_hit: boolean;
  top_conflict: string;
  brand_words?: string[];
  conflicts?: ConflictDetail[];
}

export interface ScreeningSources {
  marks: Pick<MarkStore, 'lookup'>;
  tro: () => Promise<TroIndex>;
  /** Which keys exist in a market; without one, every key is looked up. */
  keyFilter?: (market: Market) => Promise<KeyFilter | undefined>;
}

/** A run's match weighed in one title. */
interface Conflict {
  match: RunMatch;
  candidate: Candidate;
  /** The brand files TRO suits (the match's). */
  tro: boolean;
  nominative: boolean;
  score: number;
  relation: 'same' | 'related' | 'other' | 'unknown';
  wording: 'coined' | 'dual-use' | 'generic';
  /** The run is one word of a person's name ("Victor Hugo"). */
  personName: boolean;
}

/** What one lookup key held when it was fetched (or known absent from the key filter). */
interface KeyEntry {
  readonly marks: readonly MarkSummary[];
  readonly at: number;
}

/**
 * A mark filed under one of a run's keys that the run's text really matches, or a TRO brand the run names when no
 * registration of it is in the data (`troOnly`).
 */
interface RunMatch {
  readonly mark: string;
  readonly serial: string;
  readonly niceClasses: readonly string[];
  readonly isLive: boolean;
  readonly kind: MatchKind;
  readonly distance: number;
  readonly tro: boolean;
  readonly troOnly: boolean;
  /** Found in the CN register (a title with Chinese text is also looked up there). */
  readonly cn: boolean;
}

/**
 * What the screener knows about a run (kept on the run, see candidates.ts): the cache entries of its keys, and
 * the verified matches and TRO match worked out from them, redone only when an entry or the TRO list changes.
 */
interface RunState {
  /** The batch that last checked this run's entries. */
  batch: number;
  usExact: KeyEntry | undefined;
  usPhonetic: KeyEntry | undefined;
  cnExact: KeyEntry | undefined;
  /** What `matches` were worked out from. */
  verifiedUsExact: KeyEntry | undefined;
  verifiedUsPhonetic: KeyEntry | undefined;
  verifiedCnExact: KeyEntry | undefined;
  verifiedTro: TroIndex | undefined;
  matches: readonly RunMatch[];
}

const MAX_CONFLICTS_SHOWN = 5;
const NO_MARKS: readonly MarkSummary[] = Object.freeze([]);
const NO_MATCHES: readonly RunMatch[] = Object.freeze([]);
const NO_CLASSES: readonly string[] = Object.freeze([]);

/** Edits a misspelling may have: none for short words (too many real words are one letter apart). */
export function editBudget(length: number): number {
  return length < 5 ? 0 : length < 9 ? 1 : 2;
}

function stateOf(run: Run): RunState {
  let state = run.memo as RunState | undefined;
  if (state === undefined) {
    state = { batch: 0, usExact: undefined, usPhonetic: undefined, cnExact: undefined, verifiedUsExact: undefined, verifiedUsPhonetic: undefined, verifiedCnExact: undefined, verifiedTro: undefined, matches: NO_MATCHES };
    run.memo = state;
  }
  return state;
}

export class TitleScreener {
  private readonly cache: Record<Market, Map<string, KeyEntry>> = { US: new Map(), CN: new Map() };
  private readonly runs = new RunTable();
  private batches = 0;
  /** DynamoDB lookups made, for the benchmark's round-trip count. */
  lookups = 0;

  constructor(
    private readonly sources: ScreeningSources,
    private readonly options: { cacheTtlMs?: number; cacheEntries?: number } = {},
  ) {}

  async screen(items: readonly ScreeningItem[], options: { detail?: boolean } = {}): Promise<ScreeningResult[]> {
    const analysed: { item: ScreeningItem; words: TitleWord[]; candidates: Candidate[] }[] = [];
    for (const item of items) {
      const words = wordsOfTitle(item.title);
      analysed.push({ item, words, candidates: this.runs.candidatesOf(words) });
    }
    const [, tro] = await Promise.all([this.resolve(analysed), this.sources.tro()]);
    const detail = options.detail ?? false;
    const results: ScreeningResult[] = [];
    for (const { item, words, candidates } of analysed) results.push(this.judge(item, words, candidates, tro, detail));
    return results;
  }

  /**
   * Every key of the batch, once: a run whose entries are fresh costs nothing more; the other keys come from the
   * cache, are known absent from the key filter, or are fetched from the store, one lookup per market.
   */
  private async resolve(analysed: readonly { candidates: readonly Candidate[] }[]): Promise<void> {
    const now = Date.now();
    const ttl = this.options.cacheTtlMs ?? 5 * 60_000;
    const fresh = (entry: KeyEntry | undefined): boolean => entry !== undefined && now - entry.at < ttl;
    const oldest = now - ttl;
    const batch = ++this.batches;
    const pending: Run[] = [];
    const wanted: Record<Market, Set<string>> = { US: new Set(), CN: new Set() };
    for (const { candidates } of analysed) {
      for (const { run } of candidates) {
        const state = stateOf(run);
        if (state.batch === batch) continue;
        state.batch = batch;
        const usExact = state.usExact !== undefined && state.usExact.at > oldest;
        const usPhonetic = run.phoneticKey === undefined || (state.usPhonetic !== undefined && state.usPhonetic.at > oldest);
        const cnExact = !run.cjk || (state.cnExact !== undefined && state.cnExact.at > oldest);
        if (usExact && usPhonetic && cnExact) continue;
        pending.push(run);
        if (!usExact) wanted.US.add(run.exactKey);
        if (!usPhonetic) wanted.US.add(run.phoneticKey!);
        if (!cnExact) wanted.CN.add(run.exactKey);
      }
    }
    if (pending.length === 0) return;

    const entries: Record<Market, Map<string, KeyEntry>> = { US: new Map(), CN: new Map() };
    await Promise.all(
      (['US', 'CN'] as const).map(async (market) => {
        if (wanted[market].size === 0) return;
        const filter = await this.sources.keyFilter?.(market);
        const missing: string[] = [];
        const cache = this.cache[market];
        for (const key of wanted[market]) {
          const cached = cache.get(key);
          if (fresh(cached)) entries[market].set(key, cached!);
          else if (!filter || filter.mightContain(key)) missing.push(key);
          else entries[market].set(key, this.remember(cache, key, NO_MARKS, now));
        }
        if (missing.length === 0) return;
        this.lookups++;
        const fetched = await this.sources.marks.lookup(market, missing);
        for (const key of missing) entries[market].set(key, this.remember(cache, key, fetched.get(key) ?? NO_MARKS, now));
      }),
    );
    for (const run of pending) {
      const state = stateOf(run);
      state.usExact = entries.US.get(run.exactKey) ?? state.usExact;
      if (run.phoneticKey !== undefined) state.usPhonetic = entries.US.get(run.phoneticKey) ?? state.usPhonetic;
      if (run.cjk) state.cnExact = entries.CN.get(run.exactKey) ?? state.cnExact;
    }
  }

  private remember(cache: Map<string, KeyEntry>, key: string, marks: readonly MarkSummary[], at: number): KeyEntry {
    if (cache.size >= (this.options.cacheEntries ?? 500_000)) {
      // Drop the oldest tenth: Map keeps insertion order.
      let drop = Math.ceil(cache.size / 10);
      for (const k of cache.keys()) {
        cache.delete(k);
        if (--drop === 0) break;
      }
    }
    const entry: KeyEntry = { marks, at };
    cache.set(key, entry);
    return entry;
  }

  /** The run's verified matches, worked out again only when its entries or the TRO list changed. */
  private verify(run: Run, tro: TroIndex): RunState {
    const state = stateOf(run);
    if (state.verifiedTro === tro && state.verifiedUsExact === state.usExact && state.verifiedUsPhonetic === state.usPhonetic && state.verifiedCnExact === state.cnExact) return state;
    const troMatch = tro.match(run.joined, run.skeleton, editBudget(run.joined.length));
    const matches: RunMatch[] = [];
    let troAmongMarks = false;
    const sources: [KeyEntry | undefined, boolean, boolean][] = [[state.usExact, true, false], [state.usPhonetic, false, false], [state.cnExact, true, true]];
    for (const [entry, viaExactKey, cn] of sources) {
      for (const mark of entry?.marks ?? NO_MARKS) {
        if (matches.some((m) => m.serial === mark.serial)) continue;
        const match = matchOf(run, joinedMarkText(mark.markText), viaExactKey);
        if (!match) continue;
        const isTro = Boolean(troBrandOfMark(tro, mark.markText) ?? (troMatch && match.distance === 0 ? troMatch : undefined));
        troAmongMarks ||= isTro;
        matches.push({ mark: mark.markText, serial: mark.serial, niceClasses: mark.niceClasses, isLive: mark.isLive, kind: match.kind, distance: match.distance, tro: isTro, troOnly: false, cn });
      }
    }
    // A TRO brand named in the title counts even when no registration of it is in the data.
    if (troMatch && !troAmongMarks) {
      matches.push({
        mark: troMatch.brand.brand,
        serial: `tro:${troMatch.brand.brandKey}`,
        niceClasses: NO_CLASSES,
        isLive: true,
        kind: troMatch.distance === 0 ? 'exact' : 'fuzzy',
        distance: troMatch.distance,
        tro: true,
        troOnly: true,
        cn: false,
      });
    }
    state.matches = matches.length ? matches : NO_MATCHES;
    state.verifiedUsExact = state.usExact;
    state.verifiedUsPhonetic = state.usPhonetic;
    state.verifiedCnExact = state.cnExact;
    state.verifiedTro = tro;
    return state;
  }

  private judge(item: ScreeningItem, words: readonly TitleWord[], candidates: readonly Candidate[], tro: TroIndex, detail: boolean): ScreeningResult {
    let title: TitleContext | undefined;
    for (const candidate of candidates) {
      const { matches } = this.verify(candidate.run, tro);
      if (matches === NO_MATCHES) continue;
      title ??= new TitleContext(item, words);
      for (const match of matches) title.consider(match, candidate);
    }
    return title ? title.result(detail) : noConflictResult(item, detail);
  }
}

function noConflictResult(item: ScreeningItem, detail: boolean): ScreeningResult {
  const result: ScreeningResult = { name: item.title, risk: '低', tro_hit: false, top_conflict: '' };
  if (detail) {
    result.brand_words = [];
    result.conflicts = [];
  }
  return result;
}

/** One title being judged: what its conflicts are weighed against, worked out only for titles that have any. */
class TitleContext {
  private readonly bySerial = new Map<string, Conflict>();
  private classes: ItemClasses | undefined;
  private norms: string[] | undefined;
  private titleCaseValue: boolean | undefined;

  constructor(
    private readonly item: ScreeningItem,
    private readonly words: readonly TitleWord[],
  ) {}

  private get normalised(): string[] {
    return (this.norms ??= this.words.map(normOf));
  }

  private get itemClasses(): ItemClasses {
    return (this.classes ??= this.item.nice
      ? { classes: [{ nice: this.item.nice, weight: 1 }], explicit: true }
      : { classes: inferNiceClassesOfFacts(this.words.map(factsOf)).slice(0, 3), explicit: false });
  }

  /**
   * Three or more Latin words, 70% of them capitalised or all of them in capitals ("ROYAL COTTON KURTA"): capitals
   * say little about any one word.
   */
  private get titleCase(): boolean {
    if (this.titleCaseValue === undefined) {
      let latin = 0;
      let capitalised = 0;
      let shouting = true;
      for (const word of this.words) {
        if (word.cjk) continue;
        latin++;
        if (word.capitalised) capitalised++;
        shouting &&= word.text === word.text.toUpperCase();
      }
      this.titleCaseValue = latin >= 3 && (capitalised >= 0.7 * latin || shouting);
    }
    return this.titleCaseValue;
  }

  /**
   * The item's classes as the words around the candidate infer them: a word whose meaning is in question is no
   * evidence of what the item is ("Apple MC414HN/A" is not sold as fruit because it says apple).
   */
  private itemClassesAround(candidate: Candidate): ItemClasses {
    if (this.item.nice) return this.itemClasses;
    let own = false;
    for (let i = candidate.start; i < candidate.end && !own; i++) own = this.words[i]!.facts.classes.length > 0;
    if (!own) return this.itemClasses;
    const facts = this.words.map((word, i) => (i >= candidate.start && i < candidate.end ? { ...word.facts, classes: [] } : word.facts));
    return { classes: inferNiceClassesOfFacts(facts).slice(0, 3), explicit: false };
  }

  consider(match: RunMatch, candidate: Candidate): void {
    const words = this.words;
    const wording = wordingOf(words, candidate, this.titleCase, followsNominativeCue(this.normalised, candidate.start));
    let relevance = classRelevance(match.niceClasses, this.itemClassesAround(candidate));
    // A word with an everyday meaning next door to the brand's goods ("coach" whistle, sports; the Coach brand,
    // bags and clothing) is most likely that everyday meaning: only the brand's own class counts for it.
    if (wording.kind === 'dual-use' && relevance.relation === 'related') relevance = OTHER_CLASS;
    // When the brand's class is not on record, nothing confirms the brand is meant: a word that describes the
    // product ("Black", "Glass", "Solid") then weighs as another class, and so does any other product or ordinary
    // word, except where a maker's name stands: first in the title, capitalised, before the words naming the
    // product ("Pilot Ball Pen"); there it weighs half, like a word that is no product word at all.
    if (wording.kind === 'dual-use' && relevance.relation === 'unknown') {
      // Words that describe end with a word that describes ("Black Leather", "Neon Pink"); "Green House" ends with
      // a thing, and names one.
      const describes = words[candidate.end - 1]!.facts.descriptor;
      let allGeneric = true;
      for (let i = candidate.start; i < candidate.end; i++) allGeneric &&= words[i]!.facts.generic;
      const weak = describes || (allGeneric && !this.isMakerSlot(candidate));
      relevance = weak ? UNKNOWN_CLASS_DESCRIPTOR : UNKNOWN_CLASS_ORDINARY;
    }
    const status = match.troOnly ? 0.8 : STATUS_WEIGHT[match.isLive ? 'registered' : 'dead'];
    // A near miss is a misspelling of the brand only where the item sells the brand's goods (or the brand sues):
    // elsewhere "Hippo" is a hippo, not a misspelt "Hipp".
    const nearMissElsewhere = match.kind === 'fuzzy' && !match.tro && relevance.relation !== 'same' && relevance.relation !== 'related';
    // Nor is a word spelled right: "Pearl" is a pearl, not a misspelt "Perl"; "Channel" is not "Chanel".
    const wordOfItsOwn = match.kind === 'fuzzy' && isLexiconWordRun(words, candidate);
    // One word of a person's full name ("Victor Hugo") names that person, not the brand filed under the word alone,
    // unless the item sells the brand's own goods or the brand sues. A mark of the whole name is its own run.
    const personName = !match.tro && relevance.relation !== 'same' && candidate.end - candidate.start === 1 && isInPersonName(words, candidate.start);
    const score = nearMissElsewhere || wordOfItsOwn ? 0 : MATCH_WEIGHT[match.kind] * status * relevance.weight * wording.weight * (personName ? PERSON_NAME_WEIGHT : 1);
    const previous = this.bySerial.get(match.serial);
    if (previous && previous.score >= score) return;
    const nominative = nominativeCueOfNormalised(this.normalised, candidate.start) !== undefined;
    this.bySerial.set(match.serial, { match, candidate, tro: match.tro, nominative, score, relation: relevance.relation, wording: wording.kind, personName });
  }

  /**
   * First in the title, capitalised (or in a Title Case title), with words naming a product or a model code after
   * it ("Pilot Ball Pen", "Apple MC414HN/A"); not a word that names what products are for or made of followed
   * straight by a product word, which is one compound product name ("Wine Bag", "Note Book"; but "Icon Book
   * Cover": no product is an icon something).
   */
  private isMakerSlot(candidate: Candidate): boolean {
    const words = this.words;
    if (candidate.start !== 0 || !(words[0]!.capitalised || this.titleCase)) return false;
    const last = words[candidate.end - 1]!;
    const next = words[candidate.end];
    if (last.facts.modifier && next !== undefined && next.facts.classes.length > 0) return false;
    for (let i = candidate.end; i < words.length; i++) {
      if ((words[i]!.facts.classes.length > 0 && !words[i]!.facts.dualUse) || isModelCodeAt(words, i)) return true;
    }
    return false;
  }

  result(detail: boolean): ScreeningResult {
    const { item, words } = this;
    // The strongest conflict first: a TRO brand; then by the risk each one alone would give, and at the same risk
    // the title's own brand before a brand it only says it fits ("Icon Cover for iPad": Icon), a US registration
    // before a CN one (CN marks are shown beside: the CN register is a beta), and the brand in the maker's place
    // before one further on, which is most often a model or a part ("Intel ... E3-1220 Processor": Intel); then by
    // score.
    const conflicts = [...this.bySerial.values()].sort(
      (a, b) =>
        Number(isTroHit(b)) - Number(isTroHit(a)) ||
        levelOf(b) - levelOf(a) ||
        Number(a.nominative) - Number(b.nominative) ||
        Number(a.match.cn) - Number(b.match.cn) ||
        Number(b.candidate.start === 0) - Number(a.candidate.start === 0) ||
        b.score - a.score ||
        Number(b.match.isLive) - Number(a.match.isLive) ||
        a.match.distance - b.match.distance,
    );
    const risk = riskOf(conflicts);
    const top = risk === '低' ? undefined : conflicts[0]?.match;
    const result: ScreeningResult = { name: item.title, risk, tro_hit: conflicts.some(isTroHit), top_conflict: top?.mark ?? '' };
    if (detail) {
      const standing = conflicts.filter((c) => c.score >= CONFLICT_FLOOR);
      result.brand_words = [...new Set(standing.flatMap((c) => words.slice(c.candidate.start, c.candidate.end).map((w) => w.text)))];
      result.conflicts = standing.slice(0, MAX_CONFLICTS_SHOWN).map((c) => ({
        mark: c.match.mark,
        serial: c.match.troOnly ? '' : c.match.serial,
        nice: c.match.niceClasses.join(','),
        is_live: c.match.isLive ? 1 : 0,
        match: c.match.kind,
        words: words.slice(c.candidate.start, c.candidate.end).map((w) => w.text),
        tro: c.tro,
        score: Math.round(c.score * 100) / 100,
        reason: reasonOf(c, item),
      }));
    }
    return result;
  }
}

function normOf(word: TitleWord): string {
  return word.norm;
}

function factsOf(word: TitleWord): WordFacts {
  return word.facts;
}

/** A mark names a TRO brand as a whole, or in one of its scripts ("耐克 NIKE" is Nike's). */
function troBrandOfMark(tro: TroIndex, markText: string) {
  const words = normalizeText(markText).split(' ');
  const latin = words.filter((w) => !hasCjk(w)).join('');
  return tro.names(words.join('')) ?? (latin && latin.length < words.join('').length ? tro.names(latin) : undefined);
}

const joinedMarks = new Map<string, string>();

/** A mark's text as a joined key, remembered: the same popular marks come up in title after title. */
function joinedMarkText(markText: string): string {
  let value = joinedMarks.get(markText);
  if (value === undefined) {
    if (joinedMarks.size > 100_000) joinedMarks.clear();
    value = joined(normalizeText(markText));
    joinedMarks.set(markText, value);
  }
  return value;
}

function isTroHit(c: Conflict): boolean {
  return c.tro && c.score >= CONFLICT_FLOOR;
}

/** The risk a conflict gives on its own: 2 for 高, 1 for 中, 0 for none (see riskOf). */
function levelOf(c: Conflict): number {
  if ((c.tro && c.score >= CONFLICT_FLOOR) || (c.score >= HIGH_SCORE && !c.nominative)) return 2;
  return c.score >= CONFLICT_FLOOR ? 1 : 0;
}

/** How much of a conflict is left when its word is one word of a person's name. */
const PERSON_NAME_WEIGHT = 0.3;

/**
 * Whether the word at `index` is one of two that read as a person's name: a given name and a word that is no
 * ordinary word ("Victor Hugo", "Linda Ronstadt"), written alike (both capitalised, or the title's case says nothing).
 */
function isInPersonName(words: readonly TitleWord[], index: number): boolean {
  return readsAsPersonName(words, index - 1) || readsAsPersonName(words, index);
}

function readsAsPersonName(words: readonly TitleWord[], given: number): boolean {
  const first = words[given];
  const second = words[given + 1];
  if (first === undefined || second === undefined) return false;
  // Both capitalised, or neither: in a title all in capitals (or all in lower case) the case says nothing.
  return first.facts.givenName && first.capitalised === second.capitalised && !second.cjk && !second.facts.generic && !second.facts.stopword && !second.facts.trivial;
}

const OTHER_CLASS = { weight: 0.3, relation: 'other' } as const;
const UNKNOWN_CLASS_DESCRIPTOR = { weight: 0.3, relation: 'unknown' } as const;
const UNKNOWN_CLASS_ORDINARY = { weight: 0.5, relation: 'unknown' } as const;

function matchOf(run: Run, markJoined: string, viaExactKey: boolean): { kind: MatchKind; distance: number } | undefined {
  if (markJoined === run.joined) return { kind: 'exact', distance: 0 };
  if (viaExactKey) {
    // Found under an exact key but written otherwise: one script's part of a mixed mark, or its transliteration.
    return { kind: run.cjk !== hasCjk(markJoined) || hasCjk(markJoined) ? 'transliteration' : 'exact', distance: 0 };
  }
  const budget = editBudget(run.joined.length);
  const distance = editDistance(run.joined, markJoined, budget);
  return distance <= budget ? { kind: 'fuzzy', distance } : undefined;
}

/** `afterCue`: the candidate comes straight after a nominative cue, which introduces a brand ("for Echo"). */
function wordingOf(words: readonly TitleWord[], candidate: Candidate, titleCase: boolean, afterCue: boolean): { kind: Conflict['wording']; weight: number } {
  // One token of letters and digits ("3D", "4K") is one word, whatever its parts are: "3D Printed" is a description.
  if (candidate.end - candidate.start > 1 && isWholeToken(words, candidate)) {
    const facts = factsOfNormalised(candidate.run.joined);
    if (facts.generic && !facts.dualUse) return { kind: 'generic', weight: 0.15 };
  }
  if (candidate.end - candidate.start > 1) {
    // Words joined by "&" with no space ("Lock&Lock") are written as one name, not as the words they are.
    let ampersands = true;
    for (let i = candidate.start; i < candidate.end - 1 && ampersands; i++) ampersands = words[i]!.ampersand;
    if (ampersands) return { kind: 'coined', weight: 1 };
    // Ordinary words that together are a mark ("Hot Wheels", "Black Diamond") read like one where brands stand.
    let allOrdinary = true;
    for (let i = candidate.start; i < candidate.end && allOrdinary; i++) allOrdinary = words[i]!.facts.generic || words[i]!.facts.dualUse;
    return allOrdinary ? { kind: 'dual-use', weight: afterCue || isBrandPosition(words, candidate) ? 0.65 : 0.3 } : { kind: 'coined', weight: 1 };
  }
  const word = words[candidate.start]!;
  if (word.facts.knownTrademark) return { kind: 'coined', weight: 1 };
  if (word.facts.dualUse) {
    // Where brands stand: the first words. Capitals say little in a Title Case title, and a lower-case brand up
    // front is still probably the brand.
    const brandPosition = afterCue || isBrandPosition(words, candidate);
    const weight = brandPosition ? (word.capitalised || titleCase ? 0.65 : 0.5) : 0.3;
    return { kind: 'dual-use', weight };
  }
  if (word.facts.generic) return { kind: 'generic', weight: 0.15 };
  return { kind: 'coined', weight: 1 };
}

/**
 * Where brands stand: the first two words, or the first word after words that only describe ("Certified
 * Refurbished Ring Video Doorbell"; but not "Premium Phone Socket Holder").
 */
function isBrandPosition(words: readonly TitleWord[], candidate: Candidate): boolean {
  if (candidate.start <= 1) return true;
  let lead = 0;
  while (lead < candidate.start && words[lead]!.facts.descriptor) lead++;
  return candidate.start === lead;
}

/** Every word of the candidate is one the lexicon knows (a product, descriptive or ordinary word). */
function isLexiconWordRun(words: readonly TitleWord[], candidate: Candidate): boolean {
  for (let i = candidate.start; i < candidate.end; i++) {
    const facts = words[i]!.facts;
    if (!facts.generic && !facts.dualUse) return false;
  }
  return true;
}

/** Characters of a token of letters and digits from which it reads as a model code ("MC414HN", "T948B2"), not a size ("4K", "5L"). */
const MODEL_CODE_MIN_CHARS = 5;

/**
 * A token starts at `index` that mixes letters and digits, long enough to be a model code, and is no quantity or
 * size ("500ml", "1080p", "10x20").
 */
function isModelCodeAt(words: readonly TitleWord[], index: number): boolean {
  if (index > 0 && words[index - 1]!.continued) return false;
  let letters = false;
  let digits = false;
  let token = '';
  for (let i = index; i < words.length; i++) {
    const word = words[i]!;
    if (word.cjk) return false;
    if (/^\d/.test(word.norm)) digits = true;
    else letters = true;
    token += word.norm;
    if (!word.continued) break;
  }
  return letters && digits && token.length >= MODEL_CODE_MIN_CHARS && !isNumberLike(token);
}

/** The candidate's words are the parts of one token, all of it. */
function isWholeToken(words: readonly TitleWord[], candidate: Candidate): boolean {
  if (candidate.start > 0 && words[candidate.start - 1]!.continued) return false;
  for (let i = candidate.start; i < candidate.end - 1; i++) if (!words[i]!.continued) return false;
  return !words[candidate.end - 1]!.continued;
}

function reasonOf(conflict: Conflict, item: ScreeningItem): string {
  const { match, relation, wording, nominative } = conflict;
  const parts: string[] = [];
  parts.push(
    match.kind === 'exact'
      ? `"${match.mark}" appears as written`
      : match.kind === 'transliteration'
        ? `"${match.mark}" in another script`
        : `close to "${match.mark}" (${match.distance} letter${match.distance === 1 ? '' : 's'} apart)`,
  );
  if (match.troOnly) parts.push('a brand that files Schedule A TRO suits');
  else {
    parts.push(match.isLive ? 'a live registration' : 'a dead registration');
    const classes = match.niceClasses.length ? `class ${match.niceClasses.join(', ')}` : 'no class on record';
    parts.push(relation === 'same' ? `${classes}, the item's class` : relation === 'related' ? `${classes}, related to the item's` : relation === 'other' ? `${classes}, not the item's${item.nice ? '' : ' (inferred)'}` : classes);
    if (match.tro) parts.push('the owner files Schedule A TRO suits');
  }
  if (wording === 'dual-use') parts.push('also an ordinary word: weighed by context');
  if (wording === 'generic') parts.push('a generic product word here');
  if (conflict.personName) parts.push("one word of a person's name here");
  if (nominative) parts.push('nominative use ("for", "compatible with"): still a risk on marketplaces');
  return parts.join('; ');
}

export { HIGH_SCORE };
