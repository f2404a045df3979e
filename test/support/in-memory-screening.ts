/**
 * The screening engine over the sample corpus (data/sample, data/tro, data/uspto) loaded through the real ingest
 * code into the in-memory stores: the unit tests' way to screen titles without Java. The integration tests run the
 * same hard cases on DynamoDB Local.
 */
import { loadSampleCorpus } from '../../local/sample-corpus';
import { createScreeningService, type ScreeningService } from '../../shared/screening/screening-service';
import type { TitleScreener } from '../../shared/screening/screen-titles';
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
