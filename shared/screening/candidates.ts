/**
 * Candidate brand uses in a title: runs of consecutive words (up to 4 Latin words as written, up to 6 CJK words, since
 * segmentation often cuts a Chinese brand into single characters), each with the lookup keys that could find a
 * mark for it. A connecting word ("for", "with", "the", "it" ...), a lone letter or a lone number is not looked up
 * on its own, nor is a run of nothing but connecting words; a longer run that has them is ("The North Face",
 * "Post-it", "Galz4ever", "3M"), though one that starts with a connecting word only at the head of the title or at
 * "the": the market's key filter answers most such keys without a read. Words written as one token count once
 * ("R18Jewels-Fashion&U" is five words, r/18/jewels/fashion/u, and one name), up to MAX_LATIN_PARTS words in all.
 *
 * A run's text and keys depend only on its words, and the same runs come up in title after title ("for iphone",
 * "stainless steel"), so runs live in a table and each is built once: a tree of words ("black" -> "black diamond"
 * -> ...) kept as one flat hash table of (run, next word's id) -> longer run, as a title's walk through it is most of
 * the time spent finding its candidates. A title's candidates point at the shared runs; the one owner of a table (a
 * TitleScreener) keeps what it found for a run on the run itself.
 */
import { editBudget, nearKeysOfRun, phoneticSkeleton } from '../marks/lookup-keys';
import type { MarkSummary } from '../ports';
import { NO_MATCHES, type KeyEntry, type RunMatch } from './run-matches';
import type { TitleWord } from './title-words';
import type { TroIndex } from './tro-index';

export const MAX_LATIN_WORDS = 4;
export const MAX_CJK_WORDS = 6;
/** The most words a Latin run spans, however few tokens they are written as. */
export const MAX_LATIN_PARTS = 8;

const NO_KEYS: string[] = [];
const NO_ENTRIES: readonly KeyEntry[] = Object.freeze([]);

/** The word is written joined to the next one, in one token ("3D", "Post-it", "Lock&Lock"). */
const joinedToNext = (word: TitleWord) => word.continued || word.hyphen || word.ampersand;

/**
 * A run of words as text and keys, shared by every title that has it. It also carries what the screener found for
 * it (key-resolver.ts, run-matches.ts): its key entries and the matches verified from them. A title has a score of
 * candidate runs and nearly all of them are answered from what the run already holds, so that lives on the run
 * itself, where one read finds it, not in objects of its own.
 */
export class Run {
  /** The skeleton once worked out (null: none), or undefined before. */
  private skeletonOf: string | null | undefined = undefined;
  private exactKeyOf: string | undefined = undefined;

  /** The batch that last checked this run's key entries. */
  batch = 0;
  /** What each lookup key held when it was fetched (or known absent from the key filter). */
  usExact: KeyEntry | undefined = undefined;
  cnExact: KeyEntry | undefined = undefined;
  /** Those of the run's fuzzy keys (fuzzyKeys) that held marks, and when the oldest of them was fetched. */
  usFuzzy: readonly KeyEntry[] = NO_ENTRIES;
  usFuzzyAt = Number.NEGATIVE_INFINITY;
  /** When the oldest of the key entries the run needs was fetched (-Infinity until it has them all). */
  entriesAt = Number.NEGATIVE_INFINITY;
  /** The marks of each entry, and the TRO list, that `matches` was verified from. */
  verifiedUsExact: readonly MarkSummary[] | undefined = undefined;
  verifiedUsFuzzy: readonly (readonly MarkSummary[])[] | undefined = undefined;
  verifiedCnExact: readonly MarkSummary[] | undefined = undefined;
  verifiedTro: TroIndex | undefined = undefined;
  matches: readonly RunMatch[] = NO_MATCHES;

  constructor(
    /** The words' normalised forms joined without spaces ("air pods" -> "airpods"). */
    readonly joined: string,
    readonly cjk: boolean,
    readonly words: number,
    /** Whether a title's run with these words is worth a lookup (see the file's comment). */
    readonly lookedUp: boolean,
    /** Where the run stands in its RunTable (-1: in none). */
    readonly index = -1,
  ) {}

  /** The key of the run's own text (`e:` and the joined text), made when the run is first looked up. */
  get exactKey(): string {
    this.exactKeyOf ??= `e:${this.joined}`;
    return this.exactKeyOf;
  }

  /**
   * The phonetic skeleton of a run of one or two Latin words (longer runs are rarely misspelt marks), which its
   * fuzzy keys and a fuzzy TRO match are found by. Worked out on first use: most runs of a title are never
   * proposed as a brand span, and a run too short for a misspelling never needs it.
   */
  get skeleton(): string | undefined {
    if (this.skeletonOf === undefined)
      this.skeletonOf = (this.cjk || this.words > 2 ? undefined : phoneticSkeleton(this.joined)) ?? null;
    return this.skeletonOf ?? undefined;
  }

  /**
   * The keys that find the run's misspellings (shared/marks/lookup-keys.ts): from 5 to 8 letters its one-edit
   * neighbourhood (d:), from 9 its skeleton (p:); none without a skeleton or under 5 letters, where editBudget
   * allows no misspelling and only the exact key could find anything. Worked out when asked, not kept: a run
   * table holds hundreds of thousands of runs, and a run asks only when its entries are fetched.
   */
  fuzzyKeys(): string[] {
    const budget = editBudget(this.joined.length);
    if (budget === 0 || this.skeleton === undefined) return NO_KEYS;
    return budget === 1 ? nearKeysOfRun(this.joined) : [`p:${this.skeleton}`];
  }
}

export interface Candidate {
  /** Index of the first and one past the last word. */
  start: number;
  end: number;
  run: Run;
}

/** Slots of the run table's hash: the longer run's parent index, the added word's id, the longer run's index, lookedUp. */
const SLOT = 4;
const FIRST_SLOTS = 1 << 12;

/**
 * The runs seen so far, as a tree of words; bounded (it starts afresh, between titles, once past `maxRuns`). Its
 * owner may say that a run is known to match nothing until some time (`quiet`): till then the run is no candidate,
 * and the run itself is not even read, as it is the most common answer by far.
 */
export class RunTable {
  /** Every run by its index; index 0 is the root, the run of no words. */
  private runs: (Run | undefined)[] = [undefined];
  /** Open addressing, linear probing; a slot whose run index is 0 is free. */
  private slots = new Int32Array(FIRST_SLOTS * SLOT);
  /** By run index: until when the run is known to match nothing (0: it is not). */
  private quietUntil = new Float64Array(FIRST_SLOTS);

  constructor(private readonly maxRuns = 400_000) {}

  get size(): number {
    return this.runs.length - 1;
  }

  /** The title's candidates; a run quiet after `now` is left out (by default none is). */
  candidatesOf(words: readonly TitleWord[], now = Number.POSITIVE_INFINITY): Candidate[] {
    if (this.runs.length > this.maxRuns) {
      // Runs already handed out stay valid; the table just forgets them.
      this.runs = [undefined];
      this.slots = new Int32Array(FIRST_SLOTS * SLOT);
      this.quietUntil = new Float64Array(FIRST_SLOTS);
    }
    const out: Candidate[] = [];
    for (let start = 0; start < words.length; start++) {
      const first = words[start]!;
      // A run starts at a connecting word only at the head of the title or at "the" ("The North Face"): anywhere
      // else ("case for iphone") such runs would only add keys.
      if (start > 0 && !first.cjk && first.facts.stopword && first.norm !== 'the') continue;
      const limit = this.limitOf(words, start);
      let parent = 0;
      for (let end = start + 1; end <= limit; end++) {
        const last = words[end - 1]!;
        if (last.cjk !== first.cjk) break;
        const at = this.slotOf(parent, words, start, end);
        parent = this.slots[at + 2]!;
        if (this.slots[at + 3] === 1 && !(this.quietUntil[parent]! > now))
          out.push({ start, end, run: this.runs[parent]! });
      }
    }
    return out;
  }

  /** The run (if it is in this table) is known to match nothing until `until`. */
  quiet(run: Run, until: number): void {
    if (this.runs[run.index] === run) this.quietUntil[run.index] = until;
  }

  /** No run is known to match nothing any more (what it was known against has changed). */
  forgetQuiet(): void {
    this.quietUntil.fill(0);
  }

  /** The slot of the run of words[start, end), whose run without the last word is `parent`; added if new. */
  private slotOf(parent: number, words: readonly TitleWord[], start: number, end: number): number {
    const word = words[end - 1]!.id;
    const at = this.find(parent, word);
    if (this.slots[at + 2] !== 0) return at;
    const child = this.runs.length;
    const run = newRun(this.runs[parent], words, start, end, child);
    this.runs.push(run);
    if (child >= this.quietUntil.length) {
      const grown = new Float64Array(this.quietUntil.length * 2);
      grown.set(this.quietUntil);
      this.quietUntil = grown;
    }
    this.slots[at] = parent;
    this.slots[at + 1] = word;
    this.slots[at + 2] = child;
    this.slots[at + 3] = run.lookedUp ? 1 : 0;
    // Kept at most half full, so that probes stay short.
    if (child * 2 <= this.slots.length / SLOT) return at;
    this.grow();
    return this.find(parent, word);
  }

  /** The slot holding (parent, word), or the free slot where it belongs. */
  private find(parent: number, word: number): number {
    const { slots } = this;
    const mask = slots.length / SLOT - 1;
    let slot = slotHash(parent, word) & mask;
    for (;;) {
      const at = slot * SLOT;
      if (slots[at + 2] === 0 || (slots[at] === parent && slots[at + 1] === word)) return at;
      slot = (slot + 1) & mask;
    }
  }

  private grow(): void {
    const old = this.slots;
    const slots = new Int32Array(old.length * 2);
    const mask = slots.length / SLOT - 1;
    for (let at = 0; at < old.length; at += SLOT) {
      if (old[at + 2] === 0) continue;
      let slot = slotHash(old[at]!, old[at + 1]!) & mask;
      while (slots[slot * SLOT + 2] !== 0) slot = (slot + 1) & mask;
      slots.set(old.subarray(at, at + SLOT), slot * SLOT);
    }
    this.slots = slots;
  }

  /** One past the last word a run from `start` may reach. */
  private limitOf(words: readonly TitleWord[], start: number): number {
    if (words[start]!.cjk) return Math.min(words.length, start + MAX_CJK_WORDS);
    const partsLimit = Math.min(words.length, start + MAX_LATIN_PARTS);
    let tokens = 1;
    let end = start + 1;
    while (end < partsLimit) {
      if (!joinedToNext(words[end - 1]!)) tokens++;
      if (tokens > MAX_LATIN_WORDS) break;
      end++;
    }
    return end;
  }
}

function slotHash(parent: number, word: number): number {
  const h = Math.imul(parent, 0x9e3779b1) ^ Math.imul(word, 0x85ebca77);
  return h ^ (h >>> 15);
}

function newRun(before: Run | undefined, words: readonly TitleWord[], start: number, end: number, index: number): Run {
  const first = words[start]!;
  const last = words[end - 1]!;
  const joined = (before?.joined ?? '') + last.norm;
  const single = end - start === 1;
  let allStopwords = !first.cjk;
  for (let i = start; i < end && allStopwords; i++) allStopwords = words[i]!.facts.stopword;
  const lookedUp = first.cjk || (single ? !last.facts.stopword && !last.facts.trivial : !allStopwords);
  return new Run(joined, first.cjk, end - start, lookedUp, index);
}
