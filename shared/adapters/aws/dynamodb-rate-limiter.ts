/**
 * Fixed-window rate limiting on DynamoDB: one counter item per account and window, incremented atomically with a
 * named condition (never read-modify-write), expired by TTL. Shared by every Lambda instance.
 */
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { RateLimitDecision, RateLimiter } from '../../ports';

export class DynamoDbRateLimiter implements RateLimiter {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly windowSeconds: number,
  ) {}

  async hit(accountId: string, limit: number, now: Date): Promise<RateLimitDecision> {
    const windowMs = this.windowSeconds * 1000;
    const windowStart = Math.floor(now.getTime() / windowMs) * windowMs;
    const resetSeconds = Math.max(1, Math.ceil((windowStart + windowMs - now.getTime()) / 1000));
    try {
      const out = await this.doc.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { id: `${accountId}#${windowStart}` },
          UpdateExpression: 'ADD hits :one SET expiresAt = if_not_exists(expiresAt, :expires)',
          ConditionExpression: 'attribute_not_exists(hits) OR hits < :limit',
          ExpressionAttributeValues: {
            ':one': 1,
            ':limit': limit,
            ':expires': Math.ceil((windowStart + windowMs) / 1000) + 60,
          },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      const hits = Number(out.Attributes?.hits ?? 1);
      return { allowed: true, limit, remaining: Math.max(0, limit - hits), resetSeconds };
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException)
        return { allowed: false, limit, remaining: 0, resetSeconds };
      throw error;
    }
  }
}
