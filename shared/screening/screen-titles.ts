/**
 * Screens listing titles for trademark conflicts.
 *
 * Input: items ({title, nice?}); `detail` for the words and conflicts behind each answer.
 * Output: one result per item, in order: risk 高/中/低, tro_hit, top_conflict ("" when nothing is left).
 *
 *  1. Split each title into words and candidate runs of words, each with its lookup keys (exact, phonetic); words
 *     and runs are shared between titles (title-words.ts, candidates.ts), so each is worked out once. Only the runs
 *     the title's language proposes as brand spans, or that name a TRO brand, are kept (brand-spans.ts): in a
 *     register of real size every word is somebody's mark. Spellings meant to dodge filters add candidates of their
 *     own (evasion.ts).
 *  2. Resolve every key of the whole batch at once (key-resolver.ts).
 *  3. Verify each run's marks (run-matches.ts): exact text, another script, or a misspelling within an edit budget.
 *  4. Judge each match: its features (brand-use-features.ts) and the learned model (brand-use-model.ts) give the
 *     probability that the title uses the mark as a brand; a mark the register shows as strong, named as a brand,
 *     is 中 at least (mark-strength.ts). Titles with no match skip this step.
 *  5. The title's risk, its TRO flag and its strongest conflict (title-conflicts.ts).
 */
import type { KeyFilter } from '../marks/key-filter';
import { BIDI_CONTROL } from '../marks/lookup-keys';
import type { Market } from '../marks/mark-record';
import type { MarkStore } from '../ports';
import { isSpelledOutAbbreviation } from './abbreviations';
import { shippedBrandUseModel, type BrandUseModel } from './brand-use-model';
import { FEATURE_COUNT, FeatureFiller, fillFeatures, type CandidateFacts } from './brand-use-features';
import { BrandSpans, isNamePhrase } from './brand-spans';
import { RunTable, type Candidate } from './candidates';
import { classRelationOf } from './class-relation';
import { namesDeviceOfPart } from './device-reference';
import { evasionCandidates, isEvasionSpelling } from './evasion';
import { KeyResolver, type KeyCacheOptions } from './key-resolver';
import { nominativeCueAfterNormalised, nominativeCueOfNormalised } from './lexicon';
import {
  isStrongItemBrand,
  namesChineseMark,
  namesDeviceByItsName,
  namesLongName,
  namesStrongMark,
  namesTroBrandInAWord,
} from './mark-strength';
import { isMisspeltOrdinaryWord } from './misspelt-words';
import { isPlaceholder } from './placeholders';
import { isTermOfTrade } from './terms-of-trade';
import { NO_MATCHES, knownToMatchNothing, verifiedMatches, type RunMatch } from './run-matches';
import { TitleContext, type ScreeningItem } from './title-context';
import { TitleConflicts, noConflictResult, type ScreeningResult } from './title-conflicts';
import { wordsOfTitle, type TitleWord } from './title-words';
import type { TroIndex } from './tro-index';

export type { ScreeningItem } from './title-context';
export type { ConflictDetail, Risk, ScreeningResult } from './title-conflicts';

export interface ScreeningSources {
  marks: Pick<MarkStore, 'lookup'>;
  tro: () => Promise<TroIndex>;
  /** Which keys exist in a market; without one, every key is looked up. */
  keyFilter?: (market: Market) => Promise<KeyFilter | undefined>;
}

/** One match of one title with its features, as the training and evaluation commands read them. */
/** Examples by where their words stand, then the register they come from, then serial (and evasion last). */
function inExampleOrder(a: CandidateExample, b: CandidateExample): number {
  return (
    a.candidate.start - b.candidate.start ||
    a.candidate.end - b.candidate.end ||
    Number(a.match.cn) - Number(b.match.cn) ||
    (a.match.serial < b.match.serial ? -1 : a.match.serial > b.match.serial ? 1 : 0) ||
    Number(a.evasion) - Number(b.evasion)
  );
}

export interface CandidateExample {
  candidate: Candidate;
  match: RunMatch;
  words: readonly TitleWord[];
  evasion: boolean;
  features: Float64Array;
}

interface AnalysedTitle {
  item: ScreeningItem;
  words: TitleWord[];
  candidates: Candidate[];
  /** Candidates from index `evasionFrom` on come from evasion.ts. */
  evasionFrom: number;
}

const BIDI_CONTROLS = new RegExp(BIDI_CONTROL.source, 'g');
const RISK_ORDER: Record<ScreeningResult['risk'], number> = { 低: 0, 中: 1, 高: 2 };
/** Risk first, then a TRO hit. */
const strength = (result: ScreeningResult) => RISK_ORDER[result.risk] * 2 + Number(result.tro_hit);

export class TitleScreener {
  private readonly runs = new RunTable();
  private readonly keys: KeyResolver;
  private readonly features = new Float64Array(FEATURE_COUNT);
  private readonly filler = new FeatureFiller();
  private modelInUse: BrandUseModel | undefined;
  private readonly everyRun: boolean;
  /** The TRO list the last batch was judged with. */
  private judgedWith: TroIndex | undefined;

  constructor(
    private readonly sources: ScreeningSources,
    options: KeyCacheOptions & { model?: BrandUseModel; everyRun?: boolean } = {},
  ) {
    this.keys = new KeyResolver(sources, options);
    this.modelInUse = options.model;
    // Every run looked up, as before brand spans were proposed: for measuring what the proposals change.
    this.everyRun = options.everyRun ?? false;
  }

  /** The brand-use model (the shipped one unless another was given), loaded on first use. */
  get model(): BrandUseModel {
    this.modelInUse ??= shippedBrandUseModel();
    return this.modelInUse;
  }

  /** Mark store lookups made, for the benchmark's round-trip count. */
  get lookups(): number {
    return this.keys.lookups;
  }

  /** `allowlist`: the brand keys (allowlist.ts) of the caller's own brands, which are shown but never raised. */
  async screen(
    items: readonly ScreeningItem[],
    options: { detail?: boolean; allowlist?: ReadonlySet<string> } = {},
  ): Promise<ScreeningResult[]> {
    // A title with directional controls is read twice: as a viewer shows it (title-words.ts reorders what an
    // override reverses) and as written with the controls taken out, since a marketplace may show either; the
    // stronger answer stands.
    const asWritten = items.flatMap((item, index) =>
      BIDI_CONTROL.test(item.title) ? [{ index, item: { ...item, title: item.title.replace(BIDI_CONTROLS, '') } }] : [],
    );
    const { analysed, tro } = await this.analyse(
      asWritten.length ? [...items, ...asWritten.map((w) => w.item)] : items,
    );
    const detail = options.detail ?? false;
    const results = analysed.map((title) => this.judge(title, tro, detail, options.allowlist));
    asWritten.forEach(({ index }, k) => {
      const other = results[items.length + k]!;
      if (strength(other) > strength(results[index]!)) results[index] = { ...other, name: items[index]!.title };
    });
    return results.slice(0, items.length);
  }

  /**
   * Every match of every title with its features (for `npm run train:screen` and `npm run eval:screen`), in an order
   * of their own: by the title's words, then by serial. The order the store's keys hold their marks in (which a
   * change of lookup keys changes) then never reaches the fit, whose trees subsample rows.
   */
  async examples(items: readonly ScreeningItem[]): Promise<CandidateExample[][]> {
    const { analysed, tro } = await this.analyse(items);
    return analysed.map((title) => {
      const out: CandidateExample[] = [];
      this.eachMatch(title, tro, (context, candidate, match, facts) => {
        const features = new Float64Array(FEATURE_COUNT);
        fillFeatures(context, candidate, match, facts, features);
        const { evasion } = facts;
        out.push({ candidate, match, words: title.words, evasion, features });
      });
      return out.sort(inExampleOrder);
    });
  }

  /**
   * Each title's words and candidates, with every candidate run's key entries brought up to date. Most runs match
   * nothing, and that is known from fresh entries verified against the TRO list the last batch was judged with:
   * such runs are set aside (the run table keeps them quiet while their entries stay fresh), rather than looked at
   * again by the resolver and the judge. If the TRO list has changed since, the titles are analysed again with
   * every run.
   */
  private async analyse(items: readonly ScreeningItem[]): Promise<{ analysed: AnalysedTitle[]; tro: TroIndex }> {
    const now = Date.now();
    const troLoading = this.sources.tro();
    const known = this.judgedWith;
    // The spans a title proposes depend on the TRO list: the first batch waits for it, later ones take the last.
    const spansWith = known ?? (await troLoading);
    let analysed = items.map((item) => this.analyseTitle(item, known, now, spansWith));
    const [, tro] = await Promise.all([
      this.keys.resolve(
        analysed.map((a) => a.candidates),
        now,
      ),
      troLoading,
    ]);
    if (tro !== known) {
      this.judgedWith = tro;
      this.runs.forgetQuiet();
      if (known !== undefined) {
        analysed = items.map((item) => this.analyseTitle(item, undefined, now, tro));
        // Nothing to fetch: the runs set aside had fresh entries.
        await this.keys.resolve(
          analysed.map((a) => a.candidates),
          now,
        );
      }
    }
    return { analysed, tro };
  }

  /**
   * A title's words and the candidates its language proposes (with `tro`), without the runs known to match nothing
   * under `known` (if given).
   */
  private analyseTitle(item: ScreeningItem, known: TroIndex | undefined, now: number, tro: TroIndex): AnalysedTitle {
    const words = wordsOfTitle(item.title);
    let found = this.runs.candidatesOf(words, known ? now : undefined);
    if (!this.everyRun) {
      const spans = new BrandSpans(words, tro);
      found = found.filter((candidate) => spans.proposes(candidate));
    }
    // "power over ethernet poe switch": the letters name the term the title spells out, not a mark POE.
    const troName = (word: string) => tro.names(word) !== undefined;
    found = found.filter((candidate) => !isSpelledOutAbbreviation(words, candidate, troName));
    const fromTable = found.length;
    if (words.length >= 3) for (const extra of evasionCandidates(words, found)) found.push(extra);
    if (!known) return { item, words, candidates: found, evasionFrom: fromTable };
    const oldest = this.keys.oldestFresh(now);
    const candidates: Candidate[] = [];
    let evasionFrom = 0;
    for (let index = 0; index < found.length; index++) {
      const { run } = found[index]!;
      if (this.keys.isFresh(run, oldest) && knownToMatchNothing(run, known)) {
        this.runs.quiet(run, this.keys.staleFrom(run));
        continue;
      }
      if (index < fromTable) evasionFrom++;
      candidates.push(found[index]!);
    }
    return { item, words, candidates, evasionFrom };
  }

  private eachMatch(
    title: AnalysedTitle,
    tro: TroIndex,
    visit: (context: TitleContext, candidate: Candidate, match: RunMatch, facts: CandidateFacts) => void,
  ): TitleContext | undefined {
    let context: TitleContext | undefined;
    let names: Candidate[] | undefined;
    const matched: [number, readonly RunMatch[]][] = [];
    title.candidates.forEach((candidate, index) => {
      const matches = verifiedMatches(candidate.run, tro);
      if (matches === NO_MATCHES) return;
      matched.push([index, matches]);
      if (!isNameRun(title.words, candidate, matches)) return;
      names ??= [];
      names.push(candidate);
    });
    for (const [index, matches] of matched) {
      const candidate = title.candidates[index]!;
      if (context === undefined) {
        context = new TitleContext(title.item, title.words);
        if (names) context.setNames(names);
      }
      const facts: CandidateFacts = {
        evasion: index >= title.evasionFrom || isEvasionSpelling(title.words, candidate),
        runHasExact: matches.some((m) => m.kind === 'exact'),
      };
      for (const match of matches) visit(context, candidate, match, facts);
    }
    return context;
  }

  private judge(
    title: AnalysedTitle,
    tro: TroIndex,
    detail: boolean,
    allowlist?: ReadonlySet<string>,
  ): ScreeningResult {
    const conflicts = new TitleConflicts(this.model, allowlist);
    // What depends on the candidate alone is worked out once for all its matches (a run can match many marks).
    let of: Candidate | undefined;
    let ordinaryWords = true;
    let nominative = false;
    let deviceOfPart = false;
    const context = this.eachMatch(title, tro, (ctx, candidate, match, facts) => {
      // "Silver NA Brass": a feed's placeholder for a missing value names nothing. Judged here, not left out of the
      // analysis, so that the examples the model was fitted on stay as they were.
      if (isPlaceholder(title.words, candidate)) return;
      // "Sumptous Sparkle Ring": a misspelt ordinary word is the word, not the mark of it (misspelt-words.ts).
      if (isMisspeltOrdinaryWord(match)) return;
      // "Strawberry LipBalm 4g", "acid-free poly folder": a term of trade is the term, not the mark of its words
      // (terms-of-trade.ts).
      if (isTermOfTrade(title.words, candidate, match)) return;
      const { evasion } = facts;
      this.filler.fill(ctx, candidate, match, facts, this.features);
      const probability = this.model.probability(this.features);
      if (of !== candidate) {
        of = candidate;
        ordinaryWords = true;
        for (let i = candidate.start; i < candidate.end; i++)
          ordinaryWords &&= title.words[i]!.facts.generic || title.words[i]!.facts.dualUse;
        deviceOfPart = namesDeviceOfPart(ctx, candidate);
        nominative =
          deviceOfPart ||
          nominativeCueOfNormalised(ctx.normalised, candidate.start) !== undefined ||
          nominativeCueAfterNormalised(ctx.normalised, candidate.end);
      }
      const strong = namesStrongMark(ctx, candidate, match, nominative) || namesChineseMark(ctx, candidate, match);
      const longName = !strong && namesLongName(ctx, candidate, match);
      conflicts.consider({
        match,
        candidate,
        probability,
        evasion,
        nominative,
        strong,
        longName,
        // A licensed name beside its maker is the one a seller is most exposed to, as a strong mark is.
        strongItemBrand: isStrongItemBrand(ctx, candidate, strong || longName, nominative),
        troNameAsWord: !strong && namesTroBrandInAWord(ctx, candidate, match),
        namedDevice: deviceOfPart && !strong && namesDeviceByItsName(ctx, candidate, match),
        relation: detail ? classRelationOf(match.niceClasses, ctx.itemClassesAround(candidate)).relation : 'unknown',
        ordinaryWords,
      });
    });
    return context ? conflicts.result(title.item, title.words, detail) : noConflictResult(title.item, detail);
  }
}

/** A run of the title that is a name (isNamePhrase), registered as written: TitleContext.setNames. */
function isNameRun(words: readonly TitleWord[], candidate: Candidate, matches: readonly RunMatch[]): boolean {
  return isNamePhrase(words, candidate.start, candidate.end) && matches.some((m) => m.kind === 'exact' && m.isLive);
}
