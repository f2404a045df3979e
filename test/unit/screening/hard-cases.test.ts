/**
 * The hard cases sellers judge a screening tool by (test/fixtures/screening/hard-cases.json), on the sample corpus
 * in the in-memory stores: dual-use words, nominative use, misspellings, Chinese, generic-only titles, TRO brands,
 * an invisible character inside a brand, the item's own class. The same cases run on DynamoDB Local in
 * test/integration/screening/hard-cases.test.ts.
 */
import { describeHardCases } from '../../support/hard-cases';
import { createInMemoryScreening, type InMemoryScreening } from '../../support/in-memory-screening';

let corpus: InMemoryScreening;
beforeAll(async () => {
  corpus = await createInMemoryScreening();
}, 60_000);

describeHardCases(() => corpus.screening);
