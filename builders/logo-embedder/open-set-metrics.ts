/**
 * Figures over benchmark queries (logo-benchmark.ts), and the calibration fit:
 * - recall@k: the share of queries of registered brands whose brand is among the first k marks;
 * - AUROC of the top-1 score, registered (positive) vs unregistered (negative) queries: the chance that a random
 *   registered query scores above a random unregistered one (ties count half);
 * - "likely" precision: of the queries whose first result is "likely", the share where it is the query's brand;
 *   "likely" recall: of the registered queries, the share whose first result is its brand and "likely";
 * - the calibration table: every returned result, binned by its score, against the share that is the query's brand;
 * - `fitCalibration`: logistic regressions of "is the query's brand" on the evidence of every answered mark, one for
 *   plain pictures and one for busy ones, the isotonic map of their output, and the thresholds (see
 *   shared/imaging/calibration.ts).
 */
import {
  EVIDENCE_DEPTH,
  probabilityOf,
  regressionScore,
  termsOf,
  type Calibration,
  type Logistic,
} from '../../shared/imaging/calibration';
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

export function likelyFigures(queries: readonly BenchQuery[]): {
  precision: number;
  /** The one-sided 95% lower confidence bound of the precision. */
  precisionAtLeast: number;
  recall: number;
  likely: number;
} {
  const likely = queries.filter((q) => q.results[0]?.match === 'likely');
  const right = likely.filter((q) => q.results[0]!.serial === q.brand).length;
  const registered = queries.filter((q) => q.registered).length;
  return {
    precision: likely.length ? right / likely.length : Number.NaN,
    precisionAtLeast: wilsonLowerBound(right, likely.length),
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

/**
 * Logistic regression by Newton's method (iteratively reweighted least squares) with a light ridge penalty
 * (`ridge` / 2 times the squared weights, not on the bias, as scikit-learn's default C = 1) that keeps a separable
 * set finite. Returns the weights of `rows`' terms and the bias.
 */
export function fitLogistic(rows: readonly number[][], labels: readonly number[], ridge = 1): Logistic {
  const d = (rows[0]?.length ?? 0) + 1;
  const beta = new Array<number>(d).fill(0);
  for (let iteration = 0; iteration < 50; iteration++) {
    const gradient = new Array<number>(d).fill(0);
    const hessian = Array.from({ length: d }, () => new Array<number>(d).fill(0));
    for (const [n, row] of rows.entries()) {
      const x = [...row, 1];
      const p = 1 / (1 + Math.exp(-x.reduce((z, v, i) => z + v * beta[i]!, 0)));
      const w = Math.max(p * (1 - p), 1e-9);
      for (let i = 0; i < d; i++) {
        gradient[i]! += (labels[n]! - p) * x[i]!;
        for (let j = 0; j < d; j++) hessian[i]![j]! += w * x[i]! * x[j]!;
      }
    }
    for (let i = 0; i < d - 1; i++) {
      gradient[i]! -= ridge * beta[i]!;
      hessian[i]![i]! += ridge;
    }
    const step = solve(hessian, gradient);
    for (let i = 0; i < d; i++) beta[i]! += step[i]!;
    if (Math.max(...step.map(Math.abs)) < 1e-9) break;
  }
  return { weights: beta.slice(0, d - 1), bias: beta[d - 1]! };
}

/** Solves a x = b by Gaussian elimination with partial pivoting (a small symmetric positive definite system). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[pivot]![c]!)) pivot = r;
    [m[c], m[pivot]] = [m[pivot]!, m[c]!];
    for (let r = c + 1; r < n; r++) {
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let sum = m[r]![n]!;
    for (let k = r + 1; k < n; k++) sum -= m[r]![k]! * x[k]!;
    x[r] = sum / m[r]![r]!;
  }
  return x;
}

/** The probability from which an answer is "likely": each one right at least 95% of the time. */
export const LIKELY_PROBABILITY = 0.95;

/** The one-sided 95% lower confidence bound of a share of `right` in `n` (Wilson score interval). */
export function wilsonLowerBound(right: number, n: number, z = 1.645): number {
  if (n === 0) return 0;
  const p = right / n;
  const z2 = z * z;
  return (p + z2 / (2 * n) - z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
}

/**
 * Fits the calibration on queries searched without one (their `evidence` recorded): for plain and for busy pictures
 * a logistic regression of "the mark is the query's brand" on the evidence of the first EVIDENCE_DEPTH marks of
 * every answer; the isotonic regression of the same outcome on their output; then the thresholds: "likely" at
 * LIKELY_PROBABILITY, "possible" where 95% of the true matches are at least that.
 */
export function fitCalibration(queries: readonly BenchQuery[]): Calibration & { pairs: number } {
  const fits = {} as Record<'plain' | 'busy', Logistic>;
  let pairs = 0;
  for (const kind of ['plain', 'busy'] as const) {
    const rows: number[][] = [];
    const labels: number[] = [];
    for (const q of queries) {
      for (const e of (q.evidence ?? []).slice(0, EVIDENCE_DEPTH)) {
        if (e.busy !== (kind === 'busy')) continue;
        rows.push(termsOf(e));
        labels.push(e.serial === q.brand ? 1 : 0);
      }
    }
    if (rows.length === 0) throw new Error(`no ${kind} pictures among the calibration queries`);
    fits[kind] = fitLogistic(rows, labels);
    pairs += rows.length;
  }
  // The isotonic map of the regressions' output, through the middle of each pooled block.
  const blocks = poolAdjacentViolators(
    queries.flatMap((q) =>
      (q.evidence ?? [])
        .slice(0, EVIDENCE_DEPTH)
        .map((e) => ({ x: regressionScore(fits, e), y: e.serial === q.brand ? 1 : 0 })),
    ),
  );
  const map = {
    score: blocks.map((b) => round6((b.lo + b.hi) / 2)),
    probability: blocks.map((b) => round4(b.mean)),
  };
  const curve: Calibration = { ...fits, curve: map, likely: 1, possible: 0 };
  // likely: a probability of at least LIKELY_PROBABILITY, where the curve reaches it (never, where it does not).
  const likely = Math.max(...map.probability) >= LIKELY_PROBABILITY ? LIKELY_PROBABILITY : 1;
  // possible: 95% of the true matches among the answered marks (first or not) are at least "possible".
  const rightScores = queries
    .flatMap((q) => (q.evidence ?? []).slice(0, EVIDENCE_DEPTH).filter((e) => e.serial === q.brand))
    .map((e) => probabilityOf(curve, e))
    .sort((a, b) => a - b);
  const possible = Math.min(likely, rightScores[Math.floor(rightScores.length * 0.05)] ?? 0);
  const rounded = (l: Logistic) => ({ weights: l.weights.map(round4), bias: round4(l.bias) });
  return {
    plain: rounded(fits.plain),
    busy: rounded(fits.busy),
    curve: map,
    likely: round4(likely),
    possible: round4(possible),
    pairs,
  };
}

const round4 = (v: number) => Math.round(v * 10_000) / 10_000;
const round6 = (v: number) => Math.round(v * 1_000_000) / 1_000_000;

/**
 * Pool adjacent violators over (x, y) sorted by x: the blocks of the non-decreasing least-squares fit, each of at
 * least MIN_BLOCK points.
 */
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
  // A block of a few points is luck, not a rate (the top few answers all right says little): each block of fewer
  // than MIN_BLOCK points joins its neighbour below (the first block, the one above). Joining neighbours of a
  // rising sequence keeps it rising.
  for (let i = 0; i < blocks.length && blocks.length > 1; ) {
    if (blocks[i]!.n >= MIN_BLOCK) {
      i++;
      continue;
    }
    const into = i > 0 ? i - 1 : 1;
    const [a, b] = [blocks[Math.min(i, into)]!, blocks[Math.max(i, into)]!];
    blocks.splice(Math.min(i, into), 2, { lo: a.lo, hi: b.hi, sum: a.sum + b.sum, n: a.n + b.n });
    i = Math.max(0, Math.min(i, into));
  }
  return blocks.map((b) => ({ lo: b.lo, hi: b.hi, mean: b.sum / b.n, n: b.n }));
}

/** The fewest points a block of the isotonic curve stands on. */
const MIN_BLOCK = 30;
