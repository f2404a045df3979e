/**
 * What a match means: the probability that the query shows the result's mark, and the match verdict.
 *
 * The probability is read from the match's evidence in its answer, not from its similarity alone: a similarity of
 * 0.8 is a near-certain match for a clean logo on white and a routine one for a cluttered photo, whose windows land
 * near many marks at once. The evidence of one mark in one answer (`MatchEvidence`):
 *   similarity  its best window's cosine similarity;
 *   lead        that similarity less the fifth best of the answer (the lowest where fewer marks answered): how far
 *               the mark stands above the crowd of marks the picture resembles anyway;
 *   first       whether it is the answer's most similar mark (being first is evidence of its own: a first result
 *               is right far more often than a later one of the same similarity);
 *   busy        whether the picture has no plain background (a photo rather than a logo on a plain ground).
 * Each embedder has its own calibration (data/models/logo-embedder/calibration.json, written by
 * `npm run train:logos` through builders/logo-embedder/calibrate.ts), fit on the result pairs of held-out
 * validation brands (never seen in training, disjoint from the brands the figures in BENCHMARKS.md are measured on):
 *   - two logistic regressions of "the query shows this mark" on (similarity, lead, first), one for plain pictures
 *     and one for busy ones: they order the evidence. Every weight is positive, so within one answer the score falls
 *     as the similarity does: the ranking is the similarity's;
 *   - an isotonic regression of the same outcome on the regressions' output, stored as the points (the middle of
 *     each pooled block) of a rising curve read by linear interpolation: it makes the score a probability where the
 *     logistic shape is too stiff (the regressions overstate the middle and understate the top). The thresholds:
 *   likely    probability >= `likely` (0.95 where the curve reaches it): each "likely" answer on its own is right
 *             at least 95% of the time by the calibration. (A threshold set where the share of right answers
 *             among all the answers above it reaches 0.95 is carried by the many easy ones: fit on half the
 *             validation brands and checked on the other half, its precision fell to 0.92 in one split of ten);
 *   possible  probability >= `possible`: at least 95% of the true matches on validation are "possible" or better;
 *   none      below that.
 * A path without a calibration keeps the raw similarity as its score and gives no verdict (`match` absent from its
 * results): nothing says what its similarities mean. That is the CLIP option (SageMaker) today: no CLIP model is
 * shipped to fit one on, and its index is searched with the whole picture only.
 */
export type MatchVerdict = 'likely' | 'possible' | 'none';

export interface MatchEvidence {
  similarity: number;
  lead: number;
  first: boolean;
  busy: boolean;
}

/** The evidence a logistic regression reads, in this order. */
export const EVIDENCE_TERMS = ['similarity', 'lead', 'first'] as const;

export interface Logistic {
  /** One weight per EVIDENCE_TERMS entry. */
  weights: number[];
  bias: number;
}

export interface Calibration {
  plain: Logistic;
  busy: Logistic;
  /** The isotonic map from the regressions' output (ascending) to the probability (rising). */
  curve: { score: number[]; probability: number[] };
  likely: number;
  possible: number;
}

/** How many marks an answer holds at least when its evidence is read (the fifth best sets the lead). */
export const EVIDENCE_DEPTH = 10;
const LEAD_RANK = 5;

/** The evidence of each mark of one answer; `similarities` in the answer's order, best first. */
export function evidenceOf(similarities: readonly number[], busy: boolean): MatchEvidence[] {
  const floor = similarities[Math.min(LEAD_RANK, similarities.length) - 1] ?? 0;
  return similarities.map((similarity, i) => ({
    similarity,
    lead: similarity - floor,
    first: i === 0,
    busy,
  }));
}

export function termsOf(evidence: MatchEvidence): number[] {
  return [evidence.similarity, evidence.lead, evidence.first ? 1 : 0];
}

/** The logistic regression's output for the evidence, before the isotonic map. */
export function regressionScore(calibration: Pick<Calibration, 'plain' | 'busy'>, evidence: MatchEvidence): number {
  const { weights, bias } = evidence.busy ? calibration.busy : calibration.plain;
  const terms = termsOf(evidence);
  let z = bias;
  for (let i = 0; i < terms.length; i++) z += weights[i]! * terms[i]!;
  return 1 / (1 + Math.exp(-z));
}

/** The curve read at `x`: linear between its points, flat beyond its ends. */
export function interpolate(curve: Calibration['curve'], x: number): number {
  const { score: xs, probability: ys } = curve;
  if (xs.length === 0) return x;
  if (x <= xs[0]!) return ys[0]!;
  if (x >= xs[xs.length - 1]!) return ys[ys.length - 1]!;
  let lo = 0;
  let hi = xs.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! <= x) lo = mid;
    else hi = mid;
  }
  const span = xs[hi]! - xs[lo]!;
  return span > 0 ? ys[lo]! + ((ys[hi]! - ys[lo]!) * (x - xs[lo]!)) / span : ys[hi]!;
}

export function probabilityOf(calibration: Calibration, evidence: MatchEvidence): number {
  return interpolate(calibration.curve, regressionScore(calibration, evidence));
}

export function verdictOf(calibration: Calibration | undefined, probability: number): MatchVerdict | undefined {
  if (!calibration) return undefined;
  if (probability >= calibration.likely) return 'likely';
  return probability >= calibration.possible ? 'possible' : 'none';
}

/**
 * Checks a calibration read from a file: a weight per term, finite numbers, weights that are not negative (a
 * probability that rises with the similarity, so ranking stays the similarity's), a rising curve of probabilities,
 * thresholds in order.
 */
export function checkCalibration(name: string, calibration: Calibration): Calibration {
  const fine = (l: Logistic | undefined) =>
    l !== undefined &&
    l.weights.length === EVIDENCE_TERMS.length &&
    [...l.weights, l.bias].every(Number.isFinite) &&
    l.weights[0]! > 0 &&
    l.weights.every((w) => w >= 0);
  const { score: xs, probability: ys } = calibration.curve ?? { score: [], probability: [] };
  const ok =
    fine(calibration.plain) &&
    fine(calibration.busy) &&
    xs.length > 0 &&
    xs.length === ys.length &&
    xs.every((x, i) => i === 0 || x >= xs[i - 1]!) &&
    ys.every((y, i) => y >= 0 && y <= 1 && (i === 0 || y >= ys[i - 1]!)) &&
    calibration.possible >= 0 &&
    calibration.possible <= calibration.likely &&
    calibration.likely <= 1;
  if (!ok) throw new Error(`the calibration of ${name} is malformed`);
  return calibration;
}
