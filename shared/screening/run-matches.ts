/**
 * Which marks a run of title words really matches. The key lookup (key-resolver.ts) brings every mark filed under
 * the run's exact and phonetic keys; this keeps those the run's text matches: the same joined text, the other
 * script of a mixed mark or its transliteration, or a misspelling within an edit budget that grows with length.
 * A TRO brand the run names counts even when no registration of it is in the data. The verified matches stay on
 * the run (see candidates.ts) until one of its key entries or the TRO list changes.
 */
import { editBudget, editDistance, hasCjk, joined, normalizeText } from '../marks/lookup-keys';
import type { MarkSummary } from '../ports';
import type { Run } from './candidates';
import type { TroIndex } from './tro-index';

export type MatchKind = 'exact' | 'transliteration' | 'fuzzy';

/** What one lookup key held when it was fetched (or known absent from the key filter). */
export interface KeyEntry {
  readonly marks: readonly MarkSummary[];
  readonly at: number;
}

/**
 * A mark filed under one of a run's keys that the run's text really matches, or a TRO brand the run names when no
 * registration of it is in the data (`troOnly`).
 */
export interface RunMatch {
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
  /**
   * The mark's owner's live registrations of the same text among the key's marks (the mark itself included, when
   * live), and the Nice classes they cover: how strong the mark is in the register (see mark-strength.ts). 1 and
   * the mark's own classes when the record names no owner.
   */
  readonly ownerRegistrations: number;
  readonly ownerClasses: readonly string[];
  /** The owner's tag (MarkSummary.owner), when the record names one. */
  readonly owner?: string;
}

export const NO_MARKS: readonly MarkSummary[] = Object.freeze([]);
export const NO_MATCHES: readonly RunMatch[] = Object.freeze([]);
const NO_CLASSES: readonly string[] = Object.freeze([]);

export { editBudget };

/**
 * `matches` still holds: it was verified against this TRO list and the marks the run's entries hold now. An entry
 * fetched again with the same marks (a key still absent holds NO_MARKS) needs no new verification.
 */
function stillVerified(run: Run, tro: TroIndex): boolean {
  return (
    run.verifiedTro === tro &&
    run.verifiedUsExact === run.usExact?.marks &&
    sameEntryMarks(run.verifiedUsFuzzy, run.usFuzzy) &&
    run.verifiedCnExact === run.cnExact?.marks
  );
}

function sameEntryMarks(verified: readonly (readonly MarkSummary[])[] | undefined, entries: readonly KeyEntry[]) {
  if (verified === undefined || verified.length !== entries.length) return false;
  for (let i = 0; i < verified.length; i++) if (verified[i] !== entries[i]!.marks) return false;
  return true;
}

/** How a key's marks are checked against a run: found by its exact text, or by a fuzzy key (d: or p:). */
type Via = 'exact' | 'fuzzy';

/** The run's matches were verified from the marks its entries hold and this TRO list, and there were none. */
export function knownToMatchNothing(run: Run, tro: TroIndex): boolean {
  return run.matches === NO_MATCHES && stillVerified(run, tro);
}

/** The run's verified matches, worked out again only when its entries' marks or the TRO list changed. */
export function verifiedMatches(run: Run, tro: TroIndex): readonly RunMatch[] {
  if (stillVerified(run, tro)) return run.matches;
  const budget = editBudget(run.joined.length);
  // A run too short for a misspelling is matched by its text alone (its skeleton is not worked out).
  const troMatch = tro.match(run.joined, budget === 0 ? undefined : run.skeleton, budget);
  const matches: RunMatch[] = [];
  let troAmongMarks = false;
  const sources: [KeyEntry | undefined, Via, boolean][] = [
    [run.usExact, 'exact', false],
    ...run.usFuzzy.map((entry): [KeyEntry, Via, boolean] => [entry, 'fuzzy', false]),
    [run.cnExact, 'exact', true],
  ];
  const serials = new Set<string>();
  for (const [entry, via, cn] of sources) {
    const marks = entry?.marks ?? NO_MARKS;
    // A key's marks share few texts (one word filed by many owners, in many classes): each text is verified once.
    const byText = new Map<string, TextMatch | null>();
    const found: [MarkSummary, TextMatch][] = [];
    let owned = false;
    for (const mark of marks) {
      // A dead registration raises no risk (a TRO brand is still found through the TRO list below). In a register of
      // real size nearly half the records are dead, so they are left out before they cost a verification.
      if (mark.statusCategory === 'dead' || serials.has(mark.serial)) continue;
      let textMatch = byText.get(mark.markText);
      if (textMatch === undefined) {
        const match = matchOf(run, joinedMarkText(mark.markText), via);
        textMatch = match
          ? {
              ...match,
              tro: Boolean(
                troBrandOfMark(tro, mark.markText) ?? (troMatch && match.distance === 0 ? troMatch : undefined),
              ),
            }
          : null;
        byText.set(mark.markText, textMatch);
      }
      if (textMatch === null) continue;
      serials.add(mark.serial);
      found.push([mark, textMatch]);
      owned ||= mark.owner !== undefined;
    }
    // The owners' registrations of the texts matched (not of every text the key holds).
    const portfolios = owned
      ? portfoliosOf(
          marks,
          new Set(found.flatMap(([m]) => (m.owner === undefined ? [] : [joinedMarkText(m.markText)]))),
        )
      : undefined;
    for (const [mark, match] of found) {
      troAmongMarks ||= match.tro;
      let portfolio: Portfolio = { registrations: 1, classes: mark.niceClasses };
      if (mark.owner !== undefined)
        portfolio = portfolios!.get(portfolioKey(mark.owner, joinedMarkText(mark.markText))) ?? portfolio;
      matches.push({
        mark: mark.markText,
        serial: mark.serial,
        niceClasses: mark.niceClasses,
        isLive: mark.isLive,
        kind: match.kind,
        distance: match.distance,
        tro: match.tro,
        troOnly: false,
        cn,
        ownerRegistrations: portfolio.registrations,
        ownerClasses: portfolio.classes,
        ...(mark.owner === undefined ? {} : { owner: mark.owner }),
      });
    }
  }
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
      ownerRegistrations: 0,
      ownerClasses: NO_CLASSES,
    });
  }
  run.matches = matches.length ? matches : NO_MATCHES;
  run.verifiedUsExact = run.usExact?.marks;
  run.verifiedUsFuzzy = run.usFuzzy.map((entry) => entry.marks);
  run.verifiedCnExact = run.cnExact?.marks;
  run.verifiedTro = tro;
  return run.matches;
}

/** How a run matches one mark text, and whether that text is a TRO brand's. */
interface TextMatch {
  kind: MatchKind;
  distance: number;
  tro: boolean;
}

interface Portfolio {
  registrations: number;
  classes: readonly string[];
}

const portfolioKey = (owner: string, joinedText: string) => `${owner} ${joinedText}`;

/**
 * The live registrations of a key's marks by owner and text, with the classes they cover together, for the texts
 * (joined: joinedMarkText) asked for.
 */
function portfoliosOf(marks: readonly MarkSummary[], joinedTexts: ReadonlySet<string>): Map<string, Portfolio> {
  const classes = new Map<string, Set<string>>();
  const registrations = new Map<string, number>();
  for (const mark of marks) {
    if (mark.owner === undefined || !mark.isLive) continue;
    const joinedText = joinedMarkText(mark.markText);
    if (!joinedTexts.has(joinedText)) continue;
    const key = portfolioKey(mark.owner, joinedText);
    registrations.set(key, (registrations.get(key) ?? 0) + 1);
    const set = classes.get(key) ?? new Set<string>();
    for (const nice of mark.niceClasses) set.add(nice);
    classes.set(key, set);
  }
  const out = new Map<string, Portfolio>();
  for (const [key, count] of registrations)
    out.set(key, { registrations: count, classes: [...classes.get(key)!].sort() });
  return out;
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
    if (joinedMarks.size > 400_000) joinedMarks.clear();
    value = joined(normalizeText(markText));
    joinedMarks.set(markText, value);
  }
  return value;
}

function matchOf(run: Run, markJoined: string, via: Via): { kind: MatchKind; distance: number } | undefined {
  if (markJoined === run.joined) return { kind: 'exact', distance: 0 };
  if (via === 'exact') {
    // Found under an exact key but written otherwise: one script's part of a mixed mark, or its transliteration.
    return { kind: run.cjk !== hasCjk(markJoined) || hasCjk(markJoined) ? 'transliteration' : 'exact', distance: 0 };
  }
  const budget = editBudget(run.joined.length);
  const distance = editDistance(run.joined, markJoined, budget);
  return distance <= budget ? { kind: 'fuzzy', distance } : undefined;
}
