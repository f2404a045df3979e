/** The TRO list on DynamoDB: one item per brand, replaced whole when a newer list names it. */
import { paginateScan, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { troBrandKey, type TroEntry } from '../../marks/tro-csv';
import type { TroBrand, TroStore } from '../../ports';
import { batchWriteAll } from './dynamodb-batch';

export class DynamoDbTroStore implements TroStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async upsert(entries: readonly TroEntry[], batchDate: string): Promise<number> {
    const items: TroBrand[] = entries.map((entry) => ({ ...entry, brandKey: troBrandKey(entry.brand), batchDate }));
    await batchWriteAll(
      this.doc,
      this.table,
      items.map((item) => ({ PutRequest: { Item: { ...item } } })),
    );
    return items.length;
  }

  /** The whole list: a few thousand brands at most, read once per function instance and kept in memory. */
  async all(): Promise<TroBrand[]> {
    const out: TroBrand[] = [];
    for await (const page of paginateScan({ client: this.doc }, { TableName: this.table }))
      out.push(...((page.Items ?? []) as TroBrand[]));
    return out;
  }
}
