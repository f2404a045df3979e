/**
 * Watched items and their alerts on DynamoDB. watch-items: partition accountId, sort key itemId (the seller's id).
 * watch-alerts: partition accountId, sort key alertId, time-ordered and derived from (batch, item), so that an alert
 * is put once with a condition and a redelivered batch records nothing twice. An alert waiting to be handed over to
 * its account's webhook carries `pendingHandOver` (the outbox mark); the hand-over clears it, a whole event's alerts
 * in one transaction, so a run that finds marks left finds whole events (shared/watch/rescreen.ts).
 */
import {
  DeleteCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  paginateQuery,
  paginateScan,
  type DynamoDBDocumentClient,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { BatchCompleted, WatchStore } from '../../ports';
import type { WatchAlert } from '../../watch/alerts';
import type { WatchItem, WatchResult } from '../../watch/watch';
import { batchWriteAll } from './dynamodb-batch';

/** DynamoDB's limit of items in one transaction. */
const TRANSACTION_ITEMS = 100;

export class DynamoDbWatchStore implements WatchStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tables: { items: string; alerts: string },
  ) {}

  async putItems(items: readonly WatchItem[]): Promise<void> {
    await batchWriteAll(
      this.doc,
      this.tables.items,
      items.map((item) => ({ PutRequest: { Item: { ...item } } })),
    );
  }

  async listItems(
    accountId: string,
    options: { limit: number; after?: string },
  ): Promise<{ items: WatchItem[]; last?: string }> {
    const items: WatchItem[] = [];
    let start: Record<string, unknown> | undefined = options.after ? { accountId, itemId: options.after } : undefined;
    do {
      const out = await this.doc.send(
        new QueryCommand({
          TableName: this.tables.items,
          KeyConditionExpression: 'accountId = :a',
          ExpressionAttributeValues: { ':a': accountId },
          Limit: options.limit - items.length,
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      items.push(...((out.Items ?? []) as WatchItem[]));
      start = out.LastEvaluatedKey;
    } while (start && items.length < options.limit);
    return { items, ...(start ? { last: items[items.length - 1]!.itemId } : {}) };
  }

  async *accountsWatching(): AsyncIterable<string> {
    // Items of one account are stored together, but a scan's pages do not say where an account ends: dedupe.
    const seen = new Set<string>();
    for await (const page of paginateScan(
      { client: this.doc },
      { TableName: this.tables.items, ProjectionExpression: 'accountId' },
    )) {
      for (const item of page.Items ?? []) {
        const accountId = item.accountId as string;
        if (seen.has(accountId)) continue;
        seen.add(accountId);
        yield accountId;
      }
    }
  }

  async deleteItem(accountId: string, itemId: string): Promise<boolean> {
    const out = await this.doc.send(
      new DeleteCommand({ TableName: this.tables.items, Key: { accountId, itemId }, ReturnValues: 'ALL_OLD' }),
    );
    return out.Attributes !== undefined;
  }

  async updateResult(accountId: string, itemId: string, result: WatchResult, screenedAt: string): Promise<void> {
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tables.items,
          Key: { accountId, itemId },
          UpdateExpression: 'SET #r = :r, screenedAt = :s',
          // An item deleted while it was being screened stays deleted.
          ConditionExpression: 'attribute_exists(itemId)',
          ExpressionAttributeNames: { '#r': 'result' },
          ExpressionAttributeValues: { ':r': result, ':s': screenedAt },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  async addAlert(alert: WatchAlert): Promise<boolean> {
    try {
      await this.doc.send(
        new PutCommand({
          TableName: this.tables.alerts,
          Item: { ...alert },
          ConditionExpression: 'attribute_not_exists(alertId)',
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async pendingAlerts(accountId: string, batch: Pick<BatchCompleted, 'batchId' | 'dataAsOf'>): Promise<WatchAlert[]> {
    // A batch's alert ids start with its data date: only that day's alerts of the account are read.
    return this.queryAlerts({
      KeyConditionExpression: 'accountId = :a AND begins_with(alertId, :day)',
      FilterExpression: 'batchId = :b AND attribute_exists(pendingHandOver)',
      ExpressionAttributeValues: {
        ':a': accountId,
        ':day': `al_${batch.dataAsOf.replace(/-/g, '')}_`,
        ':b': batch.batchId,
      },
    });
  }

  async markHandedOver(accountId: string, alertIds: readonly string[], at: string): Promise<void> {
    for (let i = 0; i < alertIds.length; i += TRANSACTION_ITEMS) {
      await this.doc.send(
        new TransactWriteCommand({
          TransactItems: alertIds.slice(i, i + TRANSACTION_ITEMS).map((alertId) => ({
            Update: {
              TableName: this.tables.alerts,
              Key: { accountId, alertId },
              UpdateExpression: 'REMOVE pendingHandOver SET handedOverAt = if_not_exists(handedOverAt, :at)',
              // Never creates an alert: every id is one this account's query found.
              ConditionExpression: 'attribute_exists(alertId)',
              ExpressionAttributeValues: { ':at': at },
            },
          })),
        }),
      );
    }
  }

  async pageAlerts(
    accountId: string,
    options: { limit: number; after?: string; since?: string; acknowledged?: boolean },
  ): Promise<{ alerts: WatchAlert[]; last?: string }> {
    const alerts: WatchAlert[] = [];
    // Ids start with the data date: every alert of `since` or later sorts at or after `al_<YYYYMMDD>`.
    const from = options.since ? `al_${options.since.replace(/-/g, '')}` : undefined;
    let start: Record<string, unknown> | undefined = options.after ? { accountId, alertId: options.after } : undefined;
    let last: string | undefined;
    do {
      const out = await this.doc.send(
        new QueryCommand({
          TableName: this.tables.alerts,
          KeyConditionExpression: from ? 'accountId = :a AND alertId >= :from' : 'accountId = :a',
          ...(options.acknowledged !== undefined ? { FilterExpression: 'acknowledged = :ack' } : {}),
          ExpressionAttributeValues: {
            ':a': accountId,
            ...(from ? { ':from': from } : {}),
            ...(options.acknowledged !== undefined ? { ':ack': options.acknowledged } : {}),
          },
          Limit: options.limit - alerts.length,
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      alerts.push(...((out.Items ?? []) as WatchAlert[]));
      start = out.LastEvaluatedKey;
      // A filtered page may end on an alert it left out: the next page goes on from where the read stopped.
      last = start ? (start.alertId as string) : undefined;
    } while (start && alerts.length < options.limit);
    return { alerts, ...(last ? { last } : {}) };
  }

  async acknowledgeAlerts(accountId: string, alertIds: readonly string[], at: string): Promise<string[]> {
    const done: string[] = [];
    for (const alertId of alertIds) {
      try {
        await this.doc.send(
          new UpdateCommand({
            TableName: this.tables.alerts,
            Key: { accountId, alertId },
            UpdateExpression: 'SET acknowledged = :t, acknowledgedAt = if_not_exists(acknowledgedAt, :at)',
            ConditionExpression: 'attribute_exists(alertId)',
            ExpressionAttributeValues: { ':t': true, ':at': at },
          }),
        );
        done.push(alertId);
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    }
    return done;
  }

  async listAlerts(accountId: string): Promise<WatchAlert[]> {
    return this.queryAlerts({
      KeyConditionExpression: 'accountId = :a',
      ExpressionAttributeValues: { ':a': accountId },
    });
  }

  /** Every alert a query of the alerts table finds, page after page. */
  private async queryAlerts(
    query: Pick<QueryCommandInput, 'KeyConditionExpression' | 'FilterExpression' | 'ExpressionAttributeValues'>,
  ): Promise<WatchAlert[]> {
    const alerts: WatchAlert[] = [];
    for await (const page of paginateQuery({ client: this.doc }, { TableName: this.tables.alerts, ...query }))
      alerts.push(...((page.Items ?? []) as WatchAlert[]));
    return alerts;
  }
}
