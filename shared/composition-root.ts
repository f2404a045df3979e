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
import { S3Client } from '@aws-sdk/client-s3';
import { SageMakerRuntimeClient } from '@aws-sdk/client-sagemaker-runtime';
import { S3VectorsClient } from '@aws-sdk/client-s3vectors';
import { S3UsearchIndexStore, DEFAULT_INDEX_FOLDER } from './adapters/aws/s3-usearch-index-store';
import { S3VectorsIndex } from './adapters/aws/s3vectors-index';
import { SageMakerClipEmbedder } from './adapters/aws/sagemaker-embedder';
import { FolderUsearchIndexStore } from './adapters/local/usearch-index-store';
import { lazyLearnedLogoEmbedder } from './adapters/local/lazy-logo-embedder';
import type { Embedder } from './ports';
import { createLogoSearchService, type LogoSearchService } from './imaging/logo-search-service';
import type { Market } from './marks/mark-record';
import type { LogoIngestDeps } from './ingest/ingest-logos';
import { normalizeImage } from './imaging/normalize-image';
import { PerceptualDescriptorEmbedder } from './imaging/perceptual-descriptor';
import { createScreeningService, type ScreeningService } from './screening/screening-service';
import { createLogger, createMetrics } from './observability';

export function buildDependencies(config: AppConfig, doc = createDynamoDbClients({ region: config.region, endpoint: config.dynamoDbEndpoint }).doc): ApiDependencies {
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

/** One learned embedder per process: the model is loaded once, on first use. */
let learnedEmbedder: { modelPath: string; embedder: Embedder } | undefined;
function learnedEmbedderOf(modelPath: string): Embedder {
  if (learnedEmbedder?.modelPath !== modelPath) learnedEmbedder = { modelPath, embedder: lazyLearnedLogoEmbedder(modelPath) };
  return learnedEmbedder.embedder;
}

/**
 * The logo search: the learned embedder in-process over S3 Vectors (AWS) or the in-process index (local) as the
 * primary; CLIP on SageMaker with S3 Vectors where that is configured instead; the descriptor index from a folder or
 * S3 as the fallback.
 */
export function buildLogoSearch(config: AppConfig, batches = buildDataStores(config).batches): LogoSearchService {
  const indexes = config.logos.bucket
    ? new S3UsearchIndexStore(new S3Client({ region: config.region }), config.logos.bucket, config.logos.degradedPrefix, DEFAULT_INDEX_FOLDER)
    : new FolderUsearchIndexStore(config.logos.indexDir);
  const clip = config.logos.clip;
  const arns = config.logos.vectorIndexArns;
  // One attempt only on the search path: a retry would not fit the time budget, and the fallback answers instead.
  const s3vectors = (indexArns: { US: string; CN: string }) => (market: Market) =>
    new S3VectorsIndex(new S3VectorsClient({ region: config.region, maxAttempts: 1 }), { indexArn: indexArns[market] });
  const primary = clip
    ? { embedder: new SageMakerClipEmbedder(new SageMakerRuntimeClient({ region: config.region, maxAttempts: 1 }), clip.endpointName), index: s3vectors(clip.indexArns) }
    : config.logos.modelPath
      ? { embedder: learnedEmbedderOf(config.logos.modelPath), ...(arns ? { index: s3vectors(arns) } : {}) }
      : undefined;
  return createLogoSearchService({ batches, indexes, ...(primary ? { primary } : {}), primaryBudgetMs: config.logos.primaryBudgetMs });
}

/** What logo ingest needs: the marks, the batches, the index store, and every embedder in use. */
export function buildLogoIngest(config: AppConfig, stores = buildDataStores(config)): LogoIngestDeps {
  const indexes = config.logos.bucket
    ? new S3UsearchIndexStore(new S3Client({ region: config.region }), config.logos.bucket, config.logos.degradedPrefix, DEFAULT_INDEX_FOLDER)
    : new FolderUsearchIndexStore(config.logos.indexDir);
  const clip = config.logos.clip;
  const embedders: LogoIngestDeps['embedders'] = [{ embedder: new PerceptualDescriptorEmbedder() }];
  if (clip) {
    embedders.push({
      embedder: new SageMakerClipEmbedder(new SageMakerRuntimeClient({ region: config.region }), clip.endpointName, { budgetMs: 10_000 }),
      remoteIndex: (market) => new S3VectorsIndex(new S3VectorsClient({ region: config.region }), { indexArn: clip.indexArns[market] }),
    });
  } else if (config.logos.modelPath) {
    const arns = config.logos.vectorIndexArns;
    embedders.push({
      embedder: learnedEmbedderOf(config.logos.modelPath),
      ...(arns ? { remoteIndex: (market: Market) => new S3VectorsIndex(new S3VectorsClient({ region: config.region }), { indexArn: arns[market] }) } : {}),
    });
  }
  return { marks: stores.marks, batches: stores.batches, indexes, embedders, normalize: (bytes) => normalizeImage(bytes), now: stores.now };
}

let processDependencies: ApiDependencies | undefined;
let processLogoSearch: LogoSearchService | undefined;

export function logoSearchService(): LogoSearchService {
  processLogoSearch ??= buildLogoSearch(loadConfig());
  return processLogoSearch;
}
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
