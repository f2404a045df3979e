/** The trademark data stores on DynamoDB: what ingest writes and screening and image search read. */
import { DynamoDbDataBatchStore } from '../adapters/aws/dynamodb-data-batch-store';
import { DynamoDbDataJobStore } from '../adapters/aws/dynamodb-data-job-store';
import { DynamoDbKeyFilterStore } from '../adapters/aws/dynamodb-key-filter-store';
import { DynamoDbMarkStore } from '../adapters/aws/dynamodb-mark-store';
import { DynamoDbTroStore } from '../adapters/aws/dynamodb-tro-store';
import type { AppConfig } from '../config';
import type { IngestStores } from '../ingest/ingest-batch';
import type { DataJobStore } from '../ports';
import { documentClientOf } from './metering';

export function buildDataStores(config: AppConfig, doc = documentClientOf(config)): IngestStores {
  const t = config.tables;
  return {
    marks: new DynamoDbMarkStore(doc, { marks: t.marks, markKeys: t['mark-keys'] }),
    tro: new DynamoDbTroStore(doc, t['tro-brands']),
    batches: new DynamoDbDataBatchStore(doc, t['data-batches']),
    keyFilters: new DynamoDbKeyFilterStore(doc, t['data-batches']),
    now: () => new Date(),
  };
}

/** The scheduled data jobs' state, kept in the data-batches table beside the batches they apply. */
export function buildDataJobStore(config: AppConfig, doc = documentClientOf(config)): DataJobStore {
  return new DynamoDbDataJobStore(doc, config.tables['data-batches']);
}
