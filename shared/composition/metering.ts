/**
 * The composition root of the metered chain: config -> the DynamoDB adapters every API function needs (accounts,
 * keys, usage ledger, idempotency, rate limits), the logger and the metrics. The composition root is split by what
 * a function loads (shared/composition/*.ts), so that a function loads only the SDK clients it uses: batch
 * screening never loads S3, SageMaker or S3 Vectors, and its cold start does not pay for them.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoDbAccountStore } from '../adapters/aws/dynamodb-account-store';
import { createDynamoDbClients } from '../adapters/aws/dynamodb-client';
import { DynamoDbIdempotencyStore } from '../adapters/aws/dynamodb-idempotency-store';
import { DynamoDbRateLimiter } from '../adapters/aws/dynamodb-rate-limiter';
import { DynamoDbUsageLedger } from '../adapters/aws/dynamodb-usage-ledger';
import { type AppConfig, loadConfig } from '../config';
import type { ApiDependencies } from '../http/types';
import { createLogger, createMetrics } from '../observability';
import { createTracer, traced } from '../tracing';

/**
 * The document client of a config's DynamoDB (the endpoint is DynamoDB Local's in tests and `npm start`), its calls
 * traced (in Lambda).
 */
export function documentClientOf(config: AppConfig): DynamoDBDocumentClient {
  return traced(
    createTracer(config.serviceName),
    createDynamoDbClients({ region: config.region, endpoint: config.dynamoDbEndpoint }).doc,
  );
}

export function buildDependencies(config: AppConfig, doc = documentClientOf(config)): ApiDependencies {
  const t = config.tables;
  return {
    tracer: createTracer(config.serviceName),
    http: config.http,
    accounts: new DynamoDbAccountStore(doc, { accounts: t.accounts, apiKeys: t['api-keys'] }),
    ledger: new DynamoDbUsageLedger(doc, { accounts: t.accounts, usage: t.usage }),
    idempotency: new DynamoDbIdempotencyStore(
      doc,
      t.idempotency,
      config.http.idempotency.ttlSeconds,
      config.http.idempotency.lockSeconds,
    ),
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
