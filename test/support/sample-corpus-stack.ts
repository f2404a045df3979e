/** A test stack with the whole sample corpus loaded through the real ingest code (about 15 s on DynamoDB Local). */
import { buildDataStores } from '../../shared/composition/data-stores';
import type { IngestStores } from '../../shared/ingest/ingest-batch';
import { createScreeningService, type ScreeningService } from '../../shared/screening/screening-service';
import type { TitleScreener } from '../../shared/screening/screen-titles';
import { loadSampleCorpus } from '../../local/sample-corpus';
import { createTestStack, type TestStack } from './test-stack';

export interface SampleCorpusStack {
  stack: TestStack;
  stores: IngestStores;
  screening: ScreeningService & { screener: TitleScreener };
}

export async function createSampleCorpusStack(): Promise<SampleCorpusStack> {
  const stack = await createTestStack();
  const stores = buildDataStores(stack.config);
  await loadSampleCorpus(stores);
  return { stack, stores, screening: createScreeningService(stores) };
}
