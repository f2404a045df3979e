/**
 * A market's filters on DynamoDB, in the data-batches table beside the batches they describe: `scope` =
 * `<market>#key-filter` (lookup keys) or `<market>#serial-filter`, a `current` item naming the version (and whether
 * it is sealed), and the version's bytes in chunks that fit items. A new version is written whole before `current`
 * points at it, so a reader never sees half a filter. A version's bytes never change once written, so a reader that
 * has read a version keeps it and, on the next load, reads only `current` (one small item) unless it names another
 * version: a warm screening instance reloads its filters every few seconds, and a register's filter is megabytes.
 */
import {
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { KeyFilter } from '../../marks/key-filter';
import type { Market } from '../../marks/mark-record';
import type { FilterName, KeyFilterStore } from '../../ports';
import { batchGetAll, batchWriteAll } from './dynamodb-batch';

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
  /** The last version read of each scope, with its filter. */
  private readonly read = new Map<string, { version: string; filter: KeyFilter }>();

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  private scope(market: Market, name: FilterName): string {
    return `${market}#${SCOPE_SUFFIX[name]}`;
  }

  /** The current filter, to read only: the same object as long as the version stays (see the file's comment). */
  async load(market: Market, name: FilterName = 'keys'): Promise<KeyFilter | undefined> {
    return (await this.loadCurrent(market, name)).filter;
  }

  /** The current filter as a copy of its own, which an ingest adds to. */
  async loadSealed(market: Market, name: FilterName): Promise<{ filter: KeyFilter | undefined; sealed: boolean }> {
    const { filter, sealed } = await this.loadCurrent(market, name);
    return { filter: filter && KeyFilter.fromBytes(filter.bits.slice(), filter.count), sealed };
  }

  private async loadCurrent(
    market: Market,
    name: FilterName,
  ): Promise<{ filter: KeyFilter | undefined; sealed: boolean }> {
    const scope = this.scope(market, name);
    const out = await this.doc.send(
      new GetCommand({ TableName: this.table, Key: { scope, batchId: 'current' }, ConsistentRead: true }),
    );
    const current = out.Item as Current | undefined;
    if (!current) return { filter: undefined, sealed: false };
    const known = this.read.get(scope);
    if (known?.version === current.version) return { filter: known.filter, sealed: current.sealed === true };
    const keys = Array.from({ length: current.chunks }, (_, i) => ({
      scope,
      batchId: `${current.version}#${String(i).padStart(5, '0')}`,
    }));
    // A call answers at most 16 MB, about 53 chunks: what DynamoDB leaves unprocessed is read again (batchGetAll).
    const items = await batchGetAll<{ batchId: string; bytes: Uint8Array }>(this.doc, this.table, keys, {
      consistent: true,
    });
    const parts = new Map(items.map((item) => [String(item.batchId), item.bytes]));
    // A version removed while it was read (a newer one was saved meanwhile): none this time, the next load reads anew.
    if (parts.size !== current.chunks) return { filter: undefined, sealed: false };
    const bytes = Buffer.concat(keys.map((k) => parts.get(k.batchId)!));
    const filter = KeyFilter.fromBytes(new Uint8Array(bytes), current.count);
    this.read.set(scope, { version: current.version, filter });
    return { filter, sealed: current.sealed === true };
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
