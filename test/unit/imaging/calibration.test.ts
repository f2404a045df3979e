import { checkCalibration, probabilityOf, verdictOf, type Calibration } from '../../../shared/imaging/calibration';
import { LOGO_CALIBRATIONS } from '../../../shared/imaging/logo-calibrations';
import { fitCalibration, auroc } from '../../../builders/logo-embedder/open-set-metrics';
import type { BenchQuery } from '../../../builders/logo-embedder/logo-benchmark';

const curve: Calibration = {
  similarity: [0.2, 0.5, 0.5, 0.9],
  probability: [0, 0.1, 0.4, 1],
  likely: 0.8,
  possible: 0.3,
};

describe('calibration', () => {
  it('interpolates between breakpoints and clamps outside them', () => {
    expect(probabilityOf(curve, 0)).toBe(0);
    expect(probabilityOf(curve, 0.35)).toBeCloseTo(0.05, 6);
    expect(probabilityOf(curve, 0.7)).toBeCloseTo(0.7, 6);
    expect(probabilityOf(curve, 1)).toBe(1);
  });

  it('gives the verdict by the thresholds, and "possible" when there is no calibration', () => {
    expect([0.9, 0.8, 0.5, 0.3, 0.29].map((p) => verdictOf(curve, p))).toEqual([
      'likely',
      'likely',
      'possible',
      'possible',
      'none',
    ]);
    expect(verdictOf(undefined, 0.99)).toBe('possible');
  });

  it('refuses a malformed calibration, and the shipped ones are well-formed for both embedders', () => {
    expect(() => checkCalibration('x', { ...curve, probability: [0.5, 0.1, 0.4, 1] })).toThrow('malformed');
    expect(() => checkCalibration('x', { ...curve, possible: 0.9 })).toThrow('malformed');
    expect(Object.keys(LOGO_CALIBRATIONS).sort()).toEqual(['descriptor', 'logo-net']);
  });

  it('fits a non-decreasing curve whose probabilities match the observed shares', () => {
    // 100 queries: a first result at similarity s is right with probability s (deterministic pattern).
    const queries: BenchQuery[] = Array.from({ length: 100 }, (_, i) => {
      const s = i / 100;
      const right = (i * 37) % 100 < s * 100;
      return {
        perturbation: 'p',
        group: 'simple',
        brand: 'B',
        registered: true,
        ms: 0,
        results: [{ serial: right ? 'B' : 'X', mark: '', score: s, match: 'possible', nice: '', is_live: 1 }],
      };
    });
    const fitted = fitCalibration(queries);
    expect(fitted.probability.every((p, i) => i === 0 || p >= fitted.probability[i - 1]!)).toBe(true);
    expect(probabilityOf(fitted, 0.05)).toBeLessThan(0.2);
    expect(probabilityOf(fitted, 0.95)).toBeGreaterThan(0.8);
    expect(fitted.possible).toBeLessThanOrEqual(fitted.likely);
  });

  it('computes AUROC with ties counted half', () => {
    expect(auroc([0.9, 0.8], [0.1, 0.2])).toBe(1);
    expect(auroc([0.1], [0.9])).toBe(0);
    expect(auroc([0.5], [0.5])).toBe(0.5);
  });
});
