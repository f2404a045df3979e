/**
 * The data stores of a local tool that writes batches, announcing each completed one where it will be re-screened:
 * to the running `npm start` when the tables are its own, to the configured EventBridge bus when they are deployed
 * ones (DATA_EVENT_BUS_NAME), nowhere otherwise.
 */
import { buildAnnouncingDataStores } from '../shared/composition/batch-events';
import type { AppConfig } from '../shared/config';
import type { IngestStores } from '../shared/ingest/ingest-batch';
import { ServiceBatchEvents } from './service-batch-events';
import { runningService } from './target-environment';

export function announcingStores(
  config: AppConfig,
  env: NodeJS.ProcessEnv,
  warn: (line: string) => void,
): IngestStores {
  const stores = buildAnnouncingDataStores(config);
  const service = runningService(env);
  return service ? { ...stores, events: new ServiceBatchEvents(service, warn) } : stores;
}
