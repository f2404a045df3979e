/**
 * A local fake of the Amazon S3 Vectors API. S3 Vectors has no local form (no emulator, no container), so tests of
 * the S3 Vectors adapter point the REAL `S3VectorsClient` at this HTTP server: the SDK's own serialisers, signer,
 * error parser and retry logic all run, and only the service behind them is played here.
 *
 * Wire format (restJson1, as the SDK's schema in @aws-sdk/client-s3vectors/dist-cjs sends it): every operation is
 * `POST /<OperationName>` with a JSON body; success is 200 with a JSON body; an error is its HTTP status with the
 * header `x-amzn-errortype: <ExceptionName>` and a body `{"message": "..."}` (ValidationException also carries
 * `fieldList: [{path, message}]`).
 *
 * Operations: CreateVectorBucket, CreateIndex, PutVectors, QueryVectors, GetVectors. The index is addressed by
 * `vectorBucketName` + `indexName` or by `indexArn` (arn:aws:s3vectors:<region>:<account>:bucket/<b>/index/<i>).
 *
 * Behaviour modelled on the documented service:
 * - vectors are stored as float32 (the service converts to float32); PutVectors overwrites an existing key;
 * - QueryVectors is an EXACT search (the service is approximate; exact is the reference it approximates), sorted by
 *   ascending distance; cosine distance = 1 - cos(a, b), euclidean = the L2 distance; `distance` only with
 *   returnDistance, `metadata` (all keys) only with returnMetadata; `distanceMetric` always;
 * - the filter language: implicit equality, $eq $ne $gt $gte $lt $lte $in $nin $exists $and $or; several keys or
 *   operators in one object are ANDed; against a list-valued key, $eq/$in/$gt.. are true when ANY element matches
 *   (the documented list semantics) and $ne/$nin when NO element does;
 * - validation (400 ValidationException): topK 1..100, vectors per PutVectors 1..500, key length 1..1024, vector
 *   length = the index dimension (on put and on query), finite values, no all-zero vector on a cosine index,
 *   metadata keys <= 50, filterable metadata <= 2 KB and all metadata <= 40 KB per vector (JSON-encoded size),
 *   metadata values string/number/boolean/list, unknown filter operators or wrongly typed operands, both or
 *   neither index addressing; 404 NotFoundException for an unknown bucket or index; 409 ConflictException for an
 *   existing bucket or index; 403 AccessDeniedException for an unsigned request.
 *
 * Limits (not modelled): SigV4 signatures are not verified (only their presence and the `s3vectors` scope);
 * pagination (nextToken) and the approximate nature of the real search are not reproduced; request-rate quotas are a
 * knob (`throttleNext`), not a measurement; filtering on a key declared non-filterable is answered with a
 * ValidationException here (the service's exact answer is not documented); metadata sizes are measured as JSON,
 * which approximates the service's own accounting.
 *
 * Over 400 lines on purpose: it fakes one whole remote API (every S3 Vectors call the adapter makes, with its errors), read as one page.
 */
import { S3VectorsClient } from '@aws-sdk/client-s3vectors';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface FakeIndexDefinition {
  vectorBucketName: string;
  indexName: string;
  dimension: number;
  distanceMetric?: 'cosine' | 'euclidean';
  nonFilterableMetadataKeys?: string[];
}

export interface RecordedRequest {
  operation: string;
  body: Record<string, unknown>;
}

export interface S3VectorsFake {
  /** What to give the client as `endpoint`. */
  endpoint: string;
  region: string;
  /** Every request received (after authentication), oldest first. */
  requests: RecordedRequest[];
  /** Creates a bucket (if needed) and an index directly, as infra would; returns the index ARN. */
  createIndex(definition: FakeIndexDefinition): string;
  /** Answers the next `count` requests (Infinity: all) with 429 TooManyRequestsException. */
  throttleNext(count: number): void;
  /** Delays every answer by this many milliseconds (0: none). */
  delayMs: number;
  /** Stored vector count of an index. */
  size(vectorBucketName: string, indexName: string): number;
  close(): Promise<void>;
}

type MetadataValue = string | number | boolean | MetadataValue[];
type Metadata = Record<string, MetadataValue>;

interface StoredVector {
  data: Float32Array;
  metadata: Metadata;
}

interface FakeIndex {
  bucket: string;
  name: string;
  arn: string;
  dimension: number;
  distanceMetric: 'cosine' | 'euclidean';
  nonFilterable: Set<string>;
  vectors: Map<string, StoredVector>;
}

const MAX_TOP_K = 100;
const MAX_PUT = 500;
const MAX_KEY_LENGTH = 1024;
const MAX_METADATA_KEYS = 50;
const MAX_FILTERABLE_BYTES = 2048;
const MAX_METADATA_BYTES = 40 * 1024;
const MAX_PAYLOAD_BYTES = 20 * 1024 * 1024;
const NAME_PATTERN = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly fieldList?: { path: string; message: string }[],
  ) {
    super(message);
  }
}

function validation(path: string, message: string): ApiError {
  return new ApiError(400, 'ValidationException', `${path}: ${message}`, [{ path, message }]);
}

export async function startS3VectorsFake(
  options: { region?: string; accountId?: string } = {},
): Promise<S3VectorsFake> {
  const region = options.region ?? 'us-east-1';
  const accountId = options.accountId ?? '123456789012';
  const buckets = new Map<string, Map<string, FakeIndex>>();
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const pendingDelays = new Map<NodeJS.Timeout, () => void>();
  let throttleRemaining = 0;
  const state = { delayMs: 0 };

  function createBucket(name: string): void {
    if (!NAME_PATTERN.test(name))
      throw validation('vectorBucketName', 'must be 3-63 lowercase letters, digits, dots or hyphens');
    if (buckets.has(name)) throw new ApiError(409, 'ConflictException', `Vector bucket ${name} already exists`);
    buckets.set(name, new Map());
  }

  function addIndex(def: FakeIndexDefinition): FakeIndex {
    const bucket = buckets.get(def.vectorBucketName);
    if (!bucket) throw new ApiError(404, 'NotFoundException', `Vector bucket ${def.vectorBucketName} not found`);
    if (!NAME_PATTERN.test(def.indexName))
      throw validation('indexName', 'must be 3-63 lowercase letters, digits, dots or hyphens');
    if (bucket.has(def.indexName))
      throw new ApiError(409, 'ConflictException', `Index ${def.indexName} already exists`);
    if (!Number.isInteger(def.dimension) || def.dimension < 1 || def.dimension > 4096) {
      throw validation('dimension', 'must be an integer from 1 to 4096');
    }
    const nonFilterable = def.nonFilterableMetadataKeys ?? [];
    if (nonFilterable.length > 10)
      throw validation('metadataConfiguration.nonFilterableMetadataKeys', 'at most 10 keys');
    const index: FakeIndex = {
      bucket: def.vectorBucketName,
      name: def.indexName,
      arn: `arn:aws:s3vectors:${region}:${accountId}:bucket/${def.vectorBucketName}/index/${def.indexName}`,
      dimension: def.dimension,
      distanceMetric: def.distanceMetric ?? 'cosine',
      nonFilterable: new Set(nonFilterable),
      vectors: new Map(),
    };
    bucket.set(def.indexName, index);
    return index;
  }

  function resolveIndex(body: Record<string, unknown>): FakeIndex {
    const { vectorBucketName, indexName, indexArn } = body;
    const byName = vectorBucketName !== undefined || indexName !== undefined;
    if (byName === (indexArn !== undefined)) {
      throw validation('indexArn', 'specify either indexArn, or vectorBucketName and indexName');
    }
    let bucketName: string;
    let name: string;
    if (typeof indexArn === 'string') {
      const m = /^arn:aws[a-z-]*:s3vectors:[a-z0-9-]+:\d{12}:bucket\/([^/]+)\/index\/([^/]+)$/.exec(indexArn);
      if (!m) throw validation('indexArn', 'is not a vector index ARN');
      bucketName = m[1]!;
      name = m[2]!;
    } else {
      if (typeof vectorBucketName !== 'string') throw validation('vectorBucketName', 'is required with indexName');
      if (typeof indexName !== 'string') throw validation('indexName', 'is required with vectorBucketName');
      bucketName = vectorBucketName;
      name = indexName;
    }
    const bucket = buckets.get(bucketName);
    if (!bucket) throw new ApiError(404, 'NotFoundException', `Vector bucket ${bucketName} not found`);
    const index = bucket.get(name);
    if (!index) throw new ApiError(404, 'NotFoundException', `Index ${name} not found in vector bucket ${bucketName}`);
    return index;
  }

  const operations: Record<string, (body: Record<string, unknown>) => unknown> = {
    CreateVectorBucket(body) {
      if (typeof body.vectorBucketName !== 'string') throw validation('vectorBucketName', 'is required');
      createBucket(body.vectorBucketName);
      return {};
    },
    CreateIndex(body) {
      if (body.dataType !== 'float32') throw validation('dataType', 'must be float32');
      if (body.distanceMetric !== 'cosine' && body.distanceMetric !== 'euclidean') {
        throw validation('distanceMetric', 'must be cosine or euclidean');
      }
      const config = body.metadataConfiguration as { nonFilterableMetadataKeys?: unknown } | undefined;
      addIndex({
        vectorBucketName: String(body.vectorBucketName),
        indexName: String(body.indexName),
        dimension: Number(body.dimension),
        distanceMetric: body.distanceMetric,
        nonFilterableMetadataKeys: Array.isArray(config?.nonFilterableMetadataKeys)
          ? config.nonFilterableMetadataKeys.map(String)
          : [],
      });
      return {};
    },
    PutVectors(body) {
      const index = resolveIndex(body);
      const vectors = body.vectors;
      if (!Array.isArray(vectors) || vectors.length < 1 || vectors.length > MAX_PUT) {
        throw validation('vectors', `must hold 1 to ${MAX_PUT} vectors`);
      }
      // Validate everything first: a rejected request writes nothing.
      const accepted = vectors.map((raw, i) => validatePutVector(raw, i, index));
      for (const v of accepted) index.vectors.set(v.key, { data: v.data, metadata: v.metadata });
      return {};
    },
    QueryVectors(body) {
      const index = resolveIndex(body);
      const topK = body.topK;
      if (typeof topK !== 'number' || !Number.isInteger(topK) || topK < 1 || topK > MAX_TOP_K) {
        throw validation('topK', `must be an integer from 1 to ${MAX_TOP_K}`);
      }
      const query = vectorData(body.queryVector, 'queryVector', index);
      const filter = body.filter === undefined ? undefined : compileFilter(body.filter, 'filter', index);
      const hits: { key: string; distance: number; metadata: Metadata }[] = [];
      for (const [key, stored] of index.vectors) {
        if (filter && !filter(stored.metadata)) continue;
        hits.push({
          key,
          distance: distanceBetween(query, stored.data, index.distanceMetric),
          metadata: stored.metadata,
        });
      }
      hits.sort((a, b) => a.distance - b.distance || (a.key < b.key ? -1 : 1));
      return {
        vectors: hits.slice(0, topK).map((h) => ({
          key: h.key,
          ...(body.returnDistance === true ? { distance: Math.fround(h.distance) } : {}),
          ...(body.returnMetadata === true ? { metadata: h.metadata } : {}),
        })),
        distanceMetric: index.distanceMetric,
      };
    },
    GetVectors(body) {
      const index = resolveIndex(body);
      const keys = body.keys;
      if (!Array.isArray(keys) || keys.length < 1 || keys.length > 100)
        throw validation('keys', 'must hold 1 to 100 keys');
      return {
        vectors: keys.flatMap((key) => {
          const stored = index.vectors.get(String(key));
          if (!stored) return [];
          return [
            {
              key: String(key),
              ...(body.returnData === true ? { data: { float32: Array.from(stored.data) } } : {}),
              ...(body.returnMetadata === true ? { metadata: stored.metadata } : {}),
            },
          ];
        }),
      };
    },
  };

  const server: Server = createServer((req, res) => {
    void handle(req, res);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  /** A delay that close() can cut short, so a closed fake leaves no timer behind. */
  function delay(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        pendingDelays.delete(timer);
        resolve();
      }, ms);
      pendingDelays.set(timer, resolve);
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const operation = /^\/([A-Za-z]+)$/.exec((req.url ?? '').split('?')[0] ?? '')?.[1];
      const raw = await readBody(req);
      if (state.delayMs > 0) await delay(state.delayMs);
      if (res.destroyed) return;
      const auth = req.headers.authorization ?? '';
      if (!auth.startsWith('AWS4-HMAC-SHA256 ') || !auth.includes('/s3vectors/aws4_request')) {
        throw new ApiError(403, 'AccessDeniedException', 'Request is not signed with SigV4 for s3vectors');
      }
      const handler = operation ? operations[operation] : undefined;
      if (req.method !== 'POST' || !handler || !operation) {
        throw new ApiError(404, 'UnknownOperationException', `No operation at ${req.method} ${req.url}`);
      }
      if (raw.length > MAX_PAYLOAD_BYTES) throw validation('body', 'the request payload is over 20 MiB');
      let body: unknown;
      try {
        body = raw.length === 0 ? {} : JSON.parse(raw.toString('utf8'));
      } catch {
        throw new ApiError(400, 'ValidationException', 'The request body is not valid JSON');
      }
      if (!body || typeof body !== 'object' || Array.isArray(body)) throw validation('body', 'must be a JSON object');
      requests.push({ operation, body: body as Record<string, unknown> });
      if (throttleRemaining > 0) {
        throttleRemaining -= 1;
        throw new ApiError(429, 'TooManyRequestsException', 'Request rate exceeded; slow down');
      }
      send(res, 200, handler(body as Record<string, unknown>));
    } catch (err) {
      if (err instanceof ApiError) {
        send(
          res,
          err.status,
          { message: err.message, ...(err.fieldList ? { fieldList: err.fieldList } : {}) },
          err.type,
        );
      } else {
        send(res, 500, { message: 'internal error in the S3 Vectors fake' }, 'InternalServerException');
      }
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the S3 Vectors fake did not get a TCP port');

  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    region,
    requests,
    createIndex(definition) {
      if (!buckets.has(definition.vectorBucketName)) createBucket(definition.vectorBucketName);
      return addIndex(definition).arn;
    },
    throttleNext(count) {
      throttleRemaining = count;
    },
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(ms: number) {
      state.delayMs = ms;
    },
    size(vectorBucketName, indexName) {
      return buckets.get(vectorBucketName)?.get(indexName)?.vectors.size ?? 0;
    },
    close() {
      for (const [timer, release] of pendingDelays) {
        clearTimeout(timer);
        release();
      }
      pendingDelays.clear();
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}

function validatePutVector(
  raw: unknown,
  i: number,
  index: FakeIndex,
): { key: string; data: Float32Array; metadata: Metadata } {
  const path = `vectors[${i}]`;
  if (!raw || typeof raw !== 'object') throw validation(path, 'must be an object');
  const { key, data, metadata } = raw as Record<string, unknown>;
  if (typeof key !== 'string' || key.length < 1 || key.length > MAX_KEY_LENGTH) {
    throw validation(`${path}.key`, `must be a string of 1 to ${MAX_KEY_LENGTH} characters`);
  }
  const vector = vectorData(data, `${path}.data`, index);
  return { key, data: vector, metadata: validateMetadata(metadata, `${path}.metadata`, index) };
}

function vectorData(raw: unknown, path: string, index: FakeIndex): Float32Array {
  const values = (raw as { float32?: unknown } | undefined)?.float32;
  if (!Array.isArray(values)) throw validation(path, 'must be {"float32": [numbers]}');
  if (values.length !== index.dimension) {
    throw validation(`${path}.float32`, `has ${values.length} dimensions; the index has ${index.dimension}`);
  }
  const out = new Float32Array(values.length);
  let nonZero = false;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== 'number' || !Number.isFinite(v))
      throw validation(`${path}.float32[${i}]`, 'must be a finite number');
    out[i] = v;
    if (out[i] !== 0) nonZero = true;
  }
  if (!nonZero && index.distanceMetric === 'cosine') {
    throw validation(path, 'a zero vector is not allowed in an index with the cosine distance metric');
  }
  return out;
}

function validateMetadata(raw: unknown, path: string, index: FakeIndex): Metadata {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw validation(path, 'must be a JSON object');
  const entries = Object.entries(raw as Record<string, unknown>);
  if (entries.length > MAX_METADATA_KEYS) throw validation(path, `at most ${MAX_METADATA_KEYS} keys`);
  const metadata: Metadata = {};
  const filterable: Metadata = {};
  for (const [key, value] of entries) {
    if (!isMetadataValue(value, 0))
      throw validation(`${path}.${key}`, 'must be a string, number, boolean or list of them');
    metadata[key] = value;
    if (!index.nonFilterable.has(key)) filterable[key] = value;
  }
  if (Buffer.byteLength(JSON.stringify(filterable)) > MAX_FILTERABLE_BYTES) {
    throw validation(path, `filterable metadata is over ${MAX_FILTERABLE_BYTES} bytes`);
  }
  if (Buffer.byteLength(JSON.stringify(metadata)) > MAX_METADATA_BYTES) {
    throw validation(path, `metadata is over ${MAX_METADATA_BYTES} bytes`);
  }
  return metadata;
}

function isMetadataValue(value: unknown, depth: number): value is MetadataValue {
  if (typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value) && depth === 0) return value.every((v) => isMetadataValue(v, depth + 1));
  return false;
}

type Predicate = (metadata: Metadata) => boolean;
type Primitive = string | number | boolean;

function isPrimitive(v: unknown): v is Primitive {
  return typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
}

/** Turns a filter document into a predicate, rejecting what the service rejects. */
function compileFilter(raw: unknown, path: string, index: FakeIndex): Predicate {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw validation(path, 'a filter must be a JSON object');
  const entries = Object.entries(raw as Record<string, unknown>);
  if (entries.length === 0) throw validation(path, 'a filter must not be empty');
  const parts: Predicate[] = entries.map(([key, operand]) => {
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(operand) || operand.length === 0)
        throw validation(`${path}.${key}`, 'must be a non-empty array of filters');
      const subs = operand.map((sub, i) => compileFilter(sub, `${path}.${key}[${i}]`, index));
      return key === '$and' ? (m) => subs.every((p) => p(m)) : (m) => subs.some((p) => p(m));
    }
    if (key.startsWith('$')) throw validation(`${path}.${key}`, 'unknown logical operator');
    if (index.nonFilterable.has(key))
      throw validation(`${path}.${key}`, 'is non-filterable metadata and cannot be filtered on');
    return compileCondition(key, operand, `${path}.${key}`);
  });
  return (m) => parts.every((p) => p(m));
}

function compileCondition(key: string, operand: unknown, path: string): Predicate {
  if (isPrimitive(operand)) return compileCondition(key, { $eq: operand }, path);
  if (!operand || typeof operand !== 'object' || Array.isArray(operand)) {
    throw validation(path, 'must be a value or an object of operators');
  }
  const ops = Object.entries(operand as Record<string, unknown>);
  if (ops.length === 0) throw validation(path, 'must name at least one operator');
  const checks: Predicate[] = ops.map(([op, value]) => {
    const at = `${path}.${op}`;
    const elements = (m: Metadata): Primitive[] | undefined => {
      const v = m[key];
      if (v === undefined) return undefined;
      return (Array.isArray(v) ? v : [v]) as Primitive[];
    };
    switch (op) {
      case '$eq':
      case '$ne': {
        if (!isPrimitive(value)) throw validation(at, 'takes a string, number or boolean');
        const any = (m: Metadata): boolean => elements(m)?.some((e) => e === value) ?? false;
        return op === '$eq' ? any : (m) => !any(m);
      }
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte': {
        if (typeof value !== 'number' || !Number.isFinite(value)) throw validation(at, 'takes a number');
        const cmp =
          op === '$gt'
            ? (e: number) => e > value
            : op === '$gte'
              ? (e: number) => e >= value
              : op === '$lt'
                ? (e: number) => e < value
                : (e: number) => e <= value;
        return (m) => elements(m)?.some((e) => typeof e === 'number' && cmp(e)) ?? false;
      }
      case '$in':
      case '$nin': {
        if (!Array.isArray(value) || value.length === 0 || !value.every(isPrimitive)) {
          throw validation(at, 'takes a non-empty array of strings, numbers or booleans');
        }
        const any = (m: Metadata): boolean => elements(m)?.some((e) => value.includes(e)) ?? false;
        return op === '$in' ? any : (m) => !any(m);
      }
      case '$exists': {
        if (typeof value !== 'boolean') throw validation(at, 'takes a boolean');
        return (m) => (m[key] !== undefined) === value;
      }
      default:
        throw validation(at, 'unknown operator');
    }
  });
  return (m) => checks.every((c) => c(m));
}

function distanceBetween(a: Float32Array, b: Float32Array, metric: 'cosine' | 'euclidean'): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  let sq = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
    sq += (x - y) * (x - y);
  }
  if (metric === 'euclidean') return Math.sqrt(sq);
  return 1 - dot / (Math.sqrt(na) * Math.sqrt(nb));
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Keep reading past the cap (so the client gets an answer, not a reset) but stop storing.
      if (size <= MAX_PAYLOAD_BYTES + 1) chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown, errorType?: string): void {
  if (res.destroyed) return;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-amz-request-id': Math.random().toString(16).slice(2, 18).toUpperCase(),
  };
  if (errorType) headers['x-amzn-errortype'] = errorType;
  res.writeHead(status, headers);
  res.end(JSON.stringify(body));
}

/** The real SDK client, pointed at a fake (test credentials: the fake checks only that a request is signed). */
export function clientForFake(fake: Pick<S3VectorsFake, 'endpoint' | 'region'>, maxAttempts = 1): S3VectorsClient {
  return new S3VectorsClient({
    endpoint: fake.endpoint,
    region: fake.region,
    credentials: { accessKeyId: 'AKIDLOCALTEST', secretAccessKey: 'local-secret' },
    maxAttempts,
  });
}
