/**
 * A title's conflicts and its answer. Each matched mark keeps its most probable use in the title; its level is
 * 高 when the probability reaches the model's high threshold (or it is a TRO brand that counts at all), 中 when it
 * reaches the medium threshold, and a nominative use ("compatible with X", "for X", "X compatible") of a brand that
 * files no TRO suits is 中 at most. Two matches that would share words are two readings of them, and only the
 * stronger stands (uncrossed). The title takes its strongest conflict's level; ties go to the more probable brand use.
 */
import type { BrandUseModel } from './brand-use-model';
import type { Candidate } from './candidates';
import type { ClassRelation } from './class-relation';
import type { MatchKind, RunMatch } from './run-matches';
import type { ScreeningItem } from './title-context';
import type { TitleWord } from './title-words';
import { brandKey } from './allowlist';

export type Risk = '高' | '中' | '低';

export interface ConflictDetail {
  mark: string;
  serial: string;
  nice: string;
  is_live: 0 | 1;
  match: MatchKind;
  words: string[];
  tro: boolean;
  /** The probability that the title uses the mark as a brand. */
  score: number;
  reason: string;
  /** One of the calling account's own brands: shown, never raised (see allowlist.ts). */
  allowlisted?: true;
}

export interface ScreeningResult {
  name: string;
  risk: Risk;
  tro_hit: boolean;
  top_conflict: string;
  brand_words?: string[];
  conflicts?: ConflictDetail[];
}

/** One matched mark weighed in one title. */
export interface Conflict {
  match: RunMatch;
  candidate: Candidate;
  probability: number;
  nominative: boolean;
  /** A mark the register shows as strong, named as a brand (mark-strength.ts): 中 at least. */
  strong: boolean;
  /** A registered name of three words or more written as registered (mark-strength.ts namesLongName): 中 at least. */
  longName: boolean;
  /** Strong and named as the item's own brand (isStrongItemBrand): ranked before the title's maker. */
  strongItemBrand: boolean;
  /** A TRO brand's name spelt as an English word where the maker stands (namesTroBrandInAWord): 中 at least. */
  troNameAsWord?: boolean;
  /** A device's own name, named as the device a part is made for (namesDeviceByItsName): 中 at least. */
  namedDevice?: boolean;
  evasion: boolean;
  relation: ClassRelation;
  /** Every word of the run is a lexicon word (a product, descriptive or ordinary word). */
  ordinaryWords: boolean;
}

const MAX_CONFLICTS_SHOWN = 5;
const NO_BRANDS: ReadonlySet<string> = new Set();

export class TitleConflicts {
  private readonly bySerial = new Map<string, Conflict>();
  /** Conflicts with the caller's own brands: kept apart, so they never decide the risk, the TRO hit or the top conflict. */
  private readonly allowlisted = new Map<string, Conflict>();

  constructor(
    private readonly model: BrandUseModel,
    private readonly allowlist: ReadonlySet<string> = NO_BRANDS,
  ) {}

  /**
   * Keeps each mark's most probable use. The registrations one owner holds of one text (STAR WARS in class 28, in
   * 9 and 41, in 16 and 25) are one mark here: the conflict is with the brand, not with each filing.
   */
  consider(conflict: Conflict): void {
    const into =
      this.allowlist.size > 0 && this.allowlist.has(brandKey(conflict.match.mark)) ? this.allowlisted : this.bySerial;
    const { match } = conflict;
    const key = match.owner === undefined ? match.serial : `${match.owner} ${brandKey(match.mark)}`;
    const previous = into.get(key);
    if (previous === undefined || conflict.probability > previous.probability) into.set(key, conflict);
  }

  /** 2 for 高, 1 for 中, 0 for none. */
  levelOf(c: Conflict): number {
    // Under the model's threshold only strength counts: a TRO brand's named as the item's maker is 高, as any TRO
    // brand that counts is; another strong mark's is 中, and so is a device's name in a part's title.
    if (c.probability < this.model.medium)
      return c.strong ? (c.match.tro && !c.nominative ? 2 : 1) : c.troNameAsWord || c.namedDevice || c.longName ? 1 : 0;
    if (c.match.tro) return 2;
    return c.probability >= this.model.high && !c.nominative ? 2 : 1;
  }

  /**
   * Strongest first: TRO hits, then by level; at the same level a mark whose words hold another's ("Hello Kitty"
   * over "Hello", "Hugo Boss" over "Hugo") before it; then a mark of the requested market (batch screening
   * answers for the US: a CN mark is found for a Chinese run but is not the market's own conflict) before a CN
   * one; then a mark the register shows as strong, named as the item's brand rather than what it fits (the licensed
   * character before the maker that licensed it: "Rubies Teenage Mutant Ninja Turtles"; but "Empire ... for Samsung
   * Galaxy" and "Lapguard HP Pavilion dv5-1005ef Battery" stay on their maker); then the title's first words, where
   * its maker's name stands ("3M Scotch Tape" is on 3M, "Empire ... for Samsung" on Empire); then by probability; at
   * equal probability the earlier words, the closer spelling, and registerOrder.
   */
  ranked(): Conflict[] {
    const all = this.uncrossed();
    const level = new Map(all.map((c) => [c, this.levelOf(c)]));
    const inside = new Set(
      all.filter((c) => all.some((o) => o !== c && level.get(o)! >= level.get(c)! && holds(o.candidate, c.candidate))),
    );
    return all.sort(
      (a, b) =>
        Number(this.isTroHit(b)) - Number(this.isTroHit(a)) ||
        level.get(b)! - level.get(a)! ||
        Number(inside.has(a)) - Number(inside.has(b)) ||
        Number(a.match.cn) - Number(b.match.cn) ||
        Number(b.strongItemBrand) - Number(a.strongItemBrand) ||
        Number(b.candidate.start === 0) - Number(a.candidate.start === 0) ||
        b.probability - a.probability ||
        a.candidate.start - b.candidate.start ||
        a.match.distance - b.match.distance ||
        this.registerOrder(a, b),
    );
  }

  /**
   * The last word between conflicts alike in all the above: a live registration, then the owner's stronger
   * portfolio (more registrations of the text, more classes), then the serial, so that the answer never depends on
   * the order the register's keys hold their marks in.
   */
  private registerOrder(a: Conflict, b: Conflict): number {
    return (
      Number(b.match.isLive) - Number(a.match.isLive) ||
      b.match.ownerRegistrations - a.match.ownerRegistrations ||
      b.match.ownerClasses.length - a.match.ownerClasses.length ||
      (a.match.serial < b.match.serial ? -1 : a.match.serial > b.match.serial ? 1 : 0)
    );
  }

  /**
   * The conflicts whose words no stronger reading of the title claims. Two matches that share words without one
   * holding the other are two readings of those words, and only one can be what the seller wrote: in "store n go
   * pro usb flash drive" the words "store n go" name STORE 'N' GO and "go pro" would need the same "go". The reading
   * with the higher level keeps the words; at the same level, the one that reads more of the title's words as one
   * name (a seller writes a product line's name whole: "store n go" and then "pro", not "store n" and then "go pro"),
   * then the more probable brand use, then the earlier words. The other is dropped: it is not raised, not even as a
   * TRO hit. A match inside another ("Hello" in "Hello Kitty") is no second reading and stays (ranked() puts it after
   * the one that holds it).
   */
  private uncrossed(): Conflict[] {
    const all = [...this.bySerial.values()];
    if (all.length < 2) return all;
    const level = new Map(all.map((c) => [c, this.levelOf(c)]));
    const wordsRead = (c: Conflict) => c.candidate.end - c.candidate.start;
    const stronger = (a: Conflict, b: Conflict) =>
      level.get(a)! - level.get(b)! ||
      wordsRead(a) - wordsRead(b) ||
      a.probability - b.probability ||
      b.candidate.start - a.candidate.start;
    return all.filter(
      (c) => level.get(c) === 0 || !all.some((o) => o !== c && crosses(o.candidate, c.candidate) && stronger(o, c) > 0),
    );
  }

  private isTroHit(c: Conflict): boolean {
    return c.match.tro && this.levelOf(c) > 0;
  }

  result(item: ScreeningItem, words: readonly TitleWord[], detail: boolean): ScreeningResult {
    const conflicts = this.ranked();
    const level = conflicts.length ? this.levelOf(conflicts[0]!) : 0;
    const risk: Risk = level === 2 ? '高' : level === 1 ? '中' : '低';
    const result: ScreeningResult = {
      name: item.title,
      risk,
      tro_hit: conflicts.some((c) => this.isTroHit(c)),
      top_conflict: level > 0 ? conflicts[0]!.match.mark : '',
    };
    if (detail) {
      const standing = conflicts.filter((c) => this.levelOf(c) > 0);
      const wordsOf = (c: Conflict) => words.slice(c.candidate.start, c.candidate.end).map((w) => w.text);
      result.brand_words = [...new Set(standing.flatMap(wordsOf))];
      const allowlisted = [...this.allowlisted.values()]
        .filter((c) => this.levelOf(c) > 0)
        .sort((a, b) => b.probability - a.probability);
      const shown = [...standing.slice(0, MAX_CONFLICTS_SHOWN), ...allowlisted.slice(0, MAX_CONFLICTS_SHOWN)];
      result.conflicts = shown.map((c) => ({
        mark: c.match.mark,
        serial: c.match.troOnly ? '' : c.match.serial,
        nice: c.match.niceClasses.join(','),
        is_live: c.match.isLive ? 1 : 0,
        match: c.match.kind,
        words: wordsOf(c),
        tro: c.match.tro,
        score: Math.round(c.probability * 1000) / 1000,
        reason: reasonOf(c, item),
        ...(allowlisted.includes(c) ? { allowlisted: true as const } : {}),
      }));
    }
    return result;
  }
}

/** The two share words and neither holds all of the other's. */
function crosses(a: Candidate, b: Candidate): boolean {
  return a.start < b.end && b.start < a.end && (a.start < b.start ? a.end < b.end : a.start > b.start && a.end > b.end);
}

/** `outer` spans more words than `inner`, all of inner's among them. */
function holds(outer: Candidate, inner: Candidate): boolean {
  return outer.start <= inner.start && outer.end >= inner.end && outer.end - outer.start > inner.end - inner.start;
}

export function noConflictResult(item: ScreeningItem, detail: boolean): ScreeningResult {
  const result: ScreeningResult = { name: item.title, risk: '低', tro_hit: false, top_conflict: '' };
  if (detail) {
    result.brand_words = [];
    result.conflicts = [];
  }
  return result;
}

function reasonOf(conflict: Conflict, item: ScreeningItem): string {
  const { match, relation, nominative } = conflict;
  const parts: string[] = [];
  parts.push(
    match.kind === 'exact'
      ? `"${match.mark}" appears as written`
      : match.kind === 'transliteration'
        ? `"${match.mark}" in another script`
        : `close to "${match.mark}" (${match.distance} letter${match.distance === 1 ? '' : 's'} apart)`,
  );
  if (conflict.evasion) parts.push('spelt with look-alike letters, digits or letters set apart');
  if (match.troOnly) parts.push('a brand that files Schedule A TRO suits');
  else {
    parts.push(match.isLive ? 'a live registration' : 'a dead registration');
    const classes = match.niceClasses.length ? `class ${match.niceClasses.join(', ')}` : 'no class on record';
    parts.push(
      relation === 'same'
        ? `${classes}, the item's class`
        : relation === 'related'
          ? `${classes}, related to the item's`
          : relation === 'other'
            ? `${classes}, not the item's${item.nice ? '' : ' (inferred)'}`
            : classes,
    );
    if (match.tro) parts.push('the owner files Schedule A TRO suits');
    if (conflict.namedDevice) parts.push('the name of the device a part is made for');
    if (conflict.longName && !conflict.strong)
      parts.push(`a name of ${conflict.candidate.end - conflict.candidate.start} words, written as registered`);
    if (conflict.troNameAsWord)
      parts.push(`spelt as the word "${conflict.candidate.run.joined}", one letter from the brand's name`);
    if (conflict.strong && !match.tro)
      parts.push(
        `a strong mark: its owner holds ${match.ownerRegistrations} live registrations of it in ${match.ownerClasses.length} classes`,
      );
  }
  if (conflict.ordinaryWords) parts.push('also ordinary words: judged by context');
  if (nominative)
    parts.push('nominative use ("for", "compatible with", a device a part fits): still a risk on marketplaces');
  parts.push(`brand use ${Math.round(conflict.probability * 100)}% likely`);
  return parts.join('; ');
}
