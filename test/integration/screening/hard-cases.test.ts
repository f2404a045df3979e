/**
 * The screening engine on the whole sample corpus (real ingest, DynamoDB Local): the hard cases sellers judge a
 * tool by (test/fixtures/screening/hard-cases.json): dual-use words, nominative use, misspellings, Chinese,
 * generic-only titles, TRO brands, an invisible character inside a brand, and the item's own class.
 */
import { describeHardCases, hardCases } from '../../support/hard-cases';
import { createSampleCorpusStack, type SampleCorpusStack } from '../../support/sample-corpus-stack';

// The sample corpus through DynamoDB Local: over 120 s under the test run's own load on a 2-core machine.
let corpus: SampleCorpusStack;
beforeAll(async () => {
  corpus = await createSampleCorpusStack();
}, 400_000);

describeHardCases(() => corpus.screening);

it('answers every item in order, with the data date of the latest US batch', async () => {
  const titles = hardCases().map((c) => c.title);
  const { results, dataAsOf } = await corpus.screening.screen(
    titles.map((title) => ({ title })),
    {},
  );
  expect(results.map((r) => r.name)).toEqual(titles);
  expect(dataAsOf).toBe('2026-11-22');
});

it('resolves a whole batch in one lookup per market, and a repeat from the cache', async () => {
  const screener = corpus.screening.screener;
  const titles = ['Lululemon Align leggings high rise', 'Brand new Xiaomi Redmi phone', '华为智能手表运动版'];
  const before = screener.lookups;
  await screener.screen(titles.map((title) => ({ title })));
  const first = screener.lookups - before;
  await screener.screen(titles.map((title) => ({ title })));
  expect(first).toBe(2);
  expect(screener.lookups - before).toBe(2);
});
