/**
 * Idempotency-Key records on DynamoDB. A key is claimed with one conditional put; on failure DynamoDB hands back
 * the record as it was, and that record decides the answer: replay, in progress (409) or reused (422).
 * The stored body is gzipped so that a large screening response fits the 400 KB item limit.
 */
import { DeleteCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { gunzipSync, gzipSync } from 'node:zlib';
import { IdempotencyInProgressError, IdempotencyKeyReusedError } from '../../errors';
import type { IdempotencyBegin, IdempotencyStore, StoredResponse } from '../../ports';

interface IdempotencyItem {
  id: string;
  status: 'in_progress' | 'completed';
  fingerprint: string;
  requestId: string;
  lockExpiresAt: number;
  expiresAt: number;
  statusCode?: number;
  headers?: Record<string, string>;
  body?: Uint8Array;
}

export class DynamoDbIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly ttlSeconds: number,
    private readonly lockSeconds: number,
  ) {}

  async begin(input: { id: string; fingerprint: string; requestId: string; now: Date }): Promise<IdempotencyBegin> {
    const nowSeconds = Math.floor(input.now.getTime() / 1000);
    const item: IdempotencyItem = {
      id: input.id,
      status: 'in_progress',
      fingerprint: input.fingerprint,
      requestId: input.requestId,
      lockExpiresAt: nowSeconds + this.lockSeconds,
      expiresAt: nowSeconds + this.ttlSeconds,
    };
    try {
      await this.doc.send(
        new PutCommand({
          TableName: this.table,
          Item: item,
          // Free, expired (TTL deletes lazily), or abandoned by a request that died while holding it.
          ConditionExpression:
            'attribute_not_exists(id) OR expiresAt < :now OR (#status = :inProgress AND lockExpiresAt < :now AND fingerprint = :fp)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':now': nowSeconds, ':inProgress': 'in_progress', ':fp': input.fingerprint },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { kind: 'started' };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException) || !error.Item) throw error;
      const existing = unmarshall(error.Item) as IdempotencyItem;
      if (existing.fingerprint !== input.fingerprint) throw new IdempotencyKeyReusedError();
      if (existing.status === 'in_progress') throw new IdempotencyInProgressError();
      return { kind: 'replay', response: this.decode(existing) };
    }
  }

  async complete(input: { id: string; requestId: string; response: StoredResponse; now: Date }): Promise<void> {
    await this.doc.send(
      new UpdateCommand({
        TableName: this.table,
        Key: { id: input.id },
        UpdateExpression: 'SET #status = :completed, statusCode = :code, headers = :headers, body = :body',
        ConditionExpression: 'requestId = :rid',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':completed': 'completed',
          ':code': input.response.statusCode,
          ':headers': input.response.headers,
          ':body': gzipSync(Buffer.from(input.response.body, 'utf8')),
          ':rid': input.requestId,
        },
      }),
    );
  }

  async release(input: { id: string; requestId: string }): Promise<void> {
    try {
      await this.doc.send(
        new DeleteCommand({
          TableName: this.table,
          Key: { id: input.id },
          ConditionExpression: 'requestId = :rid AND #status = :inProgress',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':rid': input.requestId, ':inProgress': 'in_progress' },
        }),
      );
    } catch (error) {
      // Another request took the key over after our lock expired: it is theirs now.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  private decode(item: IdempotencyItem): StoredResponse {
    return {
      statusCode: Number(item.statusCode),
      headers: item.headers ?? {},
      body: item.body ? gunzipSync(Buffer.from(item.body)).toString('utf8') : '',
    };
  }
}
