/**
 * The hard cases sellers judge a screening tool by (test/fixtures/screening/hard-cases.json), on the sample corpus
 * in the in-memory stores: dual-use words, nominative use, misspellings, Chinese, generic-only titles, TRO brands,
 * an invisible character inside a brand, the item's own class. The same cases run on DynamoDB Local in
 * test/integration/screening/hard-cases.test.ts.
 */
import { hardCases } from '../../support/hard-cases';
import { createInMemoryScreening, type InMemoryScreening } from '../../support/in-memory-screening';

let corpus: InMemoryScreening;
beforeAll(async () => {
  corpus = await createInMemoryScreening();
}, 60_000);

describe.each(hardCases())('$kind: $title', (hardCase) => {
  // A case the brand-use model is known to get wrong (its reason in the fixture) is expected to fail: when a model
  // gets it right, this test fails and the case's `known_miss` goes.
  const expectation = hardCase.known_miss ? it.failing : it;
  expectation(`is ${hardCase.risk}${hardCase.top_conflict ? ` with ${hardCase.top_conflict}` : ''}`, async () => {
    const { results } = await corpus.screening.screen(
      [{ title: hardCase.title, ...(hardCase.nice ? { nice: hardCase.nice } : {}) }],
      { detail: true },
    );
    const [result] = results;

    expect(result!.risk).toBe(hardCase.risk);
    if (hardCase.top_conflict !== undefined) expect(result!.top_conflict).toBe(hardCase.top_conflict);
    if (hardCase.tro_hit !== undefined) expect(result!.tro_hit).toBe(hardCase.tro_hit);
  });
});
