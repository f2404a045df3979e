/**
 * What a similarity means: the probability that the query shows the result's mark, and the match verdict.
 *
 * Each embedder has its own calibration (data/models/logo-embedder/calibration.json, written by
 * `npm run train:logos` through builders/logo-embedder/calibrate.ts): an isotonic regression of "the query shows
 * this mark" on the best-region similarity, fit on pairs from held-out validation brands (never seen in training,
 * disjoint from the brands the figures in BENCHMARKS.md are measured on), stored as the breakpoints of a
 * non-decreasing step function and read here by linear interpolation between them. The thresholds were chosen on
 * the same validation pairs:
 *   likely    probability >= `likely`: the precision of "likely" on validation was at least 0.95;
 *   possible  probability >= `possible`: at least 95% of the true matches on validation are "possible" or better;
 *   none      below that.
 * A path without a calibration (a stand-in embedder in a test) keeps the raw similarity as its score and calls
 * every result "possible": it cannot say more.
 */
export type MatchVerdict = 'likely' | 'possible' | 'none';

export interface Calibration {
  /** Similarity breakpoints, ascending, and the probability at each (non-decreasing). */
  similarity: number[];
  probability: number[];
  likely: number;
  possible: number;
}

export function probabilityOf(calibration: Calibration, similarity: number): number {
  const { similarity: xs, probability: ys } = calibration;
  if (xs.length === 0) return 0;
  if (similarity <= xs[0]!) return ys[0]!;
  if (similarity >= xs[xs.length - 1]!) return ys[ys.length - 1]!;
  let lo = 0;
  let hi = xs.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! <= similarity) lo = mid;
    else hi = mid;
  }
  const span = xs[hi]! - xs[lo]!;
  const t = span > 0 ? (similarity - xs[lo]!) / span : 1;
  return ys[lo]! + (ys[hi]! - ys[lo]!) * t;
}

export function verdictOf(calibration: Calibration | undefined, probability: number): MatchVerdict {
  if (!calibration) return 'possible';
  if (probability >= calibration.likely) return 'likely';
  return probability >= calibration.possible ? 'possible' : 'none';
}

/** Checks a calibration read from a file: breakpoints ascending, probabilities in [0, 1] and non-decreasing. */
export function checkCalibration(name: string, calibration: Calibration): Calibration {
  const { similarity: xs, probability: ys } = calibration;
  const ok =
    xs.length > 0 &&
    xs.length === ys.length &&
    xs.every((x, i) => i === 0 || x >= xs[i - 1]!) &&
    ys.every((y, i) => y >= 0 && y <= 1 && (i === 0 || y >= ys[i - 1]!)) &&
    calibration.possible <= calibration.likely;
  if (!ok) throw new Error(`the calibration of ${name} is malformed`);
  return calibration;
}
