/**
 * Logo search and logo ingest: the descriptor index from a folder or S3; the primary embedder, the learned one
 * in-process (over S3 Vectors where their ARNs are set) or CLIP on SageMaker where configured. Only the image
 * functions load this (and so S3, SageMaker, S3 Vectors and sharp).
 */
import { S3Client } from '@aws-sdk/client-s3';
import { SageMakerRuntimeClient } from '@aws-sdk/client-sagemaker-runtime';
import { S3VectorsClient } from '@aws-sdk/client-s3vectors';
import { DEFAULT_INDEX_FOLDER, S3UsearchIndexStore } from '../adapters/aws/s3-usearch-index-store';
import { S3VectorsIndex } from '../adapters/aws/s3vectors-index';
import { SageMakerClipEmbedder } from '../adapters/aws/sagemaker-embedder';
import { lazyLearnedLogoEmbedder } from '../adapters/local/lazy-logo-embedder';
import { FolderUsearchIndexStore } from '../adapters/local/usearch-index-store';
import { type AppConfig, loadConfig } from '../config';
import { createLogoSearchService, type LogoSearchService } from '../imaging/logo-search-service';
import { INGEST_SVG_DEADLINE_MS, normalizeImage } from '../imaging/normalize-image';
import { PerceptualDescriptorEmbedder } from '../imaging/perceptual-descriptor';
import type { LogoIngestDeps } from '../ingest/ingest-logos';
import type { Market } from '../marks/mark-record';
import type { Embedder } from '../ports';
import { createLogger } from '../observability';
import { createTracer, traced } from '../tracing';
import { buildDataStores } from './data-stores';

/** Where the descriptor (degraded-path) indexes live: S3 in AWS, a local folder otherwise. */
function degradedIndexStore(config: AppConfig): S3UsearchIndexStore | FolderUsearchIndexStore {
  return config.logos.bucket
    ? new S3UsearchIndexStore(
        new S3Client({ region: config.region }),
        config.logos.bucket,
        config.logos.degradedPrefix,
        DEFAULT_INDEX_FOLDER,
      )
    : new FolderUsearchIndexStore(config.logos.indexDir);
}

/** The warning logged (at most once a minute) while the learned embedder's model cannot be loaded. */
export const MODEL_UNLOADABLE_MESSAGE = 'logo model unloadable';

/** One learned embedder per process: the model is loaded once, on first use. */
let learnedEmbedder: { modelPath: string; embedder: Embedder } | undefined;
function learnedEmbedderOf(modelPath: string): Embedder {
  if (learnedEmbedder?.modelPath !== modelPath)
    learnedEmbedder = { modelPath, embedder: lazyLearnedLogoEmbedder(modelPath) };
  return learnedEmbedder.embedder;
}

/**
 * The logo search: the learned embedder in-process over S3 Vectors (AWS) or the in-process index (local) as the
 * primary; CLIP on SageMaker with S3 Vectors where that is configured instead; the descriptor index from a folder or
 * S3 as the fallback.
 */
export function buildLogoSearch(config: AppConfig, batches = buildDataStores(config).batches): LogoSearchService {
  const indexes = degradedIndexStore(config);
  const clip = config.logos.clip;
  const arns = config.logos.vectorIndexArns;
  const tracer = createTracer(config.serviceName);
  // One attempt only on the search path: a retry would not fit the time budget, and the fallback answers instead.
  const s3vectors = (indexArns: { US: string; CN: string }) => (market: Market) =>
    new S3VectorsIndex(traced(tracer, new S3VectorsClient({ region: config.region, maxAttempts: 1 })), {
      indexArn: indexArns[market],
    });
  const primary = clip
    ? {
        embedder: new SageMakerClipEmbedder(
          traced(tracer, new SageMakerRuntimeClient({ region: config.region, maxAttempts: 1 })),
          clip.endpointName,
        ),
        index: s3vectors(clip.indexArns),
      }
    : config.logos.modelPath
      ? { embedder: learnedEmbedderOf(config.logos.modelPath), ...(arns ? { index: s3vectors(arns) } : {}) }
      : undefined;
  const logger = createLogger(config.serviceName);
  return createLogoSearchService({
    batches,
    indexes,
    ...(primary ? { primary } : {}),
    primaryBudgetMs: config.logos.primaryBudgetMs,
    onModelUnloadable: (error) =>
      logger.warn(MODEL_UNLOADABLE_MESSAGE, {
        modelPath: config.logos.modelPath,
        error: error instanceof Error ? { message: error.message, cause: String(error.cause) } : String(error),
      }),
  });
}

/** What logo ingest needs: the marks, the batches, the index store, and every embedder in use. */
export function buildLogoIngest(config: AppConfig, stores = buildDataStores(config)): LogoIngestDeps {
  const indexes = degradedIndexStore(config);
  const clip = config.logos.clip;
  const embedders: LogoIngestDeps['embedders'] = [{ embedder: new PerceptualDescriptorEmbedder() }];
  if (clip) {
    embedders.push({
      embedder: new SageMakerClipEmbedder(new SageMakerRuntimeClient({ region: config.region }), clip.endpointName, {
        budgetMs: 10_000,
      }),
      remoteIndex: (market) =>
        new S3VectorsIndex(new S3VectorsClient({ region: config.region }), { indexArn: clip.indexArns[market] }),
    });
  } else if (config.logos.modelPath) {
    const arns = config.logos.vectorIndexArns;
    embedders.push({
      embedder: learnedEmbedderOf(config.logos.modelPath),
      ...(arns
        ? {
            remoteIndex: (market: Market) =>
              new S3VectorsIndex(new S3VectorsClient({ region: config.region }), { indexArn: arns[market] }),
          }
        : {}),
    });
  }
  return {
    marks: stores.marks,
    batches: stores.batches,
    indexes,
    embedders,
    normalize: (bytes) => normalizeImage(bytes, { svgDeadlineMs: INGEST_SVG_DEADLINE_MS }),
    now: stores.now,
  };
}

let processLogoSearch: LogoSearchService | undefined;

/** The logo search of this process, over the data stores and indexes of its config. */
export function logoSearchService(): LogoSearchService {
  processLogoSearch ??= buildLogoSearch(loadConfig());
  return processLogoSearch;
}
