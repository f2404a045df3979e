/** Accounts and their API keys on DynamoDB. Points move only through the usage ledger, never here. */
import {
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
  paginateQuery,
  paginateScan,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { newId } from '../../metering/api-keys';
import type { Tier } from '../../metering/tiers';
import type { Account, AccountStore, ApiKeyRecord } from '../../ports';
import { cancellationReasons, conditionFailedAt, withConflictRetry } from './transaction-errors';

export class DynamoDbAccountStore implements AccountStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tables: { accounts: string; apiKeys: string },
  ) {}

  async getAccount(accountId: string, options: { consistent?: boolean } = {}): Promise<Account | undefined> {
    const out = await this.doc.send(
      new GetCommand({
        TableName: this.tables.accounts,
        Key: { accountId },
        ConsistentRead: options.consistent ?? false,
      }),
    );
    return out.Item as Account | undefined;
  }

  async findApiKey(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const out = await this.doc.send(new GetCommand({ TableName: this.tables.apiKeys, Key: { keyHash } }));
    return out.Item as ApiKeyRecord | undefined;
  }

  async createAccount(input: { name: string; tier: Tier; rateLimit?: number; now: Date }): Promise<Account> {
    const account: Account = {
      accountId: newId('acct'),
      name: input.name,
      tier: input.tier,
      // The opening balance is a ledger credit, so that every point on the account has a record.
      points: 0,
      ...(input.rateLimit ? { rateLimit: input.rateLimit } : {}),
      createdAt: input.now.toISOString(),
    };
    await this.doc.send(
      new PutCommand({
        TableName: this.tables.accounts,
        Item: account,
        ConditionExpression: 'attribute_not_exists(accountId)',
      }),
    );
    return account;
  }

  async saveApiKey(record: ApiKeyRecord): Promise<void> {
    await this.doc.send(
      new PutCommand({
        TableName: this.tables.apiKeys,
        Item: record,
        ConditionExpression: 'attribute_not_exists(keyHash)',
      }),
    );
  }

  async listApiKeys(accountId: string): Promise<ApiKeyRecord[]> {
    const out: ApiKeyRecord[] = [];
    const pages = paginateQuery(
      { client: this.doc },
      {
        TableName: this.tables.apiKeys,
        IndexName: 'byAccount',
        KeyConditionExpression: 'accountId = :a',
        ExpressionAttributeValues: { ':a': accountId },
      },
    );
    for await (const page of pages) out.push(...((page.Items ?? []) as ApiKeyRecord[]));
    return out;
  }

  async revokeApiKey(accountId: string, keyId: string, now: Date): Promise<boolean> {
    return this.updateKey(accountId, keyId, {
      UpdateExpression: 'SET revokedAt = :now',
      ConditionExpression: 'attribute_exists(keyHash) AND attribute_not_exists(revokedAt)',
      ExpressionAttributeValues: { ':now': now.toISOString() },
    });
  }

  async setTier(accountId: string, tier: Tier): Promise<void> {
    await this.updateAccountAndKeys(accountId, 'SET tier = :tier', { ':tier': tier });
  }

  async setRateLimit(accountId: string, requestsPerWindow: number | undefined): Promise<void> {
    if (requestsPerWindow === undefined) await this.updateAccountAndKeys(accountId, 'REMOVE rateLimit', {});
    else await this.updateAccountAndKeys(accountId, 'SET rateLimit = :limit', { ':limit': requestsPerWindow });
  }

  async setSuspended(accountId: string, suspendedAt: string | undefined): Promise<void> {
    if (suspendedAt === undefined) await this.updateAccountAndKeys(accountId, 'REMOVE suspendedAt', {});
    else await this.updateAccountAndKeys(accountId, 'SET suspendedAt = :at', { ':at': suspendedAt });
  }

  async expireApiKey(accountId: string, keyId: string, expiresAt: string): Promise<boolean> {
    return this.updateKey(accountId, keyId, {
      UpdateExpression: 'SET expiresAt = :at',
      // A key already revoked, or already set to expire sooner, stays as it is.
      ConditionExpression:
        'attribute_exists(keyHash) AND attribute_not_exists(revokedAt) AND (attribute_not_exists(expiresAt) OR expiresAt > :at)',
      ExpressionAttributeValues: { ':at': expiresAt },
    });
  }

  /** A conditional change to one of the account's keys: false when the key is not the account's or the condition fails. */
  private async updateKey(
    accountId: string,
    keyId: string,
    change: {
      UpdateExpression: string;
      ConditionExpression: string;
      ExpressionAttributeValues: Record<string, unknown>;
    },
  ): Promise<boolean> {
    const key = (await this.listApiKeys(accountId)).find((k) => k.keyId === keyId);
    if (!key) return false;
    try {
      await this.doc.send(
        new UpdateCommand({ TableName: this.tables.apiKeys, Key: { keyHash: key.keyHash }, ...change }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async listAccounts(): Promise<Account[]> {
    const out: Account[] = [];
    for await (const page of paginateScan({ client: this.doc }, { TableName: this.tables.accounts }))
      out.push(...((page.Items ?? []) as Account[]));
    return out.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  async findApiKeysByPrefix(prefix: string): Promise<ApiKeyRecord[]> {
    // Display prefixes end in an ellipsis; one pasted from a listing still matches.
    const wanted = prefix.replace(/…$/, '');
    const out: ApiKeyRecord[] = [];
    const pages = paginateScan(
      { client: this.doc },
      {
        TableName: this.tables.apiKeys,
        FilterExpression: 'begins_with(prefix, :p)',
        ExpressionAttributeValues: { ':p': wanted },
      },
    );
    for await (const page of pages) out.push(...((page.Items ?? []) as ApiKeyRecord[]));
    return out;
  }

  /** The account and the copies on its keys change in one transaction (in chunks for an account with many keys). */
  private async updateAccountAndKeys(
    accountId: string,
    expression: string,
    values: Record<string, unknown>,
  ): Promise<void> {
    const valuesPart = Object.keys(values).length ? { ExpressionAttributeValues: values } : {};
    const keys = await this.listApiKeys(accountId);
    const updates = [
      {
        Update: {
          TableName: this.tables.accounts,
          Key: { accountId },
          UpdateExpression: expression,
          ConditionExpression: 'attribute_exists(accountId)',
          ...valuesPart,
        },
      },
      ...keys.map((k) => ({
        Update: {
          TableName: this.tables.apiKeys,
          Key: { keyHash: k.keyHash },
          UpdateExpression: expression,
          ConditionExpression: 'attribute_exists(keyHash)',
          ...valuesPart,
        },
      })),
    ];
    try {
      for (let i = 0; i < updates.length; i += 100) {
        await withConflictRetry(() =>
          this.doc.send(new TransactWriteCommand({ TransactItems: updates.slice(i, i + 100) })),
        );
      }
    } catch (error) {
      const reasons = cancellationReasons(error);
      if (reasons && conditionFailedAt(reasons, 0)) throw new Error(`no account ${accountId}`);
      throw error;
    }
  }
}
