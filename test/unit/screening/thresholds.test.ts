/**
 * The thresholds of the brand-use model (builders/screening/thresholds.ts): the most recall a budget of false alarms
 * buys, taken with a margin over sets of titles drawn again by brand group.
 */
import { type ScoredTitle, thresholdFor, thresholdOf } from '../../../builders/screening/thresholds';

/** A title whose only match is labelled no brand use, scored `p`. */
function falseAlarm(group: string, p: number, nominative = false): ScoredTitle {
  return { group, scored: [{ p, label: 0, nominative }] };
}

describe('thresholdOf', () => {
  it('lets through exactly the budget of worst false alarms', () => {
    const worst = Array.from({ length: 100 }, (_, i) => i / 100);

    // 2% of 100 titles: the two worst (0.99, 0.98) may pass; the threshold sits just above the third (0.97).
    expect(thresholdOf(worst, 0.02)).toBeCloseTo(0.97 + 1e-6, 9);
  });

  it('stays between 0.05 and 0.99', () => {
    expect(thresholdOf([0, 0, 0], 0.02)).toBe(0.05);
    expect(thresholdOf([1, 1, 1], 0.02)).toBe(0.99);
  });
});

describe('thresholdFor', () => {
  const titles = Array.from({ length: 300 }, (_, i) => falseAlarm(`brand-${i % 120}`, ((i * 37) % 100) / 100));

  it('is the same on every run (fixed seed)', () => {
    expect(thresholdFor(titles, 0.02, false)).toBe(thresholdFor(titles, 0.02, false));
  });

  it('sits at or above the threshold taken once, and is not moved by much when one brand goes', () => {
    const once = thresholdOf(
      titles.map((t) => t.scored[0]!.p),
      0.02,
    );
    const all = thresholdFor(titles, 0.02, false);
    const without = thresholdFor(
      titles.filter((t) => t.group !== 'brand-7'),
      0.02,
      false,
    );

    expect(all).toBeGreaterThanOrEqual(once);
    expect(all - once).toBeLessThan(0.05);
    expect(Math.abs(all - without)).toBeLessThan(0.02);
  });

  it('takes a smaller margin the more brands it is chosen on', () => {
    const scores = (n: number) =>
      Array.from({ length: n }, (_, i) => falseAlarm(`brand-${i % (n / 2.5)}`, (i * 0.6180339887) % 1));
    const margin = (n: number) => {
      const many = scores(n);
      return (
        thresholdFor(many, 0.02, false) -
        thresholdOf(
          many.map((t) => t.scored[0]!.p),
          0.02,
        )
      );
    };

    expect(margin(300)).toBeGreaterThan(0);
    expect(margin(6000)).toBeLessThan(margin(300) / 2);
  });

  it('counts the worst match of a title that the labels call no brand use, and only those', () => {
    const brandUse = titles.map((t) => ({
      group: t.group,
      scored: [...t.scored, { p: 0.999, label: 1, nominative: false }],
    }));

    expect(thresholdFor(brandUse, 0.02, false)).toBe(thresholdFor(titles, 0.02, false));
  });

  it('leaves nominative uses out of the 高 budget only', () => {
    const nominative = titles.map((t, i) =>
      i % 10 === 0 ? falseAlarm(t.group, 0.995, true) : falseAlarm(t.group, 0.9 * t.scored[0]!.p),
    );

    expect(thresholdFor(nominative, 0.005, true)).toBeLessThan(0.99);
    expect(thresholdFor(nominative, 0.005, false)).toBeCloseTo(0.99, 9);
  });
});
