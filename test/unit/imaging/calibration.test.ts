import {
  checkCalibration,
  evidenceOf,
  interpolate,
  probabilityOf,
  verdictOf,
  type Calibration,
  type MatchEvidence,
} from '../../../shared/imaging/calibration';
import {
  calibrationFor,
  calibrationKey,
  fitFor,
  LOGO_CALIBRATION_FITS,
  LOGO_CALIBRATIONS,
} from '../../../shared/imaging/logo-calibrations';
import { REMOTE_WINDOWS } from '../../../shared/imaging/regions';
import {
  auroc,
  fitCalibration,
  fitLogistic,
  LIKELY_PROBABILITY,
  wilsonLowerBound,
} from '../../../builders/logo-embedder/open-set-metrics';
import type { BenchQuery } from '../../../builders/logo-embedder/logo-benchmark';
import { seededRandom } from '../../../builders/synthetic-uspto/random';

const calibration: Calibration = {
  plain: { weights: [10, 5, 0], bias: -8 },
  busy: { weights: [10, 5, 0], bias: -10 },
  // The identity on [0, 1].
  curve: { score: [0, 1], probability: [0, 1] },
  likely: 0.8,
  possible: 0.3,
};
const evidence = (similarity: number, lead: number, busy = false): MatchEvidence => ({
  similarity,
  lead,
  first: false,
  busy,
});

/**
 * 2,000 queries of one answered mark each, every second one a busy picture, at a random similarity s: the mark is the
 * query's brand with probability rightShare(s, busy).
 */
function oneResultQueries(seed: number, rightShare: (s: number, busy: boolean) => number): BenchQuery[] {
  const random = seededRandom(seed);
  return Array.from({ length: 2000 }, (_, i) => {
    const busy = i % 2 === 1;
    const s = random();
    const serial = random() < rightShare(s, busy) ? 'B' : 'X';
    return {
      perturbation: 'p',
      group: 'simple',
      brand: 'B',
      registered: true,
      ms: 0,
      results: [],
      evidence: [{ serial, similarity: s, lead: 0, first: true, busy }],
    };
  });
}

describe('calibration', () => {
  it('reads the lead over the fifth best mark of the answer (the last where fewer answered) and which is first', () => {
    expect(evidenceOf([0.9, 0.8, 0.7, 0.6, 0.5, 0.4], true).map((e) => e.lead)).toEqual([
      0.4, 0.30000000000000004, 0.19999999999999996, 0.09999999999999998, 0, -0.09999999999999998,
    ]);
    expect(evidenceOf([0.9, 0.6], false)).toEqual([
      { similarity: 0.9, lead: 0.30000000000000004, first: true, busy: false },
      { similarity: 0.6, lead: 0, first: false, busy: false },
    ]);
    expect(evidenceOf([], false)).toEqual([]);
  });

  it('gives the probability of its picture kind, rising with similarity and lead', () => {
    expect(probabilityOf(calibration, evidence(0.8, 0))).toBeCloseTo(0.5, 6);
    expect(probabilityOf(calibration, evidence(0.8, 0, true))).toBeCloseTo(1 / (1 + Math.exp(2)), 6);
    expect(probabilityOf(calibration, evidence(0.8, 0.2))).toBeGreaterThan(
      probabilityOf(calibration, evidence(0.8, 0)),
    );
    expect(probabilityOf(calibration, evidence(0.9, 0))).toBeGreaterThan(probabilityOf(calibration, evidence(0.8, 0)));
  });

  it('maps the regression through the isotonic curve, linear between its points and flat beyond its ends', () => {
    const bent = { ...calibration, curve: { score: [0.2, 0.5, 0.9], probability: [0.1, 0.2, 0.9] } };
    // Regression output 0.5 (plain, similarity 0.8, no lead) is a point of the curve.
    expect(probabilityOf(bent, evidence(0.8, 0))).toBeCloseTo(0.2, 6);
    expect(interpolate(bent.curve, 0.7)).toBeCloseTo(0.55, 6);
    expect(interpolate(bent.curve, 0)).toBe(0.1);
    expect(interpolate(bent.curve, 1)).toBe(0.9);
    expect(() => checkCalibration('x', { ...calibration, curve: { score: [0, 1], probability: [0.5, 0.4] } })).toThrow(
      'malformed',
    );
  });

  it('gives the verdict by the thresholds, and "possible" when there is no calibration', () => {
    expect([0.9, 0.8, 0.5, 0.3, 0.29].map((p) => verdictOf(calibration, p))).toEqual([
      'likely',
      'likely',
      'possible',
      'possible',
      'none',
    ]);
    expect(verdictOf(undefined, 0.99)).toBeUndefined();
  });

  it('refuses a malformed calibration, and the shipped ones are well-formed for both embedders', () => {
    expect(() => checkCalibration('x', { ...calibration, possible: 0.9 })).toThrow('malformed');
    expect(() => checkCalibration('x', { ...calibration, busy: { weights: [1, 2], bias: 0 } })).toThrow('malformed');
    expect(() => checkCalibration('x', { ...calibration, plain: { weights: [-1, 0, 0], bias: 0 } })).toThrow(
      'malformed',
    );
    expect(() => checkCalibration('x', { ...calibration, busy: { weights: [1, -0.5, 0], bias: 0 } })).toThrow(
      'malformed',
    );
    expect(() => checkCalibration('x', { ...calibration, plain: { weights: [1, Number.NaN, 0], bias: 0 } })).toThrow(
      'malformed',
    );
    expect(Object.keys(LOGO_CALIBRATIONS).sort()).toEqual([
      'descriptor',
      'logo-net',
      calibrationKey('logo-net', REMOTE_WINDOWS),
    ]);
  });

  it('reads each search with its fit at the index size nearest its own, the largest where the size is unknown', () => {
    const at = (likely: number) => ({ ...calibration, likely });
    const fits = {
      'logo-net': [
        { calibration: at(0.9), indexDesigns: 650 },
        { calibration: at(0.95), indexDesigns: 100_000 },
      ],
    };
    expect(fitFor('logo-net', 676, fits)?.indexDesigns).toBe(650);
    expect(fitFor('logo-net', 5_000, fits)?.indexDesigns).toBe(650);
    expect(fitFor('logo-net', 10_000, fits)?.indexDesigns).toBe(100_000);
    expect(fitFor('logo-net', 3_000_000, fits)?.indexDesigns).toBe(100_000);
    expect(calibrationFor('logo-net', undefined, fits)?.likely).toBe(0.95);
    expect(calibrationFor('clip', 650, fits)).toBeUndefined();
    // The shipped fits: each search fit over the validation brands alone and at register scale, both recording the
    // designs their index held.
    for (const key of Object.keys(LOGO_CALIBRATIONS)) {
      const shipped = LOGO_CALIBRATION_FITS[key]!;
      expect(shipped.map((f) => f.indexDesigns > 0)).toEqual([true, true]);
      expect(shipped[1]!.indexDesigns).toBeGreaterThan(100 * shipped[0]!.indexDesigns);
      expect(calibrationFor(key, shipped[0]!.indexDesigns)).toBe(LOGO_CALIBRATIONS[key]);
    }
  });

  it('recovers the weights of a logistic model from its samples', () => {
    const random = seededRandom(3);
    const rows: number[][] = [];
    const labels: number[] = [];
    for (let i = 0; i < 4000; i++) {
      const x = [random(), random() - 0.5];
      rows.push(x);
      labels.push(random() < 1 / (1 + Math.exp(-(6 * x[0]! - 4 * x[1]! - 3))) ? 1 : 0);
    }
    const fit = fitLogistic(rows, labels, 0);
    expect(fit.weights[0]).toBeCloseTo(6, 0);
    expect(fit.weights[1]).toBeCloseTo(-4, 0);
    expect(fit.bias).toBeCloseTo(-3, 0);
  });

  it('fits probabilities that match the observed shares, per picture kind', () => {
    // A first result at similarity s is right with probability s; busy pictures' marks are right half as often.
    const queries = oneResultQueries(7, (s, busy) => (busy ? s / 2 : s));
    const fitted = fitCalibration(queries);
    expect(fitted.pairs).toBe(2000);
    const observed = (busy: boolean, lo: number, hi: number) => {
      const inBin = queries.filter((q) => {
        const e = q.evidence![0]!;
        return e.busy === busy && e.similarity >= lo && e.similarity < hi;
      });
      return inBin.filter((q) => q.evidence![0]!.serial === 'B').length / inBin.length;
    };
    for (const busy of [false, true]) {
      for (const [lo, hi] of [
        [0.2, 0.4],
        [0.6, 0.8],
      ] as const) {
        const predicted = probabilityOf(fitted, evidence((lo + hi) / 2, 0, busy));
        expect(Math.abs(predicted - observed(busy, lo, hi))).toBeLessThan(0.08);
      }
    }
    expect(probabilityOf(fitted, evidence(0.9, 0, true))).toBeLessThan(probabilityOf(fitted, evidence(0.9, 0)));
    expect(fitted.possible).toBeLessThanOrEqual(fitted.likely);
  });

  it('calls an answer "likely" from a probability of 0.95, and never where no answer is that sure', () => {
    const queriesWhere = (rightShare: (s: number) => number) => oneResultQueries(11, rightShare);
    // Right whenever the similarity is above 0.7: the curve reaches 1 there.
    const sure = fitCalibration(queriesWhere((s) => (s > 0.7 ? 1 : 0.2)));
    expect(sure.likely).toBe(LIKELY_PROBABILITY);
    expect(probabilityOf(sure, { similarity: 0.9, lead: 0, first: true, busy: false })).toBeGreaterThanOrEqual(0.95);
    // Never right more than 60% of the time: nothing is "likely", the threshold is out of reach.
    const unsure = fitCalibration(queriesWhere((s) => 0.6 * s));
    expect(unsure.likely).toBe(1);
    expect(verdictOf(unsure, probabilityOf(unsure, { similarity: 1, lead: 0, first: true, busy: false }))).not.toBe(
      'likely',
    );
  });

  it('bounds a share from below with 95% confidence', () => {
    expect(wilsonLowerBound(20, 20)).toBeCloseTo(0.881, 3);
    expect(wilsonLowerBound(990, 1000)).toBeGreaterThan(0.98);
    expect(wilsonLowerBound(950, 1000)).toBeLessThan(0.95);
    expect(wilsonLowerBound(0, 0)).toBe(0);
  });

  it('computes AUROC with ties counted half', () => {
    expect(auroc([0.9, 0.8], [0.1, 0.2])).toBe(1);
    expect(auroc([0.1], [0.9])).toBe(0);
    expect(auroc([0.5], [0.5])).toBe(0.5);
  });
});
