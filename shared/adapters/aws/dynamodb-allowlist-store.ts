/** Each account's own brands on DynamoDB: one item per account, replaced whole. */
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Allowlist, AllowlistStore } from '../../ports';

export class DynamoDbAllowlistStore implements AllowlistStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async get(accountId: string): Promise<Allowlist | undefined> {
    const out = await this.doc.send(new GetCommand({ TableName: this.table, Key: { accountId } }));
    return out.Item as Allowlist | undefined;
  }

  async put(accountId: string, brands: readonly string[], now: Date): Promise<Allowlist> {
    const item: Allowlist = { accountId, brands: [...brands], updatedAt: now.toISOString() };
    await this.doc.send(new PutCommand({ TableName: this.table, Item: item }));
    return item;
  }
}
