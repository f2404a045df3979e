/**
 * The Idempotency-Key store on DynamoDB Local: claims, replays, refusals, lock take-over, expiry, release.
 * Time is driven by explicit Date values; the store is built with a 1-hour TTL and a 30-second lock.
 */
import { randomBytes } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createDynamoDbClients } from '../../shared/adapters/aws/dynamodb-client';
import { IdempotencyInProgressError, IdempotencyKeyReusedError } from '../../shared/errors';
import type { IdempotencyStore, StoredResponse } from '../../shared/ports';
import { createTestStack, type TestStack } from '../support/test-stack';

const TTL_SECONDS = 3600;
const LOCK_SECONDS = 30;
const T0 = new Date('2030-01-01T12:00:00.000Z');
const at = (secondsAfterT0: number) => new Date(T0.getTime() + secondsAfterT0 * 1000);

let stack: TestStack;
let store: IdempotencyStore;

beforeAll(async () => {
  stack = await createTestStack({
    IDEMPOTENCY_TTL_SECONDS: String(TTL_SECONDS),
    IDEMPOTENCY_LOCK_SECONDS: String(LOCK_SECONDS),
  });
  store = stack.deps.idempotency;
});

/** A key of its own for every test, so that tests never see each other's records. */
const freshId = () => `acct_test#${randomBytes(6).toString('hex')}`;
const FP_A = 'a'.repeat(64);
const FP_B = 'b'.repeat(64);
const RESPONSE: StoredResponse = {
  statusCode: 200,
  headers: { 'Content-Type': 'application/json; charset=utf-8', 'X-Points-Cost': '10' },
  body: '{"charged":10,"note":"咖啡杯 ☕"}',
};

async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('begin, complete, replay', () => {
  it('the first request claims the key', async () => {
    const outcome = await store.begin({ id: freshId(), fingerprint: FP_A, requestId: 'r1', now: T0 });

    expect(outcome).toEqual({ kind: 'started' });
  });

  it('after completion the same request gets the stored response', async () => {
    const id = freshId();
    await store.begin({ id, fingerprint: FP_A, requestId: 'r1', now: T0 });
    await store.complete({ id, requestId: 'r1', response: RESPONSE, now: at(1) });

    const outcome = await store.begin({ id, fingerprint: FP_A, requestId: 'r2', now: at(2) });

    expect(outcome).toEqual({ kind: 'replay', response: RESPONSE });
  });

  it('replays as often as asked, always the same response', async () => {
    const id = freshId();
    await store.begin({ id, fingerprint: FP_A, requestId: 'r1', now: T0 });
    await store.complete({ id, requestId: 'r1', response: RESPONSE, now: at(1) });

    const outcomes = await Promise.all(
      [2, 3, 4, 5, 6].map((s) => store.begin({ id, fingerprint: FP_A, requestId: `r${s}`, now: at(s) })),
    );

    for (const outcome of outcomes) expect(outcome).toEqual({ kind: 'replay', response: RESPONSE });
  });

  it('a large (300 KB) body round-trips exactly, stored gzipped', async () => {
    // Arrange: a 300 KB response of varied JSON, like a screening answer.
    const results = Array.from({ length: 4500 }, (_, i) => ({
      name: `标题 ${i} ${randomBytes(24).toString('base64')}`,
      risk: ['高', '中', '低'][i % 3],
    }));
    const body = JSON.stringify({ results, count: results.length });
    expect(Buffer.byteLength(body)).toBeGreaterThan(300_000);
    const big: StoredResponse = { statusCode: 200, headers: { 'X-Points-Cost': '4500' }, body };
    const id = freshId();
    await store.begin({ id, fingerprint: FP_A, requestId: 'r1', now: T0 });

    // Act
    await store.complete({ id, requestId: 'r1', response: big, now: at(1) });
    const outcome = await store.begin({ id, fingerprint: FP_A, requestId: 'r2', now: at(2) });

    // Assert
    expect(outcome.kind).toBe('replay');
    expect(outcome.kind === 'replay' ? outcome.response : undefined).toEqual(big);
    const { doc } = createDynamoDbClients({ region: 'us-east-1', endpoint: stack.config.dynamoDbEndpoint });
    const item = (await doc.send(new GetCommand({ TableName: stack.config.tables.idempotency, Key: { id } }))).Item!;
    const stored = Buffer.from(item.body as Uint8Array);
    expect([stored[0], stored[1]]).toEqual([0x1f, 0x8b]);
    expect(stored.length).toBeLessThan(Buffer.byteLength(body));
    doc.destroy();
  });

  it('a record expires at expiresAt = claim time + TTL', async () => {
    const id = freshId();
    await store.begin({ id, fingerprint: FP_A, requestId: 'r1', now: T0 });

    const { doc } = createDynamoDbClients({ region: 'us-east-1', endpoint: stack.config.dynamoDbEndpoint });
    const item = (await doc.send(new GetCommand({ TableName: stack.config.tables.idempotency, Key: { id } }))).Item!;
    doc.destroy();

    const t0Seconds = T0.getTime() / 1000;
    expect(item).toMatchObject({
      status: 'in_progress',
      requestId: 'r1',
      expiresAt: t0Seconds + TTL_SECONDS,
      lockExpiresAt: t0Seconds + LOCK_SECONDS,
    });
  });
});

describe('refusals', () => {
  it('another request under a completed key is IdempotencyKeyReusedError', async () => {
    const id = freshId();
    await store.begin({ id, fingerprint: FP_A, requestId: 'r1', now: T0 });
    await store.complete({ id, requestId: 'r1', response: RESPONSE, now: at(1) });

    const error = await errorOf(store.begin({ id, fingerprint: FP_B, requestId: 'r2', now: at(2) }));

    expect(error).toBeInstanceOf(IdempotencyKeyReusedError);
  });

  it('another request under a key in progress is also a reuse, not a wait', async () => {
    const id = freshId();
    await store.begin({ id, fingerprint: FP_A, requestId: 'r1', now: T0 });

    const error = await errorOf(store.begin({ id, fingerprint: FP_B, requestId: 'r2', now: at(1) }));

    expect(error).toBeInstanceOf(IdempotencyKeyReusedError);
  });

  it('the same request while the first still runs is IdempotencyInProgressError', async () => {
    const id = freshId();
    await store.begin({ id, fingerprint: FP_A, requestId: 'r1', now: T0 });

    const error = await errorOf(store.begin({ id, fingerprint: FP_A, requestId: 'r2', now: at(LOCK_SECONDS) }));

    expect(error).toBeInstanceOf(IdempotencyInProgressError);
  });

  it('of 10 concurrent claims exactly one starts, the others are told it is in progress', async () => {
    const id = freshId();

    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => store.begin({ id, fingerprint: FP_A, requestId: `r${i}`, now: T0 })),
    );

    const started = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(started).toHaveLength(1);
    expect(refused).toHaveLength(9);
    for (const r of refused) expect(r.reason).toBeInstanceOf(IdempotencyInProgressError);
  });
});

describe('abandoned locks and expired records', () => {
  it('a lock abandoned past lockSeconds is taken over by the same request', async () => {
    const id = freshId();
    await store.begin({ id, fingerprint: FP_A, requestId: 'crashed', now: T0 });

    const outcome = await store.begin({ id, fingerprint: FP_A, requestId: 'retry', now: at(LOCK_SECONDS + 1) });

    expect(outcome).toEqual({ kind: 'started' });
    // The key is the retry's now: its completion is the one stored, the crashed request's is refused.
    await expect(
      store.complete({
        id,
        requestId: 'crashed',
        response: { ...RESPONSE, body: '{"stale":true}' },
        now: at(LOCK_SECONDS + 2),
      }),
    ).rejects.toThrow();
    await store.complete({ id, requestId: 'retry', response: RESPONSE, now: at(LOCK_SECONDS + 3) });
    expect(await store.begin({ id, fingerprint: FP_A, requestId: 'later', now: at(LOCK_SECONDS + 4) })).toEqual({
      kind: 'replay',
      response: RESPONSE,
    });
  });

  it('an abandoned lock is not taken over by a different request', async () => {
    const id = freshId();
    await store.begin({ id, fingerprint: FP_A, requestId: 'crashed', now: T0 });

    const error = await errorOf(store.begin({ id, fingerprint: FP_B, requestId: 'other', now: at(LOCK_SECONDS + 1) }));

    expect(error).toBeInstanceOf(IdempotencyKeyReusedError);
  });

  it('a completed record is never taken over while it lives, even long after its lock time', async () => {
    const id = freshId();
    await store.begin({ id, fingerprint: FP_A, requestId: 'r1', now: T0 });
    await store.complete({ id, requestId: 'r1', response: RESPONSE, now: at(1) });

    const outcome = await store.begin({ id, fingerprint: FP_A, requestId: 'r2', now: at(TTL_SECONDS - 1) });

    expect(outcome).toEqual({ kind: 'replay', response: RESPONSE });
  });

  it('an expired record (expiresAt in the past, not yet deleted by TTL) can be claimed anew, by any request', async () => {
    const id = freshId();
    await store.begin({ id, fingerprint: FP_A, requestId: 'r1', now: T0 });
    await store.complete({ id, requestId: 'r1', response: RESPONSE, now: at(1) });

    const outcome = await store.begin({ id, fingerprint: FP_B, requestId: 'r2', now: at(TTL_SECONDS + 1) });

    expect(outcome).toEqual({ kind: 'started' });
    expect(
      await errorOf(store.begin({ id, fingerprint: FP_B, requestId: 'r3', now: at(TTL_SECONDS + 2) })),
    ).toBeInstanceOf(IdempotencyInProgressError);
  });
});

describe('release', () => {
  it('the owning request frees its key: the next claim starts, whatever the request', async () => {
    const id = freshId();
    await store.begin({ id, fingerprint: FP_A, requestId: 'owner', now: T0 });

    await store.release({ id, requestId: 'owner' });

    expect(await store.begin({ id, fingerprint: FP_B, requestId: 'next', now: at(1) })).toEqual({ kind: 'started' });
  });

  it('another request cannot free the key (and is not told so by an error)', async () => {
    const id = freshId();
    await store.begin({ id, fingerprint: FP_A, requestId: 'owner', now: T0 });

    await store.release({ id, requestId: 'intruder' });

    expect(await errorOf(store.begin({ id, fingerprint: FP_A, requestId: 'dup', now: at(1) }))).toBeInstanceOf(
      IdempotencyInProgressError,
    );
  });

  it('a completed record is not released, even by its owner', async () => {
    const id = freshId();
    await store.begin({ id, fingerprint: FP_A, requestId: 'owner', now: T0 });
    await store.complete({ id, requestId: 'owner', response: RESPONSE, now: at(1) });

    await store.release({ id, requestId: 'owner' });

    expect(await store.begin({ id, fingerprint: FP_A, requestId: 'again', now: at(2) })).toEqual({
      kind: 'replay',
      response: RESPONSE,
    });
  });

  it('releasing a key that does not exist is harmless', async () => {
    await expect(store.release({ id: freshId(), requestId: 'nobody' })).resolves.toBeUndefined();
  });
});
