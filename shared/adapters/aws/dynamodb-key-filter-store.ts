/**
 * A market's filters on DynamoDB, in the data-batches table beside the batches they describe: `scope` =
 * `<market>#key-filter` (lookup keys) or `<market>#serial-filter`, a `current` item naming the version (and whether
 * it is sealed), and the version's bytes in chunks that fit items. A new version is written whole before `current`
 * points at it, so a reader never sees half a filter.
 */
import {
  BatchGetCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { KeyFilter } from '../../marks/key-filter';
import type { Market } from '../../marks/mark-record';
import type { FilterName, KeyFilterStore } from '../../ports';
import { batchWriteAll } from './dynamodb-batch';

const CHUNK_BYTES = 300_000;

interface Current {
  version: string;
  count: number;
  chunks: number;
  /** Saved by an ingest that completed, nothing written since (absent on filters saved before this was kept). */
  sealed?: boolean;
}

const SCOPE_SUFFIX: Record<FilterName, string> = { keys: 'key-filter', serials: 'serial-filter' };

export class DynamoDbKeyFilterStore implements KeyFilterStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  private scope(market: Market, name: FilterName): string {
    return `${market}#${SCOPE_SUFFIX[name]}`;
  }

  async load(market: Market, name: FilterName = 'keys'): Promise<KeyFilter | undefined> {
    return (await this.loadSealed(market, name)).filter;
  }

  async loadSealed(market: Market, name: FilterName): Promise<{ filter: KeyFilter | undefined; sealed: boolean }> {
    const scope = this.scope(market, name);
    const out = await this.doc.send(
      new GetCommand({ TableName: this.table, Key: { scope, batchId: 'current' }, ConsistentRead: true }),
    );
    const current = out.Item as Current | undefined;
    if (!current) return { filter: undefined, sealed: false };
    const keys = Array.from({ length: current.chunks }, (_, i) => ({
      scope,
      batchId: `${current.version}#${String(i).padStart(5, '0')}`,
    }));
    const parts = new Map<string, Uint8Array>();
    for (let i = 0; i < keys.length; i += 100) {
      const page = await this.doc.send(
        new BatchGetCommand({ RequestItems: { [this.table]: { Keys: keys.slice(i, i + 100), ConsistentRead: true } } }),
      );
      for (const item of page.Responses?.[this.table] ?? []) parts.set(String(item.batchId), item.bytes as Uint8Array);
    }
    if (parts.size !== current.chunks) return { filter: undefined, sealed: false };
    const bytes = Buffer.concat(keys.map((k) => parts.get(k.batchId)!));
    return { filter: KeyFilter.fromBytes(new Uint8Array(bytes), current.count), sealed: current.sealed === true };
  }

  async setSealed(market: Market, name: FilterName, sealed: boolean): Promise<void> {
    await this.doc
      .send(
        new UpdateCommand({
          TableName: this.table,
          Key: { scope: this.scope(market, name), batchId: 'current' },
          UpdateExpression: 'SET sealed = :sealed',
          ConditionExpression: 'attribute_exists(batchId)',
          ExpressionAttributeValues: { ':sealed': sealed },
        }),
      )
      .catch((error: unknown) => {
        // No filter saved yet: there is nothing to mark.
        if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
      });
  }

  async save(market: Market, filter: KeyFilter, options: { name?: FilterName; sealed?: boolean } = {}): Promise<void> {
    const scope = this.scope(market, options.name ?? 'keys');
    const version = `v${Date.now().toString(36)}`;
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < filter.bits.length; i += CHUNK_BYTES) chunks.push(filter.bits.subarray(i, i + CHUNK_BYTES));
    await batchWriteAll(
      this.doc,
      this.table,
      chunks.map((bytes, i) => ({
        PutRequest: { Item: { scope, batchId: `${version}#${String(i).padStart(5, '0')}`, bytes } },
      })),
    );
    const before = await this.doc.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: '#s = :s',
        ExpressionAttributeNames: { '#s': 'scope' },
        ExpressionAttributeValues: { ':s': scope },
        ProjectionExpression: 'batchId',
      }),
    );
    await this.doc.send(
      new PutCommand({
        TableName: this.table,
        Item: {
          scope,
          batchId: 'current',
          version,
          count: filter.count,
          chunks: chunks.length,
          sealed: options.sealed === true,
        },
      }),
    );
    // Older versions go once nothing points at them.
    const stale = (before.Items ?? [])
      .map((i) => String(i.batchId))
      .filter((id) => id !== 'current' && !id.startsWith(`${version}#`));
    await batchWriteAll(
      this.doc,
      this.table,
      stale.map((batchId) => ({ DeleteRequest: { Key: { scope, batchId } } })),
    );
  }
}
