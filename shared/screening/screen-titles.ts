/**
 * Screens listing titles for trademark conflicts.
 *
 * Input: items ({title, nice?}); `detail` for the words and conflicts behind each answer.
 * Output: one result per item, in order: risk 高/中/低, tro_hit, top_conflict ("" when nothing is left).
 *
 *  1. Split each title into words and candidate runs of words, each with its lookup keys (exact, phonetic).
 *  2. Resolve every key of the whole batch at once: from the in-memory cache; keys the market's key filter
 *     knows do not exist cost nothing; the rest in BatchGetItem rounds (US marks for every run; CN marks too for
 *     Chinese runs).
 *  3. Verify each candidate mark: exact text, or a misspelling within an edit budget that grows with length.
 *  4. Weigh each conflict (shared/screening/risk.ts): match, status, class (the item's, or inferred from its
 *     product words), how distinctive the word is, nominative use, and whether the brand files TRO suits.
 *  5. The title's risk, its TRO flag and its strongest conflict.
 */
import { editDistance, hasCjk, joined, normalizeText } from '../marks/lookup-keys';
import type { KeyFilter } from '../marks/key-filter';
import type { Market } from '../marks/mark-record';
import type { MarkStore, MarkSummary } from '../ports';
import { candidatesOf, type Candidate } from './candidates';
import { inferNiceClasses, isDualUse, isGenericWord, isKnownTrademarkWord, nominativeCueAt } from './lexicon';
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

interface Conflict {
  mark: string;
  serial: string;
  niceClasses: string[];
  isLive: boolean;
  kind: MatchKind;
  distance: number;
  candidate: Candidate;
  tro: boolean;
  troOnly: boolean;
  nominative: boolean;
  score: number;
  relation: 'same' | 'related' | 'other' | 'unknown';
  wording: 'coined' | 'dual-use' | 'generic';
}

const MAX_CONFLICTS_SHOWN = 5;

/** Edits a misspelling may have: none for short words (too many real words are one letter apart). */
export function editBudget(length: number): number {
  return length < 5 ? 0 : length < 9 ? 1 : 2;
}

export class TitleScreener {
  private readonly cache: Record<Market, Map<string, { marks: MarkSummary[]; at: number }>> = { US: new Map(), CN: new Map() };
  /** DynamoDB lookups made, for the benchmark's round-trip count. */
  lookups = 0;

  constructor(
    private readonly sources: ScreeningSources,
    private readonly options: { cacheTtlMs?: number; cacheEntries?: number } = {},
  ) {}

  async screen(items: readonly ScreeningItem[], options: { detail?: boolean } = {}): Promise<ScreeningResult[]> {
    const analysed = items.map((item) => {
      const words = wordsOfTitle(item.title);
      return { item, words, candidates: candidatesOf(words) };
    });
    const [found, tro] = await Promise.all([this.resolve(analysed.flatMap((a) => a.candidates)), this.sources.tro()]);
    return analysed.map(({ item, words, candidates }) => this.judge(item, words, candidates, found, tro, options.detail ?? false));
  }

  /** Every key of the batch, once: cached ones from memory, the rest from the store. */
  private async resolve(candidates: readonly Candidate[]): Promise<Map<string, MarkSummary[]>> {
    const now = Date.now();
    const ttl = this.options.cacheTtlMs ?? 5 * 60_000;
    const wanted: Record<Market, Set<string>> = { US: new Set(), CN: new Set() };
    for (const c of candidates) {
      wanted.US.add(c.exactKey);
      if (c.phoneticKey) wanted.US.add(c.phoneticKey);
      if (c.cjk) wanted.CN.add(c.exactKey);
    }
    const found = new Map<string, MarkSummary[]>();
    await Promise.all(
      (['US', 'CN'] as const).map(async (market) => {
        const filter = await this.sources.keyFilter?.(market);
        const missing: string[] = [];
        const cache = this.cache[market];
        for (const key of wanted[market]) {
          const cached = cache.get(key);
          if (cached && now - cached.at < ttl) {
            if (cached.marks.length) found.set(`${market}#${key}`, cached.marks);
          } else if (!filter || filter.mightContain(key)) missing.push(key);
          else this.remember(cache, key, [], now);
        }
        if (missing.length === 0) return;
        this.lookups++;
        const fetched = await this.sources.marks.lookup(market, missing);
        for (const key of missing) {
          const marks = fetched.get(key) ?? [];
          this.remember(cache, key, marks, now);
          if (marks.length) found.set(`${market}#${key}`, marks);
        }
      }),
    );
    return found;
  }

  private remember(cache: Map<string, { marks: MarkSummary[]; at: number }>, key: string, marks: MarkSummary[], at: number): void {
    if (cache.size >= (this.options.cacheEntries ?? 500_000)) {
      // Drop the oldest tenth: Map keeps insertion order.
      let drop = Math.ceil(cache.size / 10);
      for (const k of cache.keys()) {
        cache.delete(k);
        if (--drop === 0) break;
      }
    }
    cache.set(key, { marks, at });
  }

  private judge(
    item: ScreeningItem,
    words: readonly TitleWord[],
    candidates: readonly Candidate[],
    found: Map<string, MarkSummary[]>,
    tro: TroIndex,
    detail: boolean,
  ): ScreeningResult {
    const norms = words.map((w) => w.norm);
    const itemClasses: ItemClasses = item.nice
      ? { classes: [{ nice: item.nice, weight: 1 }], explicit: true }
      : { classes: inferNiceClasses(norms).slice(0, 3), explicit: false };
    const titleCase = words.filter((w) => !w.cjk).length >= 3 && words.filter((w) => w.capitalised).length >= 0.7 * words.filter((w) => !w.cjk).length;

    const bySerial = new Map<string, Conflict>();
    const troCandidates = new Set<Candidate>();
    const consider = (conflict: Omit<Conflict, 'score' | 'relation' | 'wording' | 'nominative'>) => {
      const wording = wordingOf(words, conflict.candidate, titleCase);
      let relevance = classRelevance(conflict.niceClasses, itemClasses);
      // A word with an everyday meaning next door to the brand's goods ("coach" whistle, sports; the Coach brand,
      // bags and clothing) is most likely that everyday meaning: only the brand's own class counts for it.
      // When the brand's class is not on record, nothing confirms the brand is meant: a word that is also a product
      // descriptor ("Solid", "Black", "Glass") then weighs as another class, any other ordinary word half.
      if (wording.kind === 'dual-use' && relevance.relation === 'related') relevance = { weight: 0.3, relation: 'other' };
      if (wording.kind === 'dual-use' && relevance.relation === 'unknown') {
        const descriptor = words.slice(conflict.candidate.start, conflict.candidate.end).every((w) => isGenericWord(w.norm));
        relevance = { weight: descriptor ? 0.3 : 0.5, relation: 'unknown' };
      }
      const status = conflict.troOnly ? 0.8 : STATUS_WEIGHT[conflict.isLive ? 'registered' : 'dead'];
      // A near miss is a misspelling of the brand only where the item sells the brand's goods (or the brand sues):
      // elsewhere "Hippo" is a hippo, not a misspelt "Hipp".
      const nearMissElsewhere = conflict.kind === 'fuzzy' && !conflict.tro && relevance.relation !== 'same' && relevance.relation !== 'related';
      const score = nearMissElsewhere ? 0 : MATCH_WEIGHT[conflict.kind] * status * relevance.weight * wording.weight;
      const nominative = nominativeCueAt(norms, conflict.candidate.start);
      const full: Conflict = { ...conflict, score, relation: relevance.relation, wording: wording.kind, nominative };
      if (full.tro) troCandidates.add(conflict.candidate);
      const previous = bySerial.get(conflict.serial);
      if (!previous || previous.score < score) bySerial.set(conflict.serial, full);
    };

    for (const candidate of candidates) {
      const troMatch = tro.match(candidate.joined, candidate.phoneticKey?.slice(2), editBudget(candidate.joined.length));
      const seen = new Set<string>();
      const keys: [string, boolean][] = [[`US#${candidate.exactKey}`, true]];
      if (candidate.phoneticKey) keys.push([`US#${candidate.phoneticKey}`, false]);
      if (candidate.cjk) keys.push([`CN#${candidate.exactKey}`, true]);
      for (const [key, exactKey] of keys) {
        for (const mark of found.get(key) ?? []) {
          if (seen.has(mark.serial)) continue;
          const markJoined = joinedMarkText(mark.markText);
          const match = matchOf(candidate, markJoined, exactKey);
          if (!match) continue;
          seen.add(mark.serial);
          consider({
            mark: mark.markText,
            serial: mark.serial,
            niceClasses: mark.niceClasses,
            isLive: mark.isLive,
            kind: match.kind,
            distance: match.distance,
            candidate,
            tro: Boolean(troBrandOfMark(tro, mark.markText) ?? (troMatch && match.distance === 0 ? troMatch : undefined)),
            troOnly: false,
          });
        }
      }
      // A TRO brand named in the title counts even when no registration of it is in the data.
      if (troMatch && !troCandidates.has(candidate)) {
        consider({
          mark: troMatch.brand.brand,
          serial: `tro:${troMatch.brand.brandKey}`,
          niceClasses: [],
          isLive: true,
          kind: troMatch.distance === 0 ? 'exact' : 'fuzzy',
          distance: troMatch.distance,
          candidate,
          tro: true,
          troOnly: true,
        });
      }
    }

    const conflicts = [...bySerial.values()].sort(
      (a, b) => Number(isTroHit(b)) - Number(isTroHit(a)) || b.score - a.score || Number(b.isLive) - Number(a.isLive) || a.distance - b.distance,
    );
    const risk = riskOf(conflicts);
    const top = risk === '低' ? undefined : conflicts[0];
    const result: ScreeningResult = { name: item.title, risk, tro_hit: conflicts.some(isTroHit), top_conflict: top?.mark ?? '' };
    if (detail) {
      const standing = conflicts.filter((c) => c.score >= CONFLICT_FLOOR);
      result.brand_words = [...new Set(standing.flatMap((c) => words.slice(c.candidate.start, c.candidate.end).map((w) => w.text)))];
      result.conflicts = standing.slice(0, MAX_CONFLICTS_SHOWN).map((c) => ({
        mark: c.mark,
        serial: c.troOnly ? '' : c.serial,
        nice: c.niceClasses.join(','),
        is_live: c.isLive ? 1 : 0,
        match: c.kind,
        words: words.slice(c.candidate.start, c.candidate.end).map((w) => w.text),
        tro: c.tro,
        score: Math.round(c.score * 100) / 100,
        reason: reasonOf(c, item),
      }));
    }
    return result;
  }
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

function matchOf(candidate: Candidate, markJoined: string, viaExactKey: boolean): { kind: MatchKind; distance: number } | undefined {
  if (markJoined === candidate.joined) return { kind: 'exact', distance: 0 };
  if (viaExactKey) {
    // Found under an exact key but written otherwise: one script's part of a mixed mark, or its transliteration.
    return { kind: candidate.cjk !== hasCjk(markJoined) || hasCjk(markJoined) ? 'transliteration' : 'exact', distance: 0 };
  }
  const budget = editBudget(candidate.joined.length);
  const distance = editDistance(candidate.joined, markJoined, budget);
  return distance <= budget ? { kind: 'fuzzy', distance } : undefined;
}

function wordingOf(words: readonly TitleWord[], candidate: Candidate, titleCase: boolean): { kind: Conflict['wording']; weight: number } {
  const run = words.slice(candidate.start, candidate.end);
  if (run.length > 1) {
    // Ordinary words that together are a mark ("Hot Wheels", "Black Diamond") read like one where brands stand.
    const allOrdinary = run.every((w) => isGenericWord(w.norm) || isDualUse(w.norm));
    return allOrdinary ? { kind: 'dual-use', weight: candidate.start <= 1 ? 0.65 : 0.3 } : { kind: 'coined', weight: 1 };
  }
  const word = run[0]!;
  if (isKnownTrademarkWord(word.norm)) return { kind: 'coined', weight: 1 };
  if (isDualUse(word.norm)) {
    // Where brands stand: the first words. Capitals say little in a Title Case title, and a lower-case brand up
    // front is still probably the brand.
    const brandPosition = candidate.start <= 1;
    const weight = brandPosition ? (word.capitalised || titleCase ? 0.65 : 0.5) : 0.3;
    return { kind: 'dual-use', weight };
  }
  if (isGenericWord(word.norm)) return { kind: 'generic', weight: 0.15 };
  return { kind: 'coined', weight: 1 };
}

function reasonOf(c: Conflict, item: ScreeningItem): string {
  const parts: string[] = [];
  parts.push(
    c.kind === 'exact' ? `"${c.mark}" appears as written` : c.kind === 'transliteration' ? `"${c.mark}" in another script` : `close to "${c.mark}" (${c.distance} letter${c.distance === 1 ? '' : 's'} apart)`,
  );
  if (c.troOnly) parts.push('a brand that files Schedule A TRO suits');
  else {
    parts.push(c.isLive ? 'a live registration' : 'a dead registration');
    const classes = c.niceClasses.length ? `class ${c.niceClasses.join(', ')}` : 'no class on record';
    parts.push(c.relation === 'same' ? `${classes}, the item's class` : c.relation === 'related' ? `${classes}, related to the item's` : c.relation === 'other' ? `${classes}, not the item's${item.nice ? '' : ' (inferred)'}` : classes);
    if (c.tro) parts.push('the owner files Schedule A TRO suits');
  }
  if (c.wording === 'dual-use') parts.push('also an ordinary word: weighed by context');
  if (c.wording === 'generic') parts.push('a generic product word here');
  if (c.nominative) parts.push('nominative use ("for", "compatible with"): still a risk on marketplaces');
  return parts.join('; ');
}

export { HIGH_SCORE };
