/**
 * Key filters on DynamoDB, in the data-batches table beside the batches they describe: `scope` =
 * `<market>#key-filter`, a `current` item naming the version, and the version's bytes in chunks that fit items.
 * A new version is written whole before `current` points at it, so a reader never sees half a filter.
 */
import { BatchGetCommand, GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { KeyFilter } from '../../marks/key-filter';
import type { Market } from '../../marks/mark-record';
import type { KeyFilterStore } from '../../ports';
import { batchWriteAll } from './dynamodb-batch';

const CHUNK_BYTES = 300_000;

interface Current {
  version: string;
  count: number;
  chunks: number;
}

export class DynamoDbKeyFilterStore implements KeyFilterStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  private scope(market: Market): string {
    return `${market}#key-filter`;
  }

  async load(market: Market): Promise<KeyFilter | undefined> {
    const out = await this.doc.send(new GetCommand({ TableName: this.table, Key: { scope: this.scope(market), batchId: 'current' }, ConsistentRead: true }));
    const current = out.Item as Current | undefined;
    if (!current) return undefined;
    const keys = Array.from({ length: current.chunks }, (_, i) => ({ scope: this.scope(market), batchId: `${current.version}#${String(i).padStart(5, '0')}` }));
    const parts = new Map<string, Uint8Array>();
    for (let i = 0; i < keys.length; i += 100) {
      const page = await this.doc.send(new BatchGetCommand({ RequestItems: { [this.table]: { Keys: keys.slice(i, i + 100), ConsistentRead: true } } }));
      for (const item of page.Responses?.[this.table] ?? []) parts.set(String(item.batchId), item.bytes as Uint8Array);
    }
    if (parts.size !== current.chunks) return undefined;
    const bytes = Buffer.concat(keys.map((k) => parts.get(k.batchId)!));
    return KeyFilter.fromBytes(new Uint8Array(bytes), current.count);
  }

  async save(market: Market, filter: KeyFilter): Promise<void> {
    const version = `v${Date.now().toString(36)}`;
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < filter.bits.length; i += CHUNK_BYTES) chunks.push(filter.bits.subarray(i, i + CHUNK_BYTES));
    await batchWriteAll(
      this.doc,
      this.table,
      chunks.map((bytes, i) => ({ PutRequest: { Item: { scope: this.scope(market), batchId: `${version}#${String(i).padStart(5, '0')}`, bytes } } })),
    );
    const before = await this.doc.send(new QueryCommand({ TableName: this.table, KeyConditionExpression: '#s = :s', ExpressionAttributeNames: { '#s': 'scope' }, ExpressionAttributeValues: { ':s': this.scope(market) }, ProjectionExpression: 'batchId' }));
    await this.doc.send(new PutCommand({ TableName: this.table, Item: { scope: this.scope(market), batchId: 'current', version, count: filter.count, chunks: chunks.length } }));
    // Older versions go once nothing points at them.
    const stale = (before.Items ?? []).map((i) => String(i.batchId)).filter((id) => id !== 'current' && !id.startsWith(`${version}#`));
    await batchWriteAll(this.doc, this.table, stale.map((batchId) => ({ DeleteRequest: { Key: { scope: this.scope(market), batchId } } })));
  }
}
