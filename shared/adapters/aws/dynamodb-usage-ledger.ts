/**
 * The points ledger on DynamoDB. The balance lives on the account item; every movement of points has a record in
 * the usage table written in the same transaction, so at all times:
 *   balance = sum(credits) - sum(charges not refunded)
 */
import {
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  paginateQuery,
  type DynamoDBDocumentClient,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { backoffDelay, sleep } from '../../async/retry';
import {
  AccountNotFoundError,
  DebitContendedError,
  DebitOutcomeUnknownError,
  InsufficientPointsError,
} from '../../errors';
import { newId } from '../../metering/api-keys';
import type { Debit, DebitInput, LedgerEntry, LedgerRange, UsageLedger } from '../../ports';
import {
  cancellationReasons,
  conditionFailedAt,
  isTransactionConflict,
  oldItemAt,
  withConflictRetry,
} from './transaction-errors';

/** How long a debit keeps retrying against other movements of the same account before it gives up (503, uncharged). */
const MAX_CONTENTION_MS = 3000;

type TransactUpdate = NonNullable<TransactWriteCommandInput['TransactItems']>[number]['Update'];

export class DynamoDbUsageLedger implements UsageLedger {
  private readonly debitsInFlight = new Map<string, Promise<void>>();
  /** The balance each account was left with by this process's last debit: the first guess of the next. */
  private readonly lastBalance = new Map<string, number>();

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tables: { accounts: string; usage: string },
  ) {}

  /**
   * The balance this charge leaves is written on its usage record and returned, so it must be exact: the debit
   * reads the balance, then sets it to `seen - cost` on the condition that it is still `seen` (a compare-and-set).
   * When another movement got there first, the failed condition hands back the account as it now is, and the
   * debit tries again from that balance: no extra read, and no two charges can claim the same balance.
   */
  async debit(input: DebitInput): Promise<Debit> {
    if (!Number.isSafeInteger(input.cost) || input.cost <= 0)
      throw new RangeError('a debit must be a positive whole number of points');
    // Debits of one account made by this process go one at a time: they would only defeat each other's
    // compare-and-set. Across processes (Lambda instances) the compare-and-set alone keeps them apart.
    const before = this.debitsInFlight.get(input.accountId) ?? Promise.resolve();
    const mine = before.then(() => this.debitNow(input));
    const settled = mine.then(
      () => undefined,
      () => undefined,
    );
    this.debitsInFlight.set(input.accountId, settled);
    void settled.then(() => {
      if (this.debitsInFlight.get(input.accountId) === settled) this.debitsInFlight.delete(input.accountId);
    });
    return mine;
  }

  private async debitNow(input: DebitInput): Promise<Debit> {
    const at = input.now.toISOString();
    const entryId = `${at}#${input.requestId}`;
    const debit: Debit = { accountId: input.accountId, entryId, cost: input.cost };
    const startedAt = Date.now();
    let seen = this.lastBalance.get(input.accountId);
    let guessed = seen !== undefined;
    seen ??= await this.balanceOf(input.accountId);
    for (let attempt = 1; ; attempt++) {
      if (guessed && (seen === undefined || seen < input.cost)) {
        // A guess is no ground for a refusal: points may have been added since.
        seen = await this.balanceOf(input.accountId);
        guessed = false;
      }
      if (seen === undefined) throw new AccountNotFoundError();
      if (seen < input.cost) throw new InsufficientPointsError(seen, input.cost);
      const balanceAfter = seen - input.cost;
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
        balanceAfter,
        ...(input.keyId ? { keyId: input.keyId } : {}),
      };
      try {
        // Not retried on conflicts by itself: a conflict is contention like a lost compare-and-set, handled below.
        await this.moveWithRecord(
          {
            Key: { accountId: input.accountId },
            UpdateExpression: 'SET points = :after',
            ConditionExpression: 'attribute_exists(accountId) AND points = :seen',
            ExpressionAttributeValues: { ':after': balanceAfter, ':seen': seen },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
          entry,
          1,
        );
        this.rememberBalance(input.accountId, balanceAfter);
        return { ...debit, balanceAfter };
      } catch (error) {
        const reasons = cancellationReasons(error);
        // The record exists: an earlier attempt of this same debit (retried after a lost answer) went through.
        if (reasons && conditionFailedAt(reasons, 1)) return { ...debit, ...(await this.recordedBalanceAfter(debit)) };
        const lost = reasons && conditionFailedAt(reasons, 0);
        if (lost || (reasons && isTransactionConflict(reasons))) {
          this.lastBalance.delete(input.accountId);
          if (lost) {
            const account = oldItemAt(reasons, 0);
            seen = account ? Number(account.points) : undefined;
            guessed = false;
          }
          if (Date.now() - startedAt > MAX_CONTENTION_MS) throw new DebitContendedError(attempt);
          // Many requests of one account at once: spread the retries so that each round lets one through.
          if (attempt > 2 || !lost) await sleep(backoffDelay(attempt, { baseMs: 1, capMs: 250 }));
          continue;
        }
        // No answer (the table unreachable, the connection cut): the charge may or may not have been made.
        if (!reasons) throw new DebitOutcomeUnknownError(debit, error);
        throw error;
      }
    }
  }

  private rememberBalance(accountId: string, balance: number): void {
    if (this.lastBalance.size >= 10_000) this.lastBalance.clear();
    this.lastBalance.set(accountId, balance);
  }

  private async balanceOf(accountId: string): Promise<number | undefined> {
    const account = await this.doc.send(
      new GetCommand({
        TableName: this.tables.accounts,
        Key: { accountId },
        ConsistentRead: true,
        ProjectionExpression: 'points',
      }),
    );
    return account.Item ? Number(account.Item.points) : undefined;
  }

  private async recordedBalanceAfter(debit: Debit): Promise<{ balanceAfter?: number }> {
    const record = await this.doc.send(
      new GetCommand({
        TableName: this.tables.usage,
        Key: { accountId: debit.accountId, entryId: debit.entryId },
        ConsistentRead: true,
        ProjectionExpression: 'balanceAfter',
      }),
    );
    const balanceAfter = record.Item?.balanceAfter;
    return typeof balanceAfter === 'number' ? { balanceAfter } : {};
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
    if (!Number.isSafeInteger(input.points) || input.points <= 0)
      throw new RangeError('credit must be a positive whole number of points');
    return this.moveByHand(input, { kind: 'credit', status: 'credited', idPrefix: 'credit', note: input.note });
  }

  async adjust(input: { accountId: string; points: number; reason: string; now: Date }): Promise<number> {
    if (!Number.isSafeInteger(input.points) || input.points <= 0)
      throw new RangeError('an adjustment takes off a positive whole number of points');
    return this.moveByHand(input, { kind: 'adjustment', status: 'adjusted', idPrefix: 'adj', note: input.reason });
  }

  /**
   * A movement made by hand (admin CLI): a credit adds points; an adjustment takes them off, never below zero
   * (InsufficientPointsError with the balance). The record says who and why; the balance after is returned.
   */
  private async moveByHand(
    input: { accountId: string; points: number; now: Date },
    how: { kind: 'credit' | 'adjustment'; status: 'credited' | 'adjusted'; idPrefix: 'credit' | 'adj'; note: string },
  ): Promise<number> {
    const at = input.now.toISOString();
    const id = newId(how.idPrefix);
    const entry: LedgerEntry = {
      accountId: input.accountId,
      entryId: `${at}#${id}`,
      kind: how.kind,
      status: how.status,
      operation: how.kind,
      points: input.points,
      units: 0,
      requestId: id,
      at,
      note: how.note.slice(0, 200),
    };
    const update =
      how.kind === 'credit'
        ? { UpdateExpression: 'ADD points :points', ConditionExpression: 'attribute_exists(accountId)' }
        : {
            UpdateExpression: 'SET points = points - :points',
            ConditionExpression: 'attribute_exists(accountId) AND points >= :points',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
          };
    try {
      await this.moveWithRecord(
        { Key: { accountId: input.accountId }, ExpressionAttributeValues: { ':points': input.points }, ...update },
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
    return (await this.balanceOf(input.accountId)) ?? 0;
  }

  async recordEvent(input: {
    accountId: string;
    operation: string;
    note: string;
    keyId?: string;
    now: Date;
  }): Promise<LedgerEntry> {
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
    await this.doc.send(
      new PutCommand({
        TableName: this.tables.usage,
        Item: entry,
        ConditionExpression: 'attribute_not_exists(entryId)',
      }),
    );
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

  async page(
    accountId: string,
    query: LedgerRange & { limit: number; before?: string },
  ): Promise<{ entries: LedgerEntry[]; more: boolean }> {
    const entries: LedgerEntry[] = [];
    let startKey: Record<string, unknown> | undefined = query.before ? { accountId, entryId: query.before } : undefined;
    // One more than asked for tells whether another page exists; a key filter may need several reads to fill it.
    do {
      const out = await this.doc.send(
        new QueryCommand({
          ...this.rangeQuery(accountId, query),
          Limit: query.limit + 1 - entries.length,
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
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

  /** One transaction: the account's balance changes, and the record that says why is written with it. */
  private async moveWithRecord(
    accountUpdate: Omit<NonNullable<TransactUpdate>, 'TableName'>,
    entry: LedgerEntry,
    conflictAttempts?: number,
  ): Promise<void> {
    await withConflictRetry(
      () =>
        this.doc.send(
          new TransactWriteCommand({
            TransactItems: [
              { Update: { TableName: this.tables.accounts, ...accountUpdate } },
              {
                Put: {
                  TableName: this.tables.usage,
                  Item: entry,
                  ConditionExpression: 'attribute_not_exists(entryId)',
                },
              },
            ],
          }),
        ),
      conflictAttempts,
    );
  }

  async entries(accountId: string, options: { limit?: number; newestFirst?: boolean } = {}): Promise<LedgerEntry[]> {
    const out: LedgerEntry[] = [];
    const pages = paginateQuery(
      { client: this.doc, ...(options.limit ? { pageSize: options.limit } : {}) },
      {
        TableName: this.tables.usage,
        KeyConditionExpression: 'accountId = :a',
        ExpressionAttributeValues: { ':a': accountId },
        ScanIndexForward: !options.newestFirst,
        ConsistentRead: true,
      },
    );
    for await (const page of pages) {
      out.push(...((page.Items ?? []) as LedgerEntry[]));
      if (options.limit && out.length >= options.limit) return out.slice(0, options.limit);
    }
    return out;
  }
}
