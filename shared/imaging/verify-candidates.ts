/**
 * Verification of the marks a region search found: each mark is scored against the crowd of its own window, so
 * that a crowd of look-alikes cannot outvote the true mark on similarity alone.
 *
 * Input: the windows searched and, for each, the index's answer (at least VERIFY_RANK marks where the index holds
 * them, best first).
 * Output: one candidate per mark, its best window and its verified score in [0, 1] (never above its similarity),
 * unordered.
 *
 *  1. The crowd of a window: its VERIFY_RANK-th best similarity (0 where the window found fewer marks: no crowd).
 *  2. How far the crowd stands above CROWD_FLOOR: below it, the window's tenth best is no crowd of look-alikes but the
 *     index's unrelated marks (in an index of 650 designs, 80% of windows' tenth bests lie between 0.30 and 0.58;
 *     with 100,000 register-scale designs, between 0.58 and 0.80).
 *  3. A mark's verified score in a window: its similarity less CROWD_SHARE of that excess. A window over a line of
 *     text meets hundreds of registered wordmarks set in the same fonts, all alike (a high crowd); a window around
 *     the logo meets its own mark well above the rest (a low one), so the logo's window wins even where the text's
 *     wordmarks are more similar. Its score is that of its best window (the first, the whole picture, wins a tie),
 *     and that window is where it was found.
 *
 * Chosen on the validation brands (held out from training and from the figures): with the 100,000 register-scale
 * distractors loaded (docs/logos-at-register-scale.md), against the best similarity alone, recall@10 of a logo with
 * text beside it rose from 0.379 to 0.805, of a logo at 30% of a busy picture from 0.290 to 0.426, and recall@1 of
 * the simple changes from 0.887 to 0.910; a share of 0.5 or 0.67 moved each by 0.04 at most, a crowd read at the 5th,
 * 20th or 30th best by 0.02 at most. With no floor, the same scoring cost the 650-design index 0.05 of busy recall@1
 * and 0.02 of text beside it (a window of clutter there has a weak crowd, and a random mark a large lead over it);
 * with the floor at 0.6 it ranks there as the similarity does, and at 100,000 as it does without one. (The mark was
 * among the first ten of some window for 0.876 and 0.663 of those two kinds of picture at 100,000: the rest of the
 * gap is the ordering still.) The calibration (calibration.ts) reads the verified score as the similarity.
 */
import type { VectorMatch } from '../ports';
import type { Window } from './regions';

/** The rank whose similarity stands for a window's crowd. */
export const VERIFY_RANK = 10;

/** The similarity above which a window's crowd counts. */
export const CROWD_FLOOR = 0.6;

/** The share of the crowd's excess over CROWD_FLOOR taken off a mark's similarity. */
export const CROWD_SHARE = 0.6;

export interface VerifiedMark extends VectorMatch {
  /** The verified score (the crowd of the window read off the similarity). */
  score: number;
  /** The raw similarity in that window. */
  similarity: number;
  window: Window;
}

/** The similarity that stands for the crowd of one window's answer (best first). */
export function crowdOf(answer: readonly VectorMatch[]): number {
  return answer.length >= VERIFY_RANK ? answer[VERIFY_RANK - 1]!.score : 0;
}

/** A mark's verified score in a window whose crowd stands at `crowd`. */
export function verifiedScore(similarity: number, crowd: number): number {
  return Math.max(0, similarity - CROWD_SHARE * Math.max(0, crowd - CROWD_FLOOR));
}

/** Each mark once, by its best window's verified score. */
export function verifyCandidates(
  windows: readonly Window[],
  answers: readonly (readonly VectorMatch[])[],
): VerifiedMark[] {
  const best = new Map<string, VerifiedMark>();
  for (const [w, answer] of answers.entries()) {
    const crowd = crowdOf(answer);
    for (const match of answer) {
      const score = verifiedScore(match.score, crowd);
      const held = best.get(match.serial);
      if (!held || score > held.score)
        best.set(match.serial, { ...match, score, similarity: match.score, window: windows[w]! });
    }
  }
  return [...best.values()];
}
