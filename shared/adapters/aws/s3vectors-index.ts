/**
 * The logo vectors of one market in an Amazon S3 Vectors index (cosine distance), over `@aws-sdk/client-s3vectors`.
 *
 * Stored per vector, one per design of a mark: key = `<serial>#<design hash>` (designKeyOf: the first 16 hex digits
 * of the SHA-256 of the design's name, so a key stays short whatever the file is called); data.float32 = the
 * embedding; metadata
 *   {"serial": "<serial>", "design": "<file>", "mark": "<text>", "nice": ["09", "25"], "is_live": true}
 * `nice` and `is_live` must stay filterable; `serial`, `design` and `mark` are read back only and may be declared
 * non-filterable on the index (infra/constructs/logo-vector-indexes.ts does), which keeps the filterable metadata
 * well under its 2 KB.
 *
 * Designs: a query asks for DESIGN_OVERFETCH x topK vectors (at most 100) and collapses them to the best design of
 * each mark (bestDesignPerMark), so topK counts marks. A mark with more designs near the query than that spare
 * room can still push another mark out of a long list; its own rank is right.
 *
 * Query filter (S3 Vectors' JSON filter language):
 *   nice only           {"nice": {"$eq": "09"}}
 *   live only           {"is_live": {"$eq": true}}
 *   both                {"$and": [{"nice": {"$eq": "09"}}, {"is_live": {"$eq": true}}]}
 * `nice` is a list: S3 Vectors' `$eq` against a list-valued key is true when ANY element equals the value, which is
 * exactly "this mark is registered in class 09". (`$in` is the other way round: a scalar key among several values.)
 *
 * Score: S3 Vectors returns the cosine distance d = 1 - cos(a, b) in [0, 2]; the score is max(0, min(1, 1 - d)),
 * the same mapping as the usearch index, so scores from both indexes mean the same thing.
 *
 * Limits honoured: topK at most 100 per QueryVectors (larger requests are capped); at most 500 vectors per
 * PutVectors (larger puts are sent in sequential batches of 500).
 *
 * Errors, all SearchBackendUnavailableError('s3vectors', reason):
 *   timeout    the caller's signal or this index's query budget fired, or RequestTimeoutException
 *   throttled  TooManyRequestsException / ThrottlingException / HTTP 429
 *   failed     anything else (ValidationException, NotFoundException, AccessDenied, 5xx, a malformed answer)
 * Build the S3VectorsClient with `maxAttempts: 1` for the search path (a retry rarely fits in the budget; the
 * caller falls back to the in-process index) and with the SDK's default retries for ingest.
 */
import {
  PutVectorsCommand,
  QueryVectorsCommand,
  type PutInputVector,
  type QueryOutputVector,
  type S3VectorsClient,
} from '@aws-sdk/client-s3vectors';
import { createHash } from 'node:crypto';
import { SearchBackendUnavailableError } from '../../imaging/image-errors';
import { bestDesignPerMark } from '../../imaging/best-design-per-mark';
import type { LogoMetadata, VectorIndex, VectorMatch, VectorQuery } from '../../ports';
import { classifyDependencyFailure } from '../../dependency-failures';

/** Documented S3 Vectors limits. */
export const S3_VECTORS_MAX_TOP_K = 100;
export const S3_VECTORS_MAX_PUT_BATCH = 500;
const BACKEND = 's3vectors';
/** Vectors fetched per mark asked for: room for a few designs of each mark before they collapse. */
export const DESIGN_OVERFETCH = 3;

/** The vector key of one design of a mark. */
export function designKeyOf(serial: string, design: string): string {
  return `${serial}#${createHash('sha256').update(design).digest('hex').slice(0, 16)}`;
}

/** Which index: the ARN (what infra exports), or bucket and index names. */
export type S3VectorsIndexTarget = { indexArn: string } | { vectorBucketName: string; indexName: string };

export interface S3VectorsIndexOptions {
  /** Longest a query may take (default 1000 ms); the caller's signal can cut it shorter. */
  queryBudgetMs?: number;
  /** Vectors per PutVectors call (default and maximum 500). */
  putBatchSize?: number;
}

/** Cosine distance (1 - cosine similarity) to a score in [0, 1]; shared meaning with the usearch index. */
export function scoreFromCosineDistance(distance: number): number {
  return Math.max(0, Math.min(1, 1 - distance));
}

/** A JSON document as the S3 Vectors filter takes it. */
export type FilterDocument = string | number | boolean | FilterDocument[] | { [key: string]: FilterDocument };

/** The S3 Vectors filter document for a query, or undefined when nothing is filtered. */
export function filterFor(query: Pick<VectorQuery, 'nice' | 'liveOnly'>): FilterDocument | undefined {
  const clauses: FilterDocument[] = [];
  if (query.nice !== undefined) clauses.push({ nice: { $eq: query.nice } });
  if (query.liveOnly) clauses.push({ is_live: { $eq: true } });
  if (clauses.length === 0) return undefined;
  if (clauses.length === 1) return clauses[0];
  return { $and: clauses };
}

export class S3VectorsIndex implements VectorIndex {
  private readonly queryBudgetMs: number;
  private readonly putBatchSize: number;

  constructor(
    private readonly client: S3VectorsClient,
    private readonly target: S3VectorsIndexTarget,
    options: S3VectorsIndexOptions = {},
  ) {
    this.queryBudgetMs = options.queryBudgetMs ?? 1000;
    this.putBatchSize = options.putBatchSize ?? S3_VECTORS_MAX_PUT_BATCH;
    if (!Number.isInteger(this.putBatchSize) || this.putBatchSize < 1 || this.putBatchSize > S3_VECTORS_MAX_PUT_BATCH) {
      throw new Error(`putBatchSize must be 1..${S3_VECTORS_MAX_PUT_BATCH}, got ${this.putBatchSize}`);
    }
  }

  async query(vector: Float32Array, query: VectorQuery): Promise<VectorMatch[]> {
    if (!Number.isInteger(query.topK) || query.topK < 1) throw new RangeError(`topK must be >= 1, got ${query.topK}`);
    const budget = AbortSignal.timeout(this.queryBudgetMs);
    const signal = query.signal ? AbortSignal.any([query.signal, budget]) : budget;
    if (signal.aborted) throw new SearchBackendUnavailableError(BACKEND, 'timeout', { cause: signal.reason });

    const filter = filterFor(query);
    let found: QueryOutputVector[];
    try {
      const out = await this.client.send(
        new QueryVectorsCommand({
          ...this.target,
          queryVector: { float32: Array.from(vector) },
          topK: Math.min(query.topK * DESIGN_OVERFETCH, S3_VECTORS_MAX_TOP_K),
          ...(filter ? { filter } : {}),
          returnMetadata: true,
          returnDistance: true,
        }),
        { abortSignal: signal },
      );
      found = out.vectors ?? [];
    } catch (err) {
      throw new SearchBackendUnavailableError(BACKEND, reasonOf(err, signal), { cause: err });
    }
    try {
      return bestDesignPerMark(found.map(toMatch)).slice(0, query.topK);
    } catch (err) {
      throw new SearchBackendUnavailableError(BACKEND, 'failed', { cause: err });
    }
  }

  async put(items: readonly { vector: Float32Array; metadata: LogoMetadata }[]): Promise<void> {
    for (let start = 0; start < items.length; start += this.putBatchSize) {
      const vectors: PutInputVector[] = items.slice(start, start + this.putBatchSize).map(({ vector, metadata }) => ({
        key: designKeyOf(metadata.serial, metadata.design),
        data: { float32: Array.from(vector) },
        metadata: {
          serial: metadata.serial,
          design: metadata.design,
          mark: metadata.mark,
          nice: [...metadata.nice],
          is_live: metadata.isLive,
        },
      }));
      try {
        await this.client.send(new PutVectorsCommand({ ...this.target, vectors }));
      } catch (err) {
        throw new SearchBackendUnavailableError(BACKEND, reasonOf(err, undefined), { cause: err });
      }
    }
  }
}

function toMatch(found: QueryOutputVector): VectorMatch {
  const key = found.key;
  const distance = found.distance;
  const metadata = found.metadata as Record<string, unknown> | undefined;
  if (typeof key !== 'string' || typeof distance !== 'number' || !metadata || typeof metadata !== 'object') {
    throw new Error('QueryVectors returned a vector without key, distance or metadata');
  }
  const nice = Array.isArray(metadata.nice)
    ? metadata.nice.map(String)
    : typeof metadata.nice === 'string'
      ? [metadata.nice]
      : [];
  // Vectors stored before designs had keys of their own carry the serial as the key and no serial in the metadata.
  const serial = typeof metadata.serial === 'string' ? metadata.serial : key;
  return {
    serial,
    design: typeof metadata.design === 'string' ? metadata.design : '',
    mark: typeof metadata.mark === 'string' ? metadata.mark : '',
    nice,
    isLive: metadata.is_live === true,
    score: scoreFromCosineDistance(distance),
  };
}

function reasonOf(err: unknown, signal: AbortSignal | undefined): 'timeout' | 'throttled' | 'failed' {
  const kind = classifyDependencyFailure(err, signal);
  return kind === 'unavailable' ? 'failed' : kind;
}
