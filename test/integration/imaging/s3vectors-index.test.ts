/**
 * The S3 Vectors adapter against the REAL @aws-sdk/client-s3vectors client over HTTP.
 *
 * Amazon S3 Vectors has no local form (no emulator or container exists), so this is the one place a remote service
 * is replaced: test/support/s3vectors-fake.ts implements its JSON REST API (POST /CreateVectorBucket, /CreateIndex,
 * /PutVectors, /QueryVectors, /GetVectors; its errors and limits; exact cosine search; the filter language). The SDK
 * itself (serialisation, SigV4 signing, error parsing, retries) is not mocked.
 *
 * Over 400 lines on purpose: one adapter against one fake server, its cases sharing it.
 */
import {
  CreateIndexCommand,
  CreateVectorBucketCommand,
  GetVectorsCommand,
  PutVectorsCommand,
  QueryVectorsCommand,
  type S3VectorsClient,
} from '@aws-sdk/client-s3vectors';
import { designKeyOf, S3VectorsIndex, scoreFromCosineDistance } from '../../../shared/adapters/aws/s3vectors-index';
import { SearchBackendUnavailableError } from '../../../shared/imaging/image-errors';
import type { LogoMetadata } from '../../../shared/ports';
import { startS3VectorsFake, type S3VectorsFake, clientForFake } from '../../support/s3vectors-fake';

const DIM = 16;
const BUCKET = 'logo-vectors-test';

/** A unit vector pointing mostly along `axis`, tilted towards `towards` by `tilt` (0: exactly the axis). */
function unit(axis: number, tilt = 0, towards = (axis + 1) % DIM): Float32Array {
  const v = new Float32Array(DIM);
  v[axis] = Math.cos(tilt);
  v[towards] = Math.sin(tilt);
  return v;
}

function logo(serial: string, nice: string[], isLive: boolean): LogoMetadata {
  return { serial, design: `${serial}.svg`, mark: `MARK ${serial}`, nice, isLive };
}

async function expectBackendError(
  promise: Promise<unknown>,
  reason: 'timeout' | 'throttled' | 'failed',
): Promise<SearchBackendUnavailableError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SearchBackendUnavailableError);
  const backendError = err as SearchBackendUnavailableError;
  expect(backendError.backend).toBe('s3vectors');
  expect(backendError.reason).toBe(reason);
  return backendError;
}

describe('S3VectorsIndex (real S3VectorsClient, S3 Vectors fake over HTTP)', () => {
  let fake: S3VectorsFake;
  let client: S3VectorsClient;
  let indexCount = 0;

  /** A fresh index per test, created through the SDK like infra would. */
  async function freshIndex(): Promise<{ indexName: string; index: S3VectorsIndex }> {
    indexCount += 1;
    const indexName = `logos-us-${indexCount}`;
    await client.send(
      new CreateIndexCommand({
        vectorBucketName: BUCKET,
        indexName,
        dataType: 'float32',
        dimension: DIM,
        distanceMetric: 'cosine',
        metadataConfiguration: { nonFilterableMetadataKeys: ['mark'] },
      }),
    );
    return { indexName, index: new S3VectorsIndex(client, { vectorBucketName: BUCKET, indexName }) };
  }

  beforeAll(async () => {
    fake = await startS3VectorsFake();
    client = clientForFake(fake);
    await client.send(new CreateVectorBucketCommand({ vectorBucketName: BUCKET }));
  });

  afterAll(async () => {
    client.destroy();
    await fake.close();
  });

  afterEach(() => {
    fake.throttleNext(0);
    fake.delayMs = 0;
  });

  it('puts vectors with key = serial#design hash and metadata {serial, design, mark, nice, is_live}, and finds the same vector with score 1', async () => {
    // Arrange
    const { indexName, index } = await freshIndex();
    await index.put([
      { vector: unit(0), metadata: logo('90000001', ['09', '25'], true) },
      { vector: unit(5), metadata: logo('90000002', ['25'], false) },
    ]);

    // Act
    const matches = await index.query(unit(0), { topK: 2 });
    const stored = await client.send(
      new GetVectorsCommand({
        vectorBucketName: BUCKET,
        indexName,
        keys: [designKeyOf('90000001', '90000001.svg')],
        returnMetadata: true,
      }),
    );

    // Assert
    expect(designKeyOf('90000001', '90000001.svg')).toMatch(/^90000001#[0-9a-f]{16}$/);
    expect(matches[0]).toEqual({
      serial: '90000001',
      design: '90000001.svg',
      mark: 'MARK 90000001',
      nice: ['09', '25'],
      isLive: true,
      score: 1,
    });
    expect(matches[1]).toMatchObject({ serial: '90000002', nice: ['25'], isLive: false, score: 0 });
    expect(stored.vectors?.[0]?.metadata).toEqual({
      serial: '90000001',
      design: '90000001.svg',
      mark: 'MARK 90000001',
      nice: ['09', '25'],
      is_live: true,
    });
  });

  it('keeps the three designs of a mark as three vectors and answers one row per mark, with its best design', async () => {
    // Arrange
    const { index } = await freshIndex();
    const designs = [unit(0), unit(3), unit(6)];
    await index.put(
      designs.map((vector, d) => ({
        vector,
        metadata: { ...logo('90000010', ['09'], true), design: `design-${d}.svg` },
      })),
    );
    await index.put([{ vector: unit(1, 0.3), metadata: logo('90000011', ['09'], true) }]);

    // Act
    const answers = await Promise.all(designs.map((vector) => index.query(vector, { topK: 2 })));

    // Assert
    for (const [d, matches] of answers.entries()) {
      expect(matches[0]).toMatchObject({ serial: '90000010', design: `design-${d}.svg`, score: 1 });
      expect(matches.map((m) => m.serial)).toEqual(['90000010', '90000011']);
    }
  });

  it('returns scores in [0, 1], highest first, mapped from the cosine distance like the usearch index', async () => {
    // Arrange: tilts of 0.1 .. 0.6 rad from the query, one orthogonal and one opposite vector
    const { index } = await freshIndex();
    const tilts = [0.4, 0.1, 0.6, 0.25];
    const opposite = unit(2).map((v) => -v);
    await index.put([
      ...tilts.map((tilt, i) => ({ vector: unit(2, tilt), metadata: logo(`7000000${i}`, ['09'], true) })),
      { vector: unit(9), metadata: logo('70000008', ['09'], true) },
      { vector: opposite, metadata: logo('70000009', ['09'], true) },
    ]);

    // Act
    const matches = await index.query(unit(2), { topK: 10 });

    // Assert
    expect(matches.map((m) => m.serial)).toEqual([
      '70000001',
      '70000003',
      '70000000',
      '70000002',
      '70000008',
      '70000009',
    ]);
    for (const m of matches) expect(m.score).toBeGreaterThanOrEqual(0);
    for (const m of matches) expect(m.score).toBeLessThanOrEqual(1);
    expect(matches[0]!.score).toBeCloseTo(Math.cos(0.1), 5);
    expect(matches.at(-1)!.score).toBe(0); // distance 2 clamps to 0
    expect(scoreFromCosineDistance(0)).toBe(1);
    expect(scoreFromCosineDistance(1.5)).toBe(0);
    expect(scoreFromCosineDistance(0.25)).toBe(0.75);
  });

  it('filters on one Nice class inside the list-valued nice metadata ($eq matches any element)', async () => {
    // Arrange
    const { index } = await freshIndex();
    await index.put([
      { vector: unit(1, 0.05), metadata: logo('11', ['25'], true) },
      { vector: unit(1, 0.1), metadata: logo('12', ['09', '42'], true) },
      { vector: unit(1, 0.2), metadata: logo('13', ['42', '09'], false) },
      { vector: unit(1, 0.3), metadata: logo('14', ['35'], true) },
    ]);

    // Act
    const matches = await index.query(unit(1), { topK: 10, nice: '09' });

    // Assert
    expect(matches.map((m) => m.serial)).toEqual(['12', '13']);
    expect(fake.requests.at(-1)?.body.filter).toEqual({ nice: { $eq: '09' } });
  });

  it('keeps only marks in force with liveOnly, and combines it with nice in one $and', async () => {
    // Arrange
    const { index } = await freshIndex();
    await index.put([
      { vector: unit(3, 0.05), metadata: logo('21', ['09'], false) },
      { vector: unit(3, 0.1), metadata: logo('22', ['09'], true) },
      { vector: unit(3, 0.2), metadata: logo('23', ['25'], true) },
    ]);

    // Act
    const liveOnly = await index.query(unit(3), { topK: 10, liveOnly: true });
    const liveFiltered = fake.requests.at(-1)?.body.filter;
    const liveIn09 = await index.query(unit(3), { topK: 10, liveOnly: true, nice: '09' });
    const bothFiltered = fake.requests.at(-1)?.body.filter;
    const unfiltered = await index.query(unit(3), { topK: 10 });

    // Assert
    expect(liveOnly.map((m) => m.serial)).toEqual(['22', '23']);
    expect(liveFiltered).toEqual({ is_live: { $eq: true } });
    expect(liveIn09.map((m) => m.serial)).toEqual(['22']);
    expect(bothFiltered).toEqual({ $and: [{ nice: { $eq: '09' } }, { is_live: { $eq: true } }] });
    expect(unfiltered.map((m) => m.serial)).toEqual(['21', '22', '23']);
    expect(fake.requests.at(-1)?.body).not.toHaveProperty('filter');
  });

  it('puts in batches of at most 500 vectors (the PutVectors limit) and every vector lands', async () => {
    // Arrange
    const { indexName, index } = await freshIndex();
    const items = Array.from({ length: 1203 }, (_, i) => ({
      vector: unit(i % DIM, (i % 97) / 100),
      metadata: logo(`8${String(i).padStart(7, '0')}`, ['09'], i % 2 === 0),
    }));
    const before = fake.requests.length;

    // Act
    await index.put(items);

    // Assert
    const puts = fake.requests.slice(before).filter((r) => r.operation === 'PutVectors');
    expect(puts.map((r) => (r.body.vectors as unknown[]).length)).toEqual([500, 500, 203]);
    expect(fake.size(BUCKET, indexName)).toBe(1203);
  });

  it('addresses the index by ARN as well as by bucket and index name', async () => {
    // Arrange
    const arn = fake.createIndex({ vectorBucketName: BUCKET, indexName: 'logos-cn-arn', dimension: DIM });
    const index = new S3VectorsIndex(client, { indexArn: arn });
    await index.put([{ vector: unit(4), metadata: logo('CN1', ['09'], true) }]);

    // Act
    const matches = await index.query(unit(4), { topK: 1 });

    // Assert
    expect(matches.map((m) => m.serial)).toEqual(['CN1']);
    expect(fake.requests.at(-1)?.body.indexArn).toBe(arn);
  });

  it('caps topK at 100, the QueryVectors maximum', async () => {
    // Arrange
    const { index } = await freshIndex();
    await index.put([{ vector: unit(0), metadata: logo('1', ['09'], true) }]);

    // Act
    await index.query(unit(0), { topK: 250 });

    // Assert
    expect(fake.requests.at(-1)?.body.topK).toBe(100);
  });

  it('reports throttling (429 TooManyRequestsException) as throttled', async () => {
    // Arrange
    const { index } = await freshIndex();
    fake.throttleNext(1);

    // Act
    const err = await expectBackendError(index.query(unit(0), { topK: 5 }), 'throttled');

    // Assert
    expect((err.cause as Error).name).toBe('TooManyRequestsException');
  });

  it('lets the SDK retry a throttled call when the client allows retries', async () => {
    // Arrange
    const { indexName } = await freshIndex();
    const retrying = clientForFake(fake, 3);
    const index = new S3VectorsIndex(retrying, { vectorBucketName: BUCKET, indexName }, { queryBudgetMs: 5000 });
    await index.put([{ vector: unit(6), metadata: logo('61', ['09'], true) }]);
    fake.throttleNext(1);
    const before = fake.requests.length;

    // Act
    const matches = await index.query(unit(6), { topK: 1 });

    // Assert
    expect(matches.map((m) => m.serial)).toEqual(['61']);
    expect(fake.requests.slice(before).map((r) => r.operation)).toEqual(['QueryVectors', 'QueryVectors']);
    retrying.destroy();
  });

  it('reports a query slower than its budget as timeout, within the budget', async () => {
    // Arrange
    const { indexName } = await freshIndex();
    const index = new S3VectorsIndex(client, { vectorBucketName: BUCKET, indexName }, { queryBudgetMs: 150 });
    fake.delayMs = 2000;
    const started = Date.now();

    // Act
    await expectBackendError(index.query(unit(0), { topK: 5 }), 'timeout');

    // Assert
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("honours the caller's abort signal as timeout", async () => {
    // Arrange
    const { index } = await freshIndex();
    fake.delayMs = 2000;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);

    // Act / Assert
    await expectBackendError(index.query(unit(0), { topK: 5, signal: controller.signal }), 'timeout');
  });

  it('fails a put whose vector has the wrong dimension (400 ValidationException) and writes nothing of that batch', async () => {
    // Arrange
    const { indexName, index } = await freshIndex();

    // Act
    const err = await expectBackendError(
      index.put([
        { vector: unit(0), metadata: logo('31', ['09'], true) },
        { vector: new Float32Array(DIM + 1).fill(0.25), metadata: logo('32', ['09'], true) },
      ]),
      'failed',
    );

    // Assert
    expect((err.cause as Error).name).toBe('ValidationException');
    expect((err.cause as { fieldList?: { path: string }[] }).fieldList?.[0]?.path).toBe('vectors[1].data.float32');
    expect(fake.size(BUCKET, indexName)).toBe(0);
  });

  it('fails a query on an index that does not exist (404 NotFoundException)', async () => {
    // Arrange
    const index = new S3VectorsIndex(client, { vectorBucketName: BUCKET, indexName: 'no-such-index' });

    // Act
    const err = await expectBackendError(index.query(unit(0), { topK: 5 }), 'failed');

    // Assert
    expect((err.cause as Error).name).toBe('NotFoundException');
  });
});

describe('the S3 Vectors fake keeps to the documented API (driven by the real SDK)', () => {
  let fake: S3VectorsFake;
  let client: S3VectorsClient;
  const target = { vectorBucketName: 'fidelity', indexName: 'movies' };

  beforeAll(async () => {
    fake = await startS3VectorsFake();
    client = clientForFake(fake);
    fake.createIndex({ ...target, dimension: 2, nonFilterableMetadataKeys: ['mark'] });
    const index = new S3VectorsIndex(client, target);
    await index.put([
      { vector: Float32Array.of(1, 0), metadata: logo('a', ['09', '25'], true) },
      { vector: Float32Array.of(1, 0.2), metadata: logo('b', ['42'], false) },
      { vector: Float32Array.of(1, 0.4), metadata: logo('c', ['25'], true) },
    ]);
  });

  afterAll(async () => {
    client.destroy();
    await fake.close();
  });

  async function keysFor(filter: Record<string, unknown>): Promise<string[]> {
    const out = await client.send(
      new QueryVectorsCommand({ ...target, queryVector: { float32: [1, 0] }, topK: 10, filter: filter as never }),
    );
    return (out.vectors ?? []).map((v) => (v.key ?? '').split('#')[0]!);
  }

  it('answers the documented list semantics of $eq, $ne, $in, $nin and the logical operators', async () => {
    expect(await keysFor({ nice: '25' })).toEqual(['a', 'c']);
    expect(await keysFor({ nice: { $ne: '25' } })).toEqual(['b']);
    expect(await keysFor({ nice: { $in: ['42', '09'] } })).toEqual(['a', 'b']);
    expect(await keysFor({ nice: { $nin: ['42', '09'] } })).toEqual(['c']);
    expect(await keysFor({ $or: [{ nice: '42' }, { is_live: { $eq: true } }] })).toEqual(['a', 'b', 'c']);
    expect(await keysFor({ $and: [{ nice: '25' }, { is_live: false }] })).toEqual([]);
    expect(await keysFor({ is_live: { $exists: true } })).toEqual(['a', 'b', 'c']);
  });

  it('returns distance and metadata only when asked, and always the distance metric', async () => {
    const out = await client.send(new QueryVectorsCommand({ ...target, queryVector: { float32: [1, 0] }, topK: 1 }));
    expect(out.distanceMetric).toBe('cosine');
    expect(out.vectors).toEqual([{ key: designKeyOf('a', 'a.svg') }]);
  });

  it.each([
    ['topK 0', { topK: 0, queryVector: { float32: [1, 0] } }],
    ['topK 101', { topK: 101, queryVector: { float32: [1, 0] } }],
    ['a query vector of the wrong dimension', { topK: 1, queryVector: { float32: [1, 0, 0] } }],
    ['an unknown operator', { topK: 1, queryVector: { float32: [1, 0] }, filter: { nice: { $like: '0%' } } }],
    ['$in with an empty array', { topK: 1, queryVector: { float32: [1, 0] }, filter: { nice: { $in: [] } } }],
    ['a filter on non-filterable metadata', { topK: 1, queryVector: { float32: [1, 0] }, filter: { mark: 'x' } }],
  ])('rejects %s with 400 ValidationException', async (_label, input) => {
    const err = await client
      .send(new QueryVectorsCommand({ ...target, ...(input as { topK: number; queryVector: { float32: number[] } }) }))
      .catch((e: unknown) => e as { name: string; $metadata: { httpStatusCode?: number } });
    expect(err).toMatchObject({ name: 'ValidationException', $metadata: { httpStatusCode: 400 } });
  });

  it('rejects more than 500 vectors in one PutVectors and a zero vector on a cosine index', async () => {
    const tooMany = Array.from({ length: 501 }, (_, i) => ({ key: `k${i}`, data: { float32: [1, 0] } }));
    const putTooMany = await client
      .send(new PutVectorsCommand({ ...target, vectors: tooMany }))
      .catch((e: unknown) => e as Error);
    const putZero = await new S3VectorsIndex(client, target)
      .put([{ vector: Float32Array.of(0, 0), metadata: logo('zero', ['09'], true) }])
      .catch((e: unknown) => e as SearchBackendUnavailableError);
    expect(putTooMany).toMatchObject({ name: 'ValidationException' });
    expect((putZero as SearchBackendUnavailableError).cause).toMatchObject({ name: 'ValidationException' });
  });

  it('refuses an unsigned request with 403 AccessDeniedException', async () => {
    const res = await fetch(`${fake.endpoint}/QueryVectors`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...target, topK: 1, queryVector: { float32: [1, 0] } }),
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('x-amzn-errortype')).toBe('AccessDeniedException');
  });
});
