/**
 * The screening engine over the sample corpus (data/sample, data/tro, data/uspto) loaded through the real ingest
 * code into the in-memory stores: the unit tests' way to screen titles without Java. The integration tests run the
 * same hard cases on DynamoDB Local.
 */
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { loadSampleCorpus } from '../../local/sample-corpus';
import { ingestBatch } from '../../shared/ingest/ingest-batch';
import { createScreeningService, type ScreeningService } from '../../shared/screening/screening-service';
import type { ScreeningResult, TitleScreener } from '../../shared/screening/screen-titles';
import { createInMemoryDataStores } from './in-memory-data-stores';

export interface InMemoryScreening {
  stores: ReturnType<typeof createInMemoryDataStores>;
  screening: ScreeningService & { screener: TitleScreener };
}

export async function createInMemoryScreening(options: { refreshMs?: number } = {}): Promise<InMemoryScreening> {
  const stores = createInMemoryDataStores();
  await loadSampleCorpus(stores);
  return { stores, screening: createScreeningService(stores, options) };
}

/**
 * The sample corpus plus the marks of the failure classes (test/fixtures/screening/failure-class-marks.jsonl),
 * ingested as one complete batch through the real ingest code; `holder` names the test that holds the batch.
 */
export async function createFailureClassScreening(holder: string): Promise<InMemoryScreening> {
  return createScreeningWithMarks('failure-class-marks.jsonl', holder, '2026-11-24');
}

/**
 * The sample corpus plus a file of marks from test/fixtures/screening (canonical marks-jsonl), ingested as one
 * complete batch through the real ingest code; `holder` names the test that holds the batch.
 */
export async function createScreeningWithMarks(
  fixture: string,
  holder: string,
  batchDate: string,
): Promise<InMemoryScreening> {
  const corpus = await createInMemoryScreening();
  const summary = await ingestBatch(corpus.stores, {
    kind: 'marks-jsonl',
    market: 'US',
    input: createReadStream(path.join(__dirname, '../fixtures/screening', fixture)),
    batchDate,
    source: path.basename(fixture, '.jsonl'),
    holder,
  });
  if (!summary.complete || summary.rejected !== 0)
    throw new Error(`the marks of ${fixture} did not load: ${JSON.stringify(summary)}`);
  return corpus;
}

/** One title screened with `detail`, with its Nice class if given: the unit tests' way to ask about a title. */
export async function screenOne(corpus: InMemoryScreening, title: string, nice?: string): Promise<ScreeningResult> {
  const { results } = await corpus.screening.screen([{ title, ...(nice ? { nice } : {}) }], { detail: true });
  return results[0]!;
}
