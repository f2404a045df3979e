/**
 * Data batches on DynamoDB: `scope` = `<market>#<kind>`, `batchId` = the batch. A batch is `running` from its
 * first write and `complete` only once every record was written, so an interrupted run leaves it running and a
 * re-run finishes it. The lock item (`batchId` = `~lock`) keeps ingests of one market and kind one at a time.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  paginateQuery,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type { Market } from '../../marks/mark-record';
import type { DataBatch, DataBatchStore, DataKind } from '../../ports';

const LOCK_ID = '~lock';

export class IngestLockedError extends Error {
  constructor(
    readonly scope: string,
    readonly holder: string,
    readonly expiresAt: number,
  ) {
    super(
      `another ingest of ${scope} is running (${holder}); it expires at ${new Date(expiresAt * 1000).toISOString()} if its holder died`,
    );
  }
}

export class DynamoDbDataBatchStore implements DataBatchStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async begin(batch: Omit<DataBatch, 'status' | 'completedAt' | 'counts'>): Promise<void> {
    // A re-run of a batch starts it over as running, whatever it was: complete is only said at the end.
    await this.doc.send(
      new PutCommand({
        TableName: this.table,
        Item: { scope: `${batch.market}#${batch.kind}`, ...batch, status: 'running' },
      }),
    );
  }

  async complete(
    batch: Pick<DataBatch, 'market' | 'kind' | 'batchId'>,
    counts: Record<string, number>,
    now: Date,
  ): Promise<void> {
    await this.doc.send(
      new UpdateCommand({
        TableName: this.table,
        Key: { scope: `${batch.market}#${batch.kind}`, batchId: batch.batchId },
        UpdateExpression: 'SET #status = :complete, completedAt = :now, #counts = :counts',
        ConditionExpression: 'attribute_exists(batchId)',
        ExpressionAttributeNames: { '#status': 'status', '#counts': 'counts' },
        ExpressionAttributeValues: { ':complete': 'complete', ':now': now.toISOString(), ':counts': counts },
      }),
    );
  }

  async get(market: Market, kind: DataKind, batchId: string): Promise<DataBatch | undefined> {
    const out = await this.doc.send(
      new GetCommand({ TableName: this.table, Key: { scope: `${market}#${kind}`, batchId }, ConsistentRead: true }),
    );
    return out.Item as DataBatch | undefined;
  }

  /** Batch ids begin with their data_as_of date (see shared/ingest), so the newest complete one is found first. */
  async latestComplete(market: Market, kind: DataKind): Promise<DataBatch | undefined> {
    const pages = paginateQuery(
      { client: this.doc },
      {
        TableName: this.table,
        KeyConditionExpression: '#scope = :scope',
        FilterExpression: '#status = :complete',
        ExpressionAttributeNames: { '#scope': 'scope', '#status': 'status' },
        ExpressionAttributeValues: { ':scope': `${market}#${kind}`, ':complete': 'complete' },
        ScanIndexForward: false,
      },
    );
    for await (const page of pages) {
      const [newest] = (page.Items ?? []) as DataBatch[];
      if (newest) return newest;
    }
    return undefined;
  }

  /** The lock sorts after every batch id (`~`), so the first item below it is a batch if there is one. */
  async hasBatches(market: Market, kind: DataKind): Promise<boolean> {
    const page = await this.doc.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: '#scope = :scope AND batchId < :lock',
        ExpressionAttributeNames: { '#scope': 'scope' },
        ExpressionAttributeValues: { ':scope': `${market}#${kind}`, ':lock': LOCK_ID },
        ProjectionExpression: 'batchId',
        ConsistentRead: true,
        Limit: 1,
      }),
    );
    return (page.Items ?? []).length > 0;
  }

  async unfinished(market: Market, kind: DataKind): Promise<string[]> {
    const ids: string[] = [];
    const pages = paginateQuery(
      { client: this.doc },
      {
        TableName: this.table,
        KeyConditionExpression: '#scope = :scope AND batchId < :lock',
        FilterExpression: '#status <> :complete',
        ExpressionAttributeNames: { '#scope': 'scope', '#status': 'status' },
        ExpressionAttributeValues: { ':scope': `${market}#${kind}`, ':lock': LOCK_ID, ':complete': 'complete' },
        ProjectionExpression: 'batchId',
        ConsistentRead: true,
      },
    );
    for await (const page of pages) for (const item of page.Items ?? []) ids.push(String(item.batchId));
    return ids;
  }

  async acquireLock(market: Market, kind: DataKind, holder: string, now: Date, ttlSeconds: number): Promise<void> {
    const nowSeconds = Math.floor(now.getTime() / 1000);
    try {
      await this.doc.send(
        new PutCommand({
          TableName: this.table,
          Item: { scope: `${market}#${kind}`, batchId: LOCK_ID, holder, expiresAt: nowSeconds + ttlSeconds },
          ConditionExpression: 'attribute_not_exists(batchId) OR expiresAt < :now OR holder = :holder',
          ExpressionAttributeValues: { ':now': nowSeconds, ':holder': holder },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) {
        const old = (error.Item ?? {}) as { holder?: { S?: string }; expiresAt?: { N?: string } };
        throw new IngestLockedError(`${market}#${kind}`, old.holder?.S ?? 'unknown', Number(old.expiresAt?.N ?? 0));
      }
      throw error;
    }
  }

  async releaseLock(market: Market, kind: DataKind, holder: string): Promise<void> {
    try {
      await this.doc.send(
        new DeleteCommand({
          TableName: this.table,
          Key: { scope: `${market}#${kind}`, batchId: LOCK_ID },
          ConditionExpression: 'holder = :holder',
          ExpressionAttributeValues: { ':holder': holder },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
}
