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
 * "stainless steel"), so runs live in a table (a tree of words: "black" -> "black diamond" -> ...) and each is
 * built once. A title's candidates point at the shared runs; the one owner of a table (a TitleScreener) may remember
 * what it found for a run on the run itself (`memo`).
 */
import { phoneticSkeleton } from '../marks/lookup-keys';
import type { TitleWord } from './title-words';

export const MAX_LATIN_WORDS = 4;
export const MAX_CJK_WORDS = 6;
/** The most words a Latin run spans, however few tokens they are written as. */
export const MAX_LATIN_PARTS = 8;

/** The word is written joined to the next one, in one token ("3D", "Post-it", "Lock&Lock"). */
const joinedToNext = (word: TitleWord) => word.continued || word.hyphen || word.ampersand;

/** A run of words as text and keys, shared by every title that has it. */
export interface Run {
  /** The words' normalised forms joined without spaces ("air pods" -> "airpods"). */
  readonly joined: string;
  readonly cjk: boolean;
  readonly words: number;
  readonly exactKey: string;
  /** Only for runs of one or two Latin words: longer marks are rarely misspelt into a match. */
  readonly phoneticKey: string | undefined;
  /** The phonetic skeleton behind `phoneticKey`. */
  readonly skeleton: string | undefined;
  /** Whether a title's run with these words is worth a lookup (see the file's comment). */
  readonly lookedUp: boolean;
  /** Free for the resolver of this run (the screener keeps its cache entries and verified matches here). */
  memo: unknown;
}

export interface Candidate {
  /** Index of the first and one past the last word. */
  start: number;
  end: number;
  run: Run;
}

interface RunNode {
  run: Run;
  next: Map<string, RunNode> | undefined;
}

/** The runs seen so far, as a tree of words; bounded (it starts afresh past `maxRuns`). */
export class RunTable {
  private roots = new Map<string, RunNode>();
  private count = 0;

  constructor(private readonly maxRuns = 400_000) {}

  get size(): number {
    return this.count;
  }

  candidatesOf(words: readonly TitleWord[]): Candidate[] {
    const out: Candidate[] = [];
    for (let start = 0; start < words.length; start++) {
      const first = words[start]!;
      // A run starts at a connecting word only at the head of the title or at "the" ("The North Face"): anywhere
      // else ("case for iphone") such runs would only add keys.
      if (start > 0 && !first.cjk && first.facts.stopword && first.norm !== 'the') continue;
      const limit = this.limitOf(words, start);
      let level = this.roots;
      let node: RunNode | undefined;
      for (let end = start + 1; end <= limit; end++) {
        const last = words[end - 1]!;
        if (last.cjk !== first.cjk) break;
        let child = level.get(last.norm);
        if (child === undefined) {
          child = this.add(level, node?.run, words, start, end);
        }
        node = child;
        if (node.run.lookedUp) out.push({ start, end, run: node.run });
        if (end < limit) level = node.next ??= new Map();
      }
    }
    return out;
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

  private add(
    level: Map<string, RunNode>,
    before: Run | undefined,
    words: readonly TitleWord[],
    start: number,
    end: number,
  ): RunNode {
    if (this.count >= this.maxRuns) {
      // Runs already handed out stay valid; the table just forgets them.
      this.roots = new Map();
      this.count = 0;
    }
    const first = words[start]!;
    const last = words[end - 1]!;
    const joined = (before?.joined ?? '') + last.norm;
    const length = end - start;
    const single = length === 1;
    let allStopwords = !first.cjk;
    for (let i = start; i < end && allStopwords; i++) allStopwords = words[i]!.facts.stopword;
    const lookedUp = first.cjk || (single ? !last.facts.stopword && !last.facts.trivial : !allStopwords);
    const skeleton = first.cjk || length > 2 ? undefined : phoneticSkeleton(joined);
    const run: Run = {
      joined,
      cjk: first.cjk,
      words: length,
      exactKey: `e:${joined}`,
      phoneticKey: skeleton ? `p:${skeleton}` : undefined,
      skeleton,
      lookedUp,
      memo: undefined,
    };
    const node: RunNode = { run, next: undefined };
    level.set(last.norm, node);
    this.count++;
    return node;
  }
}
