/**
 * Webhooks on DynamoDB, one partition per account (table `webhooks`, sort key recordId):
 *   `config`                      the webhook: url, secret, dates;
 *   `event#<event id>`            an event's delivery claim: `sending` (with its claim time) then `delivered` or
 *                                 `dead_letter` (removed again when a dead letter is re-queued); expires after
 *                                 DELIVERY_CLAIM_DAYS;
 *   `dead#<failed at>#<event id>` a dead letter, sorted by time; expires after DEAD_LETTER_DAYS.
 * Every write that two requests or deliverers can race on is conditional (named below); none reads first.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { DeliveryClaim, WebhookStore } from '../../ports';
import { DEAD_LETTER_DAYS, DELIVERY_CLAIM_DAYS, type StoredDeadLetter, type Webhook } from '../../webhooks/webhook';

const CONFIG = 'config';
const eventKey = (eventId: string) => `event#${eventId}`;
const DEAD = 'dead#';
const DAY_SECONDS = 86_400;

const WEBHOOK_DOES_NOT_EXIST = 'attribute_not_exists(recordId)';
const WEBHOOK_EXISTS = 'attribute_exists(recordId)';
/** No claim yet, or a `sending` claim older than the stale limit (its deliverer died). */
const CLAIM_FREE = 'attribute_not_exists(recordId) OR (#state = :sending AND claimedAt < :stale)';

function webhookOf(item: Record<string, unknown>): Webhook {
  return {
    accountId: item.accountId as string,
    url: item.url as string,
    secret: item.secret as string,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
    secretIssuedAt: item.secretIssuedAt as string,
  };
}

function deadLetterOf(item: Record<string, unknown>): StoredDeadLetter {
  return {
    accountId: item.accountId as string,
    eventId: item.eventId as string,
    url: item.url as string,
    body: item.body as string,
    attempts: item.attempts as number,
    lastError: item.lastError as string,
    ...(item.lastStatus !== undefined ? { lastStatus: item.lastStatus as number } : {}),
    failedAt: item.failedAt as string,
  };
}

export class DynamoDbWebhookStore implements WebhookStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async get(accountId: string): Promise<Webhook | undefined> {
    const out = await this.doc.send(
      new GetCommand({ TableName: this.table, Key: { accountId, recordId: CONFIG }, ConsistentRead: true }),
    );
    return out.Item ? webhookOf(out.Item) : undefined;
  }

  async create(webhook: Webhook): Promise<boolean> {
    try {
      await this.doc.send(
        new PutCommand({
          TableName: this.table,
          Item: { ...webhook, recordId: CONFIG },
          ConditionExpression: WEBHOOK_DOES_NOT_EXIST,
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async changeUrl(accountId: string, url: string, at: string): Promise<Webhook | undefined> {
    try {
      const out = await this.doc.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { accountId, recordId: CONFIG },
          UpdateExpression: 'SET #url = :url, updatedAt = :at',
          ConditionExpression: WEBHOOK_EXISTS,
          ExpressionAttributeNames: { '#url': 'url' },
          ExpressionAttributeValues: { ':url': url, ':at': at },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return webhookOf(out.Attributes!);
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }

  async replace(webhook: Webhook): Promise<Webhook> {
    const out = await this.doc.send(
      new UpdateCommand({
        TableName: this.table,
        Key: { accountId: webhook.accountId, recordId: CONFIG },
        UpdateExpression:
          'SET #url = :url, secret = :secret, secretIssuedAt = :issued, updatedAt = :updated, createdAt = if_not_exists(createdAt, :created)',
        ExpressionAttributeNames: { '#url': 'url' },
        ExpressionAttributeValues: {
          ':url': webhook.url,
          ':secret': webhook.secret,
          ':issued': webhook.secretIssuedAt,
          ':updated': webhook.updatedAt,
          ':created': webhook.createdAt,
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return webhookOf(out.Attributes!);
  }

  async remove(accountId: string): Promise<boolean> {
    const out = await this.doc.send(
      new DeleteCommand({ TableName: this.table, Key: { accountId, recordId: CONFIG }, ReturnValues: 'ALL_OLD' }),
    );
    return out.Attributes !== undefined;
  }

  async claimDelivery(
    accountId: string,
    eventId: string,
    now: Date,
    staleAfterSeconds: number,
  ): Promise<DeliveryClaim> {
    try {
      await this.doc.send(
        new PutCommand({
          TableName: this.table,
          Item: {
            accountId,
            recordId: eventKey(eventId),
            state: 'sending',
            claimedAt: now.toISOString(),
            expiresAt: Math.floor(now.getTime() / 1000) + DELIVERY_CLAIM_DAYS * DAY_SECONDS,
          },
          ConditionExpression: CLAIM_FREE,
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: {
            ':sending': 'sending',
            ':stale': new Date(now.getTime() - staleAfterSeconds * 1000).toISOString(),
          },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return 'claimed';
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      return error.Item?.state?.S === 'sending' ? 'in_progress' : 'finished';
    }
  }

  async finishDelivery(
    accountId: string,
    eventId: string,
    outcome: 'delivered' | 'dead_letter',
    now: Date,
  ): Promise<void> {
    await this.doc.send(
      new UpdateCommand({
        TableName: this.table,
        Key: { accountId, recordId: eventKey(eventId) },
        // A claim already expired (a dead letter sent again weeks later) is written anew, expiring in its turn.
        UpdateExpression: 'SET #state = :outcome, finishedAt = :at, expiresAt = if_not_exists(expiresAt, :expires)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':outcome': outcome,
          ':at': now.toISOString(),
          ':expires': Math.floor(now.getTime() / 1000) + DELIVERY_CLAIM_DAYS * DAY_SECONDS,
        },
      }),
    );
  }

  async reopenDelivery(accountId: string, eventId: string): Promise<'reopened' | 'delivered' | 'in_progress'> {
    try {
      await this.doc.send(
        new DeleteCommand({
          TableName: this.table,
          Key: { accountId, recordId: eventKey(eventId) },
          // Only a dead-lettered claim (or none left): a delivered event stays delivered, a running one runs on.
          ConditionExpression: 'attribute_not_exists(recordId) OR #state = :dead',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':dead': 'dead_letter' },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return 'reopened';
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      return error.Item?.state?.S === 'sending' ? 'in_progress' : 'delivered';
    }
  }

  async recordDeadLetter(entry: StoredDeadLetter): Promise<void> {
    const failedAt = new Date(entry.failedAt);
    await this.doc.send(
      new PutCommand({
        TableName: this.table,
        Item: {
          ...entry,
          recordId: `${DEAD}${entry.failedAt}#${entry.eventId}`,
          expiresAt: Math.floor(failedAt.getTime() / 1000) + DEAD_LETTER_DAYS * DAY_SECONDS,
        },
      }),
    );
  }

  async findDeadLetter(accountId: string, eventId: string): Promise<StoredDeadLetter | undefined> {
    // Dead letters sort by time, not by event: read the account's (kept 30 days) until this event's is found.
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.doc.send(
        new QueryCommand({
          TableName: this.table,
          KeyConditionExpression: 'accountId = :a AND begins_with(recordId, :dead)',
          FilterExpression: 'eventId = :e',
          ExpressionAttributeValues: { ':a': accountId, ':dead': DEAD, ':e': eventId },
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      const found = out.Items?.[0];
      if (found) return deadLetterOf(found);
      start = out.LastEvaluatedKey;
    } while (start);
    return undefined;
  }

  async removeDeadLetter(entry: Pick<StoredDeadLetter, 'accountId' | 'eventId' | 'failedAt'>): Promise<boolean> {
    const out = await this.doc.send(
      new DeleteCommand({
        TableName: this.table,
        Key: { accountId: entry.accountId, recordId: `${DEAD}${entry.failedAt}#${entry.eventId}` },
        ReturnValues: 'ALL_OLD',
      }),
    );
    return out.Attributes !== undefined;
  }

  async pageDeadLetters(
    accountId: string,
    options: { limit: number; after?: string },
  ): Promise<{ deadLetters: StoredDeadLetter[]; last?: string }> {
    const out = await this.doc.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: options.after
          ? 'accountId = :a AND recordId BETWEEN :dead AND :after'
          : 'accountId = :a AND begins_with(recordId, :dead)',
        ExpressionAttributeValues: {
          ':a': accountId,
          ':dead': DEAD,
          ...(options.after ? { ':after': options.after } : {}),
        },
        ScanIndexForward: false,
        // One more than asked: whether a next page exists, and the `after` bound is inclusive (BETWEEN).
        Limit: options.limit + (options.after ? 2 : 1),
      }),
    );
    const items = (out.Items ?? []).filter((item) => item.recordId !== options.after);
    const page = items.slice(0, options.limit);
    const more = items.length > options.limit;
    return {
      deadLetters: page.map(deadLetterOf),
      ...(more ? { last: page[page.length - 1]!.recordId as string } : {}),
    };
  }
}
