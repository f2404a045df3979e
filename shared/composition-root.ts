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
import type { ApiDependencies } from './http/types';
import { createLogger, createMetrics } from './observability';

export function buildDependencies(config: AppConfig): ApiDependencies {
  const { doc } = createDynamoDbClients({ region: config.region, endpoint: config.dynamoDbEndpoint });
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

let processDependencies: ApiDependencies | undefined;

/** Built on first use and kept for the life of the Lambda instance (or the local server). */
export function dependencies(): ApiDependencies {
  processDependencies ??= buildDependencies(loadConfig());
  return processDependencies;
}
