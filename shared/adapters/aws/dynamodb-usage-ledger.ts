/**
 * The points ledger on DynamoDB. The balance lives on the account item; every movement of points has a record in
 * the usage table written in the same transaction, so at all times:
 *   balance = sum(credits) - sum(charges not refunded)
 */
import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand, paginateQuery, type DynamoDBDocumentClient, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { AccountNotFoundError, DebitOutcomeUnknownError, InsufficientPointsError } from '../../errors';
import { newId } from '../../metering/api-keys';
import type { Debit, LedgerEntry, LedgerRange, UsageLedger } from '../../ports';
import { cancellationReasons, conditionFailedAt, oldItemAt, withConflictRetry } from './transaction-errors';

type TransactUpdate = NonNullable<TransactWriteCommandInput['TransactItems']>[number]['Update'];

export class DynamoDbUsageLedger implements UsageLedger {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tables: { accounts: string; usage: string },
  ) {}

  async debit(input: { accountId: string; keyId?: string; cost: number; units: number; operation: string; requestId: string; now: Date }): Promise<Debit> {
    if (!Number.isSafeInteger(input.cost) || input.cost <= 0) throw new RangeError('a debit must be a positive whole number of points');
    const at = input.now.toISOString();
    const entryId = `${at}#${input.requestId}`;
    const entry: LedgerEntry = {
      accountId: input.accountId,
      entryId,
      kind: 'charge',
      status: 'charged',
      operation: input.operation,
      points: input.cost,
      units: input.units,
      requestId: input.requestId,
      at,
      ...(input.keyId ? { keyId: input.keyId } : {}),
    };
    const debit: Debit = { accountId: input.accountId, entryId, cost: input.cost };
    try {
      await this.moveWithRecord(
        {
          Key: { accountId: input.accountId },
          UpdateExpression: 'SET points = points - :cost',
          ConditionExpression: 'attribute_exists(accountId) AND points >= :cost',
          ExpressionAttributeValues: { ':cost': input.cost },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
        entry,
      );
    } catch (error) {
      const reasons = cancellationReasons(error);
      // The record exists: an earlier attempt of this same transaction (retried after a lost answer) went through.
      if (reasons && conditionFailedAt(reasons, 1)) return debit;
      if (reasons && conditionFailedAt(reasons, 0)) {
        const account = oldItemAt(reasons, 0);
        if (!account) throw new AccountNotFoundError();
        throw new InsufficientPointsError(Number(account.points), input.cost);
      }
      // No answer (the table unreachable, the connection cut): the charge may or may not have been made.
      if (!reasons) throw new DebitOutcomeUnknownError(debit, error);
      throw error;
    }
    return debit;
  }

  async refund(debit: Debit, reason: string, now: Date): Promise<boolean> {
    try {
      await withConflictRetry(() =>
        this.doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                // The named condition is what makes a refund happen at most once.
                Update: {
                  TableName: this.tables.usage,
                  Key: { accountId: debit.accountId, entryId: debit.entryId },
                  UpdateExpression: 'SET #status = :refunded, refundedAt = :at, refundReason = :reason',
                  ConditionExpression: '#status = :charged AND points = :cost',
                  ExpressionAttributeNames: { '#status': 'status' },
                  ExpressionAttributeValues: {
                    ':refunded': 'refunded',
                    ':charged': 'charged',
                    ':at': now.toISOString(),
                    ':reason': reason.slice(0, 200),
                    ':cost': debit.cost,
                  },
                },
              },
              {
                Update: {
                  TableName: this.tables.accounts,
                  Key: { accountId: debit.accountId },
                  UpdateExpression: 'ADD points :cost',
                  ConditionExpression: 'attribute_exists(accountId)',
                  ExpressionAttributeValues: { ':cost': debit.cost },
                },
              },
            ],
          }),
        ),
      );
      return true;
    } catch (error) {
      const reasons = cancellationReasons(error);
      if (reasons && conditionFailedAt(reasons, 0)) return false;
      throw error;
    }
  }

  async credit(input: { accountId: string; points: number; note: string; now: Date }): Promise<number> {
    if (!Number.isSafeInteger(input.points) || input.points <= 0) throw new RangeError('credit must be a positive whole number of points');
    const at = input.now.toISOString();
    const creditId = newId('credit');
    const entry: LedgerEntry = {
      accountId: input.accountId,
      entryId: `${at}#${creditId}`,
      kind: 'credit',
      status: 'credited',
      operation: 'credit',
      points: input.points,
      units: 0,
      requestId: creditId,
      at,
      note: input.note.slice(0, 200),
    };
    try {
      await this.moveWithRecord(
        {
          Key: { accountId: input.accountId },
          UpdateExpression: 'ADD points :points',
          ConditionExpression: 'attribute_exists(accountId)',
          ExpressionAttributeValues: { ':points': input.points },
        },
        entry,
      );
    } catch (error) {
      const reasons = cancellationReasons(error);
      if (reasons && conditionFailedAt(reasons, 0)) throw new AccountNotFoundError();
      throw error;
    }
    const account = await this.doc.send(
      new GetCommand({ TableName: this.tables.accounts, Key: { accountId: input.accountId }, ConsistentRead: true }),
    );
    return Number(account.Item?.points ?? 0);
  }

  async adjust(input: { accountId: string; points: number; reason: string; now: Date }): Promise<number> {
    if (!Number.isSafeInteger(input.points) || input.points <= 0) throw new RangeError('an adjustment takes off a positive whole number of points');
    const at = input.now.toISOString();
    const adjustmentId = newId('adj');
    const entry: LedgerEntry = {
      accountId: input.accountId,
      entryId: `${at}#${adjustmentId}`,
      kind: 'adjustment',
      status: 'adjusted',
      operation: 'adjustment',
      points: input.points,
      units: 0,
      requestId: adjustmentId,
      at,
      note: input.reason.slice(0, 200),
    };
    try {
      await this.moveWithRecord(
        {
          Key: { accountId: input.accountId },
          UpdateExpression: 'SET points = points - :points',
          ConditionExpression: 'attribute_exists(accountId) AND points >= :points',
          ExpressionAttributeValues: { ':points': input.points },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
        entry,
      );
    } catch (error) {
      const reasons = cancellationReasons(error);
      if (reasons && conditionFailedAt(reasons, 0)) {
        const account = oldItemAt(reasons, 0);
        if (!account) throw new AccountNotFoundError();
        throw new InsufficientPointsError(Number(account.points), input.points);
      }
      throw error;
    }
    return this.balanceOf(input.accountId);
  }

  async recordEvent(input: { accountId: string; operation: string; note: string; keyId?: string; now: Date }): Promise<LedgerEntry> {
    const at = input.now.toISOString();
    const eventId = newId('evt');
    const entry: LedgerEntry = {
      accountId: input.accountId,
      entryId: `${at}#${eventId}`,
      kind: 'event',
      status: 'recorded',
      operation: input.operation,
      points: 0,
      units: 0,
      requestId: eventId,
      at,
      note: input.note.slice(0, 200),
      ...(input.keyId ? { keyId: input.keyId } : {}),
    };
    await this.doc.send(new PutCommand({ TableName: this.tables.usage, Item: entry, ConditionExpression: 'attribute_not_exists(entryId)' }));
    return entry;
  }

  /**
   * Entry ids begin with the ISO time of the record, so a time range is a key range: `from` inclusive, and `to`
   * exclusive (every id at `to` itself sorts after the bare timestamp).
   */
  private rangeQuery(accountId: string, query: LedgerRange) {
    return {
      TableName: this.tables.usage,
      KeyConditionExpression: 'accountId = :a AND entryId BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':a': accountId,
        ':from': query.from.toISOString(),
        ':to': query.to.toISOString(),
        ...(query.keyId ? { ':k': query.keyId } : {}),
      },
      ...(query.keyId ? { FilterExpression: 'keyId = :k' } : {}),
      ScanIndexForward: false,
    };
  }

  async page(accountId: string, query: LedgerRange & { limit: number; before?: string }): Promise<{ entries: LedgerEntry[]; more: boolean }> {
    const entries: LedgerEntry[] = [];
    let startKey: Record<string, unknown> | undefined = query.before ? { accountId, entryId: query.before } : undefined;
    // One more than asked for tells whether another page exists; a key filter may need several reads to fill it.
    do {
      const out = await this.doc.send(
        new QueryCommand({ ...this.rangeQuery(accountId, query), Limit: query.limit + 1 - entries.length, ...(startKey ? { ExclusiveStartKey: startKey } : {}) }),
      );
      entries.push(...((out.Items ?? []) as LedgerEntry[]));
      startKey = out.LastEvaluatedKey;
    } while (startKey && entries.length <= query.limit);
    return { entries: entries.slice(0, query.limit), more: entries.length > query.limit };
  }

  async *between(accountId: string, query: LedgerRange): AsyncIterable<LedgerEntry> {
    for await (const page of paginateQuery({ client: this.doc }, this.rangeQuery(accountId, query))) {
      yield* (page.Items ?? []) as LedgerEntry[];
    }
  }

  private async balanceOf(accountId: string): Promise<number> {
    const account = await this.doc.send(new GetCommand({ TableName: this.tables.accounts, Key: { accountId }, ConsistentRead: true }));
    return Number(account.Item?.points ?? 0);
  }

  /** One transaction: the account's balance changes, and the record that says why is written with it. */
  private async moveWithRecord(accountUpdate: Omit<NonNullable<TransactUpdate>, 'TableName'>, entry: LedgerEntry): Promise<void> {
    await withConflictRetry(() =>
      this.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            { Update: { TableName: this.tables.accounts, ...accountUpdate } },
            { Put: { TableName: this.tables.usage, Item: entry, ConditionExpression: 'attribute_not_exists(entryId)' } },
          ],
        }),
      ),
    );
  }

  async entries(accountId: string, options: { limit?: number; newestFirst?: boolean } = {}): Promise<LedgerEntry[]> {
    const out: LedgerEntry[] = [];
    const pages = paginateQuery(
      { client: this.doc, ...(options.limit ? { pageSize: options.limit } : {}) },
      { TableName: this.tables.usage, KeyConditionExpression: 'accountId = :a', ExpressionAttributeValues: { ':a': accountId }, ScanIndexForward: !options.newestFirst, ConsistentRead: true },
    );
    for await (const page of pages) {
      out.push(...((page.Items ?? []) as LedgerEntry[]));
      if (options.limit && out.length >= options.limit) return out.slice(0, options.limit);
    }
    return out;
  }
}
