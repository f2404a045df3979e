/**
 * The composition root: the one place that turns config into adapters. Handlers ask it for their dependencies;
 * tests build their own from a config that points at DynamoDB Local.
 */
import { loadConfig, type AppConfig } from './config';
import { createDynamoDbClients } from './adapters/aws/dynamodb-client';
import { DynamoDbAccountStore } from './adapters/aws/dynamodb-account-store';
import { DynamoDbIdempotencyStore } from './adapters/aws/dynamodb-idempotency-store';
import { DynamoDbRateLimiter } from './adapters/aws/dynamodb-rate-limiter';
import { DynamoDbUsageLedger } from './adapters/aws/dynamodb-usage-ledger';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoDbDataBatchStore } from './adapters/aws/dynamodb-data-batch-store';
import { DynamoDbKeyFilterStore } from './adapters/aws/dynamodb-key-filter-store';
import { DynamoDbMarkStore } from './adapters/aws/dynamodb-mark-store';
import { DynamoDbTroStore } from './adapters/aws/dynamodb-tro-store';
import type { ApiDependencies } from './http/types';
import type { IngestStores } from './ingest/ingest-batch';
import { createScreeningService, type ScreeningService } from './screening/screening-service';
import { createLogger, createMetrics } from './observability';

export function buildDependencies(config: AppConfig): ApiDependencies {
  const { doc } = createDynamoDbClients({ region: config.region, endpoint: config.dynamoDbEndpoint });
  return buildMeteringDependencies(config, doc);
}

function buildMeteringDependencies(config: AppConfig, doc: DynamoDBDocumentClient): ApiDependencies {
  const t = config.tables;
  return {
    http: config.http,
    accounts: new DynamoDbAccountStore(doc, { accounts: t.accounts, apiKeys: t['api-keys'] }),
    ledger: new DynamoDbUsageLedger(doc, { accounts: t.accounts, usage: t.usage }),
    idempotency: new DynamoDbIdempotencyStore(doc, t.idempotency, config.http.idempotency.ttlSeconds, config.http.idempotency.lockSeconds),
    rateLimiter: new DynamoDbRateLimiter(doc, t['rate-limits'], config.http.rateLimit.windowSeconds),
    logger: createLogger(config.serviceName),
    metrics: createMetrics(config.serviceName, config.metricsNamespace),
    now: () => new Date(),
  };
}

/** The trademark data stores: what ingest writes and screening and image search read. */
export function buildDataStores(config: AppConfig, doc = createDynamoDbClients({ region: config.region, endpoint: config.dynamoDbEndpoint }).doc): IngestStores {
  const t = config.tables;
  return {
    marks: new DynamoDbMarkStore(doc, { marks: t.marks, markKeys: t['mark-keys'] }),
    tro: new DynamoDbTroStore(doc, t['tro-brands']),
    batches: new DynamoDbDataBatchStore(doc, t['data-batches']),
    keyFilters: new DynamoDbKeyFilterStore(doc, t['data-batches']),
    now: () => new Date(),
  };
}

let processDependencies: ApiDependencies | undefined;
let processScreening: ScreeningService | undefined;

/** The screening engine for this process, over the data stores of its config. */
export function screeningService(): ScreeningService {
  processScreening ??= createScreeningService(buildDataStores(loadConfig()));
  return processScreening;
}

/** Built on first use and kept for the life of the Lambda instance (or the local server). */
export function dependencies(): ApiDependencies {
  processDependencies ??= buildDependencies(loadConfig());
  return processDependencies;
}
