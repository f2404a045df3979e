/**
 * A mark may have several designs, each its own vector. A search answers in marks: the best-scoring design of each
 * mark stands for it, and `topK` counts marks. Both vector indexes (usearch and S3 Vectors) fetch designs and
 * collapse them here.
 */
import type { VectorMatch } from '../ports';

/** One match per serial (its highest score; the first seen wins a tie), by descending score. */
export function bestDesignPerMark(matches: readonly VectorMatch[]): VectorMatch[] {
  const best = new Map<string, VectorMatch>();
  for (const match of matches) {
    const held = best.get(match.serial);
    if (!held || match.score > held.score) best.set(match.serial, match);
  }
  return [...best.values()].sort((a, b) => b.score - a.score);
}
