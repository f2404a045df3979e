/**
 * The facts the brand-use model weighs for one candidate (a mark matched by a run of title words), as numbers:
 * the match (kind, edit distance, a spelling meant to dodge filters), the mark (length, digits, words), where the
 * run stands and what is around it (cue words before, product words or a model code after), capitals, what the
 * lexicon says of its words, how common its words are as plain words in listing titles (distinctiveness), the
 * relation of the mark's classes to the item's, what general English text says of its words (how common, how near
 * in use to the words beside them: "Eagle Feather", "Ring Light"), and status (not TRO: see setClassAndStatus). The model (brand-use-model.ts) holds one weight per
 * name below; a model fitted on another list of features is refused when it loads.
 */
import { joined, normalizeText } from '../marks/lookup-keys';
import type { Candidate } from './candidates';
import { classRelationOf } from './class-relation';
import {
  factsOfNormalised,
  followsNominativeCue,
  isListedGenericWord,
  isNumberLike,
  isUnit,
  nominativeCueOfNormalised,
} from './lexicon';
import type { RunMatch } from './run-matches';
import type { TitleContext } from './title-context';
import { distinctivenessOf, isCommonPhrase } from './word-frequencies';
import { GENERAL_WORDS, generalRankOf, similarityOfRanks } from './word-vectors';

export const FEATURE_NAMES = [
  'kind_fuzzy',
  'kind_transliteration',
  'evasion',
  'distance',
  'run_words_2',
  'run_words_3plus',
  'mark_chars_log',
  'mark_chars_le3',
  'mark_has_digit',
  'mark_has_stopword',
  'pos_first',
  'pos_second',
  'pos_brand_slot',
  'pos_relative',
  'pos_last',
  'maker_slot',
  'cue_nominative',
  'cue_right_after',
  'prev_by',
  'prev_with',
  'next_product',
  'next_model_code',
  'next_number',
  'next_descriptor',
  'capitalised',
  'title_case',
  'title_shouting',
  'title_lower',
  'all_generic',
  'any_generic',
  'all_dual_use',
  'any_dual_use',
  'last_descriptor',
  'any_product_word',
  'known_trademark',
  'person_name',
  'part_of_token',
  'whole_mixed_token',
  'plain_freq_log',
  'plain_freq_max_log',
  'unseen_word',
  'class_same',
  'class_related',
  'class_other',
  'class_strength',
  'nice_explicit',
  'item_class_none',
  'mark_class_none',
  'live',
  'cn',
  'cjk',
  'title_words_log',
  'dual_use_x_first',
  'dual_use_x_class_same',
  'generic_x_first',
  'generic_x_class_same',
  'freq_x_first',
  'freq_x_capitalised',
  'freq_x_class_same',
  'freq_x_next_product',
  'fuzzy_x_generic',
  'fuzzy_x_freq',
  'cue_x_coined',
  'part_of_token_x_short',
  'cut_from_hyphenated',
  'next_descriptor_x_dual_use',
  'ampersand_name',
  'fuzzy_x_unseen',
  'fuzzy_x_first',
  'dual_use_x_capitalised',
  'dual_use_x_next_product',
  'class_other_x_first',
  'number_like',
  'capitalised_x_first',
  'title_lower_x_first',
  'fuzzy_x_run_exact',
  'english_all',
  'english_any',
  'english_x_first',
  'english_x_class_same',
  'next_quantity',
  'next_joiner',
  'prev_given_name',
  'alone_with_quantity',
  'in_common_phrase',
  'run_common_phrase',
  'prev_number',
  'fuzzy_other_form',
  'general_rank_log',
  'similar_next',
  'similar_prev',
  'describing_all',
  'describing_x_first',
  'plain_noun_x_first',
  'goods_word_elsewhere',
] as const;

export type FeatureName = (typeof FEATURE_NAMES)[number];
export const FEATURE_COUNT = FEATURE_NAMES.length;
/**
 * Each feature's index, read as `F.name` at each write: a property of one fixed shape, so every write site reads a
 * constant (a name passed down and looked up per write cost a twentieth of screening's time).
 */
const F = Object.freeze(Object.fromEntries(FEATURE_NAMES.map((name, i) => [name, i]))) as Readonly<
  Record<FeatureName, number>
>;

/** What a candidate brings beyond its run and match. */
export interface CandidateFacts {
  /** Found through a spelling meant to dodge filters (look-alike letters, digits for letters, spaced letters). */
  evasion: boolean;
  /** The same words are, exactly, some mark: a mark they only come close to is not what they name. */
  runHasExact: boolean;
}

const DIGIT = /\d/;

/** Writes one feature (a boolean as 0 or 1). Plain functions, not closures: they run for every match. */
function put(out: Float64Array, index: number, value: number | boolean): void {
  out[index] = Number(value);
}

function at(out: Float64Array, index: number): number {
  return out[index]!;
}

/** What the lexicon and the title-word frequencies say of the run's words, summed up. */
interface WordSummary {
  allGeneric: boolean;
  anyGeneric: boolean;
  allDual: boolean;
  anyDual: boolean;
  anyProduct: boolean;
  known: boolean;
  stop: boolean;
  capitalised: boolean;
  minFreq: number;
  maxFreq: number;
  /** Every word (any word) is an English dictionary word. */
  englishAll: boolean;
  englishAny: boolean;
  /** Every word is one WordNet reads mainly as an adjective, or a descriptor (colour, material, size). */
  describingAll: boolean;
}

/**
 * A whole token of letters and digits as one word: generic only when the lexicon lists it ("3D", "4K"); one that
 * only looks like a number and a unit ("3M", three metres?) is a name as much as "V7" is (number_like says the rest).
 */
function wholeTokenWord(joined: string, capitalised: boolean) {
  const facts = factsOfNormalised(joined);
  const generic = facts.generic && isListedGenericWord(joined);
  return { facts: generic === facts.generic ? facts : { ...facts, generic }, norm: joined, capitalised, cjk: false };
}

/**
 * A token of letters and digits ("3M", "V7", "Galz4ever"), words joined by "&" ("K&N", "Lock&Lock") or a spelling
 * read back ("N1ke", "G U C C I") is one word: the lexicon's facts of its parts say nothing of it.
 */
function summariseWords(title: TitleContext, candidate: Candidate, evasion: boolean): WordSummary {
  const { words } = title;
  const { start, end, run } = candidate;
  const asOneWord = evasion || title.isWholeMixedToken(candidate) || title.isAmpersandName(candidate);
  const lexiconWords = asOneWord ? [wholeTokenWord(run.joined, words[start]!.capitalised)] : words.slice(start, end);
  const sum: WordSummary = {
    allGeneric: true,
    anyGeneric: false,
    allDual: true,
    anyDual: false,
    anyProduct: false,
    known: false,
    stop: false,
    capitalised: true,
    minFreq: Number.POSITIVE_INFINITY,
    maxFreq: 0,
    englishAll: true,
    englishAny: false,
    describingAll: true,
  };
  for (const word of lexiconWords) {
    const f = word.facts;
    sum.allGeneric &&= f.generic && !f.dualUse;
    sum.anyGeneric ||= f.generic && !f.dualUse;
    sum.allDual &&= f.dualUse;
    sum.anyDual ||= f.dualUse;
    sum.anyProduct ||= f.classes.length > 0;
    sum.known ||= f.knownTrademark;
    sum.stop ||= f.stopword;
    sum.capitalised &&= word.capitalised || word.cjk || /^\d/.test(word.norm);
    const { count, english } = distinctivenessOf(word.norm);
    sum.minFreq = Math.min(sum.minFreq, count);
    sum.maxFreq = Math.max(sum.maxFreq, count);
    sum.englishAll &&= english;
    sum.englishAny ||= english;
    sum.describingAll &&= f.describing;
  }
  return sum;
}

/** What a match brings of its own: how it matched the mark. */
function setMatch(out: Float64Array, candidate: Candidate, match: RunMatch): void {
  const { start, end, run } = candidate;
  put(out, F.kind_fuzzy, match.kind === 'fuzzy');
  put(out, F.kind_transliteration, match.kind === 'transliteration');
  put(out, F.distance, match.distance);
  put(
    out,
    F.fuzzy_other_form,
    match.kind === 'fuzzy' && end - start === 1 && isOtherForm(run.joined, joined(normalizeText(match.mark))),
  );
}

/** The run's words, as the lexicon and the title-word frequencies see them: the same for every mark it matches. */
function setWords(out: Float64Array, title: TitleContext, candidate: Candidate, facts: CandidateFacts, w: WordSummary) {
  const { start, end, run } = candidate;
  const length = end - start;
  put(out, F.evasion, facts.evasion);
  put(out, F.run_words_2, length === 2);
  put(out, F.run_words_3plus, length >= 3);
  put(out, F.mark_chars_log, Math.log(run.joined.length + 1));
  put(out, F.mark_chars_le3, run.joined.length <= 3);
  put(out, F.mark_has_digit, DIGIT.test(run.joined));
  put(out, F.number_like, isNumberLike(run.joined));
  put(out, F.mark_has_stopword, w.stop);
  put(out, F.all_generic, w.allGeneric);
  put(out, F.any_generic, w.anyGeneric);
  put(out, F.all_dual_use, w.allDual);
  put(out, F.any_dual_use, w.anyDual);
  put(out, F.any_product_word, w.anyProduct);
  put(out, F.known_trademark, w.known || (length > 1 && title.words[start]!.facts.knownTrademark));
  put(out, F.plain_freq_log, Math.log1p(w.minFreq));
  put(out, F.plain_freq_max_log, Math.log1p(w.maxFreq));
  put(out, F.unseen_word, w.minFreq === 0);
  put(out, F.last_descriptor, title.words[end - 1]!.facts.descriptor);
  put(out, F.capitalised, w.capitalised);
  put(out, F.person_name, length === 1 && title.isInPersonName(start));
  put(out, F.part_of_token, title.isPartOfToken(candidate));
  put(out, F.whole_mixed_token, title.isWholeMixedToken(candidate));
  put(out, F.cut_from_hyphenated, title.isCutFromHyphenated(candidate));
  put(out, F.ampersand_name, title.isAmpersandName(candidate));
}

/**
 * The run, one word, is the mark with letters added or taken off its end: another word made of it ("Marwari" of
 * MARWAR, "Glitzy" of GLITZ) more often than a misspelling of it. (A run of more words that starts with the mark,
 * "Tenda A5", is the mark and what follows it.)
 */
function isOtherForm(run: string, mark: string): boolean {
  return run !== mark && (run.startsWith(mark) || mark.startsWith(run));
}

/** A number and its unit start at `index` ("1 kg", "500ml", "2 pcs"). */
function isQuantityAt(title: TitleContext, index: number): boolean {
  const number = title.words[index];
  const unit = title.words[index + 1];
  return number !== undefined && /^\d+$/.test(number.norm) && unit !== undefined && isUnit(unit.norm);
}

/**
 * Whether the run and the words beside it make a term of two or three words ("surge" in "surge protector", "omega"
 * in "omega 3 fish oil"): the run is then likely part of that term rather than a name.
 */
function inCommonPhrase(norms: readonly string[], start: number, end: number): boolean {
  for (let from = Math.max(0, end - 3); from <= start; from++) {
    for (let to = end; to <= Math.min(norms.length, from + 3); to++) {
      if (to - from < 2 || (from === start && to === end)) continue;
      if (isCommonPhrase(spaced(norms, from, to))) return true;
    }
  }
  return false;
}

/** The words from `from` to `to` joined by spaces (two or three words: no array is built). */
function spaced(norms: readonly string[], from: number, to: number): string {
  let text = norms[from]!;
  for (let i = from + 1; i < to; i++) text += ` ${norms[i]!}`;
  return text;
}

/** Where the run stands, what comes before and after it, and how the title is written. */
function setContext(out: Float64Array, title: TitleContext, candidate: Candidate): void {
  const { words } = title;
  const { start, end } = candidate;
  put(out, F.pos_first, start === 0);
  put(out, F.pos_second, start === 1);
  put(out, F.pos_brand_slot, title.isBrandPosition(candidate));
  put(out, F.pos_relative, words.length > 1 ? start / (words.length - 1) : 0);
  put(out, F.pos_last, end === words.length);
  put(out, F.maker_slot, title.isMakerSlot(candidate));
  const norms = title.normalised;
  put(out, F.in_common_phrase, inCommonPhrase(norms, start, end));
  put(out, F.run_common_phrase, end - start >= 2 && end - start <= 3 && isCommonPhrase(spaced(norms, start, end)));
  put(out, F.cue_nominative, nominativeCueOfNormalised(norms, start) !== undefined);
  put(out, F.cue_right_after, followsNominativeCue(norms, start));
  const previous = start > 0 ? norms[start - 1] : undefined;
  put(out, F.prev_by, previous === 'by' || previous === 'from');
  put(out, F.prev_with, previous === 'with');
  // Right after a number the run is most often its unit ("70 gm", "5 hp"), whatever else the word may be.
  put(out, F.prev_number, previous !== undefined && /^\d+$/.test(previous));
  const next = words[end];
  put(out, F.next_product, next !== undefined && next.facts.classes.length > 0);
  put(out, F.next_model_code, next !== undefined && title.isModelCodeAt(end));
  put(out, F.next_number, next !== undefined && /^\d/.test(next.norm));
  put(out, F.next_descriptor, next?.facts.descriptor === true);
  const quantity = next !== undefined && isQuantityAt(title, end);
  put(out, F.next_quantity, quantity);
  put(
    out,
    F.next_joiner,
    next !== undefined && (next.norm === 'and' || next.norm === 'or' || words[end - 1]!.ampersand),
  );
  const before = start > 0 ? words[start - 1] : undefined;
  put(out, F.prev_given_name, before?.facts.givenName === true && before.capitalised === words[start]!.capitalised);
  // Nothing but the run and its quantity ("Apple 1 kg"): the run names the item.
  put(out, F.alone_with_quantity, quantity && start === 0 && end + 2 >= words.length);
  const casing = title.casing;
  put(out, F.title_case, casing.titleCase);
  put(out, F.title_shouting, casing.shouting);
  put(out, F.title_lower, casing.lower);
  put(out, F.title_words_log, Math.log(words.length + 1));
  setGeneralText(out, norms, start, end);
  put(out, F.goods_word_elsewhere, namesOtherGoods(title, candidate));
}

/**
 * The run names goods of its own, none of the item's class nor of one that travels with it: "Ring" in "Ring Video
 * Doorbell", "Candy" in "Candy House Polo T-Shirt". Such a word stands in the title for something else than its
 * goods, as a name does ("Ring light", where the word's goods are the item's, is left to the other features).
 */
function namesOtherGoods(title: TitleContext, candidate: Candidate): boolean {
  const own: string[] = [];
  for (let i = candidate.start; i < candidate.end; i++)
    for (const { nice } of title.words[i]!.facts.classes) own.push(nice);
  if (own.length === 0) return false;
  return classRelationOf(own, title.itemClassesAround(candidate)).relation === 'other';
}

/** No word beside the run, or one of the two not among general text's commonest words. */
const NOT_COMPARED = -2;

/**
 * How common the run's first word is in general English text, and how near in use its words stand to the words
 * beside it: a run and its neighbour of one kind ("eagle feather", "dove grey", "ring light") name a thing or a
 * shade more often than a maker and a product ("royal cotton", "pilot gel").
 */
function setGeneralText(out: Float64Array, norms: readonly string[], start: number, end: number): void {
  const first = generalRankOf(norms[start]!);
  put(out, F.general_rank_log, Math.log1p(first < 0 ? GENERAL_WORDS : first));
  put(out, F.similar_next, similarityBeside(generalRankOf(norms[end - 1]!), norms[end]));
  put(out, F.similar_prev, similarityBeside(first, start > 0 ? norms[start - 1] : undefined));
}

function similarityBeside(rank: number, beside: string | undefined): number {
  if (rank < 0 || beside === undefined) return NOT_COMPARED;
  const other = generalRankOf(beside);
  return other < 0 ? NOT_COMPARED : similarityOfRanks(rank, other);
}

/**
 * The mark's classes against the item's, its status and register. Whether the owner files TRO suits is left out:
 * it says nothing of whether the title uses the mark, only how much that use costs (title-conflicts.ts).
 */
function setClassAndStatus(out: Float64Array, title: TitleContext, candidate: Candidate, match: RunMatch): void {
  const itemClasses = title.itemClassesAround(candidate);
  const { relation, strength } = classRelationOf(match.niceClasses, itemClasses);
  put(out, F.class_same, relation === 'same');
  put(out, F.class_related, relation === 'related');
  put(out, F.class_other, relation === 'other');
  put(out, F.class_strength, strength);
  put(out, F.nice_explicit, itemClasses.explicit);
  put(out, F.item_class_none, itemClasses.classes.length === 0);
  put(out, F.mark_class_none, match.niceClasses.length === 0);
  put(out, F.live, match.isLive);
  put(out, F.cn, match.cn);
  put(out, F.cjk, candidate.run.cjk);
}

/** Products of the features above that a linear model cannot form itself. */
function setInteractions(
  out: Float64Array,
  candidate: Candidate,
  match: RunMatch,
  facts: CandidateFacts,
  w: WordSummary,
): void {
  const first = at(out, F.pos_first) === 1;
  const same = at(out, F.class_same) === 1;
  const nextProduct = at(out, F.next_product) === 1;
  const fuzzy = match.kind === 'fuzzy';
  const freq = at(out, F.plain_freq_log);
  put(out, F.dual_use_x_first, w.anyDual && first);
  put(out, F.dual_use_x_class_same, w.anyDual && same);
  put(out, F.generic_x_first, w.anyGeneric && first);
  put(out, F.generic_x_class_same, w.anyGeneric && same);
  put(out, F.freq_x_first, first ? freq : 0);
  put(out, F.freq_x_capitalised, w.capitalised ? freq : 0);
  put(out, F.freq_x_class_same, same ? freq : 0);
  put(out, F.freq_x_next_product, nextProduct ? freq : 0);
  put(out, F.fuzzy_x_generic, fuzzy && (w.anyGeneric || w.anyDual));
  put(out, F.fuzzy_x_freq, fuzzy ? freq : 0);
  put(out, F.cue_x_coined, at(out, F.cue_nominative) === 1 && !w.anyGeneric && !w.anyDual);
  put(out, F.part_of_token_x_short, at(out, F.part_of_token) === 1 && candidate.run.joined.length <= 4);
  put(out, F.next_descriptor_x_dual_use, w.anyDual && at(out, F.next_descriptor) === 1);
  put(out, F.fuzzy_x_unseen, fuzzy && w.minFreq === 0);
  put(out, F.fuzzy_x_first, fuzzy && first);
  put(out, F.dual_use_x_capitalised, w.anyDual && w.capitalised);
  put(out, F.dual_use_x_next_product, w.anyDual && nextProduct);
  put(out, F.class_other_x_first, at(out, F.class_other) === 1 && first);
  put(out, F.capitalised_x_first, w.capitalised && first);
  put(out, F.title_lower_x_first, at(out, F.title_lower) === 1 && first);
  put(out, F.fuzzy_x_run_exact, fuzzy && facts.runHasExact);
  put(out, F.english_all, w.englishAll);
  put(out, F.english_any, w.englishAny);
  put(out, F.english_x_first, w.englishAll && first);
  put(out, F.english_x_class_same, w.englishAll && same);
  put(out, F.describing_all, w.describingAll);
  put(out, F.describing_x_first, w.describingAll && first);
  // "Harp Metal Necklace", "Pilot Ball Pen": an everyday noun first that neither describes nor names goods.
  put(out, F.plain_noun_x_first, first && w.englishAll && !w.describingAll && !w.anyProduct && !w.stop);
}

/** The features that depend on the candidate alone: its words and where and how the title writes them. */
function fillCandidate(
  title: TitleContext,
  candidate: Candidate,
  facts: CandidateFacts,
  out: Float64Array,
): WordSummary {
  out.fill(0);
  const words = summariseWords(title, candidate, facts.evasion);
  setWords(out, title, candidate, facts, words);
  setContext(out, title, candidate);
  return words;
}

/** The features that depend on the match, written over the candidate's. */
function fillMatch(
  title: TitleContext,
  candidate: Candidate,
  match: RunMatch,
  facts: CandidateFacts,
  words: WordSummary,
  out: Float64Array,
): void {
  setMatch(out, candidate, match);
  setClassAndStatus(out, title, candidate, match);
  setInteractions(out, candidate, match, facts, words);
}

/** Fills `out` (length FEATURE_COUNT) with the candidate's features. */
export function fillFeatures(
  title: TitleContext,
  candidate: Candidate,
  match: RunMatch,
  facts: CandidateFacts,
  out: Float64Array,
): void {
  const words = fillCandidate(title, candidate, facts, out);
  fillMatch(title, candidate, match, facts, words, out);
}

/**
 * fillFeatures for the matches of a candidate in a row: a run can match dozens of marks (one text filed many times,
 * near spellings), and what depends on the candidate alone is worked out once for all of them. The answer is the
 * same vector fillFeatures writes.
 */
export class FeatureFiller {
  private readonly base = new Float64Array(FEATURE_COUNT);
  private title: TitleContext | undefined;
  private candidate: Candidate | undefined;
  private facts: CandidateFacts | undefined;
  private words: WordSummary | undefined;

  fill(title: TitleContext, candidate: Candidate, match: RunMatch, facts: CandidateFacts, out: Float64Array): void {
    if (this.title !== title || this.candidate !== candidate || this.facts !== facts) {
      this.words = fillCandidate(title, candidate, facts, this.base);
      this.title = title;
      this.candidate = candidate;
      this.facts = facts;
    }
    out.set(this.base);
    fillMatch(title, candidate, match, facts, this.words!, out);
  }
}
