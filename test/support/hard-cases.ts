/** The hand-written hard cases of screening (test/fixtures/screening/hard-cases.json), and the tests they make. */
import type { ScreeningService } from '../../shared/screening/screening-service';

export interface HardCase {
  kind: string;
  title: string;
  nice?: string;
  risk: '高' | '中' | '低';
  top_conflict?: string;
  tro_hit?: boolean;
  /** Why the shipped brand-use model answers otherwise: the case is a known miss, reported, not hidden. */
  known_miss?: string;
}

export function hardCases(): HardCase[] {
  return require('../fixtures/screening/hard-cases.json') as HardCase[];
}

/**
 * One test per hard case, against whichever stores `screening` reads (in-memory in the unit layer, DynamoDB Local in
 * the integration layer). A case the brand-use model is known to get wrong (its reason in the fixture) is expected
 * to fail: when a model gets it right, its test fails and the case's `known_miss` goes.
 */
export function describeHardCases(screening: () => Pick<ScreeningService, 'screen'>): void {
  describe.each(hardCases())('$kind: $title', (hardCase) => {
    const expectation = hardCase.known_miss ? it.failing : it;
    expectation(`is ${hardCase.risk}${hardCase.top_conflict ? ` with ${hardCase.top_conflict}` : ''}`, async () => {
      const { results } = await screening().screen(
        [{ title: hardCase.title, ...(hardCase.nice ? { nice: hardCase.nice } : {}) }],
        { detail: true },
      );
      const [result] = results;

      expect(result!.risk).toBe(hardCase.risk);
      if (hardCase.top_conflict !== undefined) expect(result!.top_conflict).toBe(hardCase.top_conflict);
      if (hardCase.tro_hit !== undefined) expect(result!.tro_hit).toBe(hardCase.tro_hit);
    });
  });
}
