/**
 * Figures over benchmark queries (logo-benchmark.ts), and the calibration fit:
 * - recall@k: the share of queries of registered brands whose brand is among the first k marks;
 * - AUROC of the top-1 score, registered (positive) vs unregistered (negative) queries: the chance that a random
 *   registered query scores above a random unregistered one (ties count half);
 * - "likely" precision: of the queries whose first result is "likely", the share where it is the query's brand;
 *   "likely" recall: of the registered queries, the share whose first result is its brand and "likely";
 * - the calibration table: every returned result, binned by its score, against the share that is the query's brand;
 * - `fitCalibration`: isotonic regression (pool adjacent violators) of "is the query's brand" on the similarity of
 *   every returned result, and the thresholds (see shared/imaging/calibration.ts).
 */
import type { Calibration } from '../../shared/imaging/calibration';
import { probabilityOf } from '../../shared/imaging/calibration';
import type { BenchQuery } from './logo-benchmark';

export function recallAt(queries: readonly BenchQuery[], k: number): number {
  const registered = queries.filter((q) => q.registered);
  if (registered.length === 0) return Number.NaN;
  return registered.filter((q) => q.results.slice(0, k).some((r) => r.serial === q.brand)).length / registered.length;
}

export function auroc(positives: readonly number[], negatives: readonly number[]): number {
  if (positives.length === 0 || negatives.length === 0) return Number.NaN;
  const all = [...positives.map((s) => ({ s, p: 1 })), ...negatives.map((s) => ({ s, p: 0 }))].sort(
    (a, b) => a.s - b.s,
  );
  let rankSum = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j < all.length && all[j]!.s === all[i]!.s) j++;
    const rank = (i + 1 + j) / 2;
    for (let k = i; k < j; k++) if (all[k]!.p === 1) rankSum += rank;
    i = j;
  }
  return (rankSum - (positives.length * (positives.length + 1)) / 2) / (positives.length * negatives.length);
}

const top1 = (q: BenchQuery) => q.results[0]?.score ?? 0;

export function openSetAuroc(queries: readonly BenchQuery[]): number {
  return auroc(queries.filter((q) => q.registered).map(top1), queries.filter((q) => !q.registered).map(top1));
}

export function likelyFigures(queries: readonly BenchQuery[]): { precision: number; recall: number; likely: number } {
  const likely = queries.filter((q) => q.results[0]?.match === 'likely');
  const right = likely.filter((q) => q.results[0]!.serial === q.brand).length;
  const registered = queries.filter((q) => q.registered).length;
  return {
    precision: likely.length ? right / likely.length : Number.NaN,
    recall: registered ? right / registered : Number.NaN,
    likely: likely.length,
  };
}

export function calibrationTable(
  queries: readonly BenchQuery[],
  bins = 10,
): { from: number; to: number; results: number; meanScore: number; observed: number }[] {
  const rows = Array.from({ length: bins }, (_, i) => ({
    from: i / bins,
    to: (i + 1) / bins,
    results: 0,
    sum: 0,
    hits: 0,
  }));
  for (const q of queries) {
    for (const r of q.results) {
      const row = rows[Math.min(bins - 1, Math.floor(r.score * bins))]!;
      row.results++;
      row.sum += r.score;
      if (r.serial === q.brand) row.hits++;
    }
  }
  return rows.map((r) => ({
    from: r.from,
    to: r.to,
    results: r.results,
    meanScore: r.results ? r.sum / r.results : Number.NaN,
    observed: r.results ? r.hits / r.results : Number.NaN,
  }));
}

/** Pool adjacent violators over (x, y) sorted by x: the blocks of the non-decreasing least-squares fit. */
function poolAdjacentViolators(
  points: { x: number; y: number }[],
): { lo: number; hi: number; mean: number; n: number }[] {
  const blocks: { lo: number; hi: number; sum: number; n: number }[] = [];
  for (const p of [...points].sort((a, b) => a.x - b.x)) {
    blocks.push({ lo: p.x, hi: p.x, sum: p.y, n: 1 });
    while (
      blocks.length > 1 &&
      blocks[blocks.length - 2]!.sum / blocks[blocks.length - 2]!.n >=
        blocks[blocks.length - 1]!.sum / blocks[blocks.length - 1]!.n
    ) {
      const last = blocks.pop()!;
      const before = blocks[blocks.length - 1]!;
      before.hi = last.hi;
      before.sum += last.sum;
      before.n += last.n;
    }
  }
  return blocks.map((b) => ({ lo: b.lo, hi: b.hi, mean: b.sum / b.n, n: b.n }));
}

/** Fits the calibration on raw-similarity queries (a path without calibration) and picks the thresholds. */
export function fitCalibration(queries: readonly BenchQuery[]): Calibration & { pairs: number } {
  const points = queries.flatMap((q) => q.results.map((r) => ({ x: r.score, y: r.serial === q.brand ? 1 : 0 })));
  const blocks = poolAdjacentViolators(points);
  const similarity: number[] = [];
  const probability: number[] = [];
  for (const b of blocks) {
    similarity.push(b.lo);
    probability.push(b.mean);
    if (b.hi > b.lo) {
      similarity.push(b.hi);
      probability.push(b.mean);
    }
  }
  const curve = { similarity, probability, likely: 1, possible: 0 };
  // Thresholds on the first result of every query, in probabilities.
  const firsts = queries
    .filter((q) => q.results.length > 0)
    .map((q) => ({ p: probabilityOf(curve, q.results[0]!.score), right: q.results[0]!.serial === q.brand }))
    .sort((a, b) => b.p - a.p);
  // likely: the lowest threshold at which "likely" keeps a precision of at least 0.95 from there up.
  let likely = 1;
  let right = 0;
  let worst = 1;
  for (const [i, f] of firsts.entries()) {
    if (f.right) right++;
    if (i + 1 >= 20) worst = Math.min(worst, right / (i + 1));
    const next = firsts[i + 1];
    if (worst >= 0.95 && i + 1 >= 20 && (!next || next.p < f.p)) likely = f.p;
  }
  // possible: 95% of the right first results are at least "possible".
  const rightScores = firsts
    .filter((f) => f.right)
    .map((f) => f.p)
    .sort((a, b) => a - b);
  const possible = Math.min(likely, rightScores[Math.floor(rightScores.length * 0.05)] ?? 0);
  return {
    similarity: round(similarity),
    probability: round(probability),
    likely: round4(likely),
    possible: round4(possible),
    pairs: points.length,
  };
}

const round4 = (v: number) => Math.round(v * 10_000) / 10_000;
const round = (values: number[]) => values.map(round4);
