/**
 * Marks on DynamoDB, in two tables:
 *  - `marks`: the canonical record of each mark (`<market>#<serial>`), with a hash of its content, its keys and
 *    the batch that wrote it;
 *  - `mark-keys`: one item per lookup key (`<market>#e:nike`) holding a summary of every mark filed under it, so
 *    that screening resolves up to 100 candidate keys in one BatchGetItem.
 * Writes read the affected key items, change them in memory and put them back. That is safe because ingest holds
 * the market's lock (one writer per market: see DataBatchStore.acquireLock). A batch's writer holds the keys its
 * marks join until the batch ends, so that a mark record can be stored before its keys; an interrupted batch is
 * repaired by filing the marks it stored again (see DynamoDbMarkBatchWriter). What the caller knows to be absent
 * (the market's sealed filters: see shared/ingest/ingest-batch.ts) is written without a read.
 *
 * Both kinds of item keep their payload in one string attribute (JSON) rather than as nested DynamoDB maps and
 * lists: DynamoDB's cost of reading and writing an item grows with the number of attributes in it, and a key item
 * shared by a thousand marks held as a map of maps cost about twenty times more to write than the same text as one
 * string (BENCHMARKS.md, Ingest). Items written in the earlier nested form are still read.
 *
 * How a key's marks are laid out over one or more key items (sharding, copy-on-write generations) is in
 * mark-key-items.ts; the batch writer that decides what a batch changes is in dynamodb-mark-batch-writer.ts.
 */
import { GetCommand, paginateScan, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchIdOf, type Market, type MarkRecord } from '../../marks/mark-record';
import type { KnownAbsent, MarkBatchWriter, MarkStore, MarkSummary, MarkWriteResult } from '../../ports';
import { batchGetAll, batchWriteAll } from './dynamodb-batch';
import { DynamoDbMarkBatchWriter } from './dynamodb-mark-batch-writer';
import {
  addKeyWrites,
  isSharded,
  KEY_ITEM_BUDGET_BYTES,
  MAX_KEY_ITEM_PARTS,
  overflowKey,
  overflowKeysOf,
  packedParts,
  pushTo,
  summariesOfKey,
  unpack,
  type KeyChange,
  type KeyItem,
  type KeyItemLimits,
  type KeyPlan,
  type KeyWritePhases,
} from './mark-key-items';

/** Ingest writes are independent items (the lock keeps other writers out), so many calls can be in flight. */
const WRITE_CALLS_IN_FLIGHT = 8;
const READ_CALLS_IN_FLIGHT = 8;
/** Key items read, changed and written back together (4 BatchGetItem calls, 16 BatchWriteItem calls). */
const KEY_ITEMS_PER_SLICE = 400;
/** Reads of a sharded key that a concurrent rewrite may send back to its base item before the lookup gives up. */
const SHARDED_READ_ATTEMPTS = 3;

export interface MarkStoreOptions {
  /** Bytes of summaries one key item holds (default KEY_ITEM_BUDGET_BYTES). */
  keyItemBudgetBytes?: number;
  /** Items one key may spread over, its base included (default MAX_KEY_ITEM_PARTS). */
  maxKeyItemParts?: number;
}

/** What ingest needs to know of a stored mark to decide what a new record changes. */
export interface StoredMarkState {
  markId: string;
  batchDate: string;
  contentHash: string;
  lookupKeys: string[];
}

/**
 * A mark item: its state at the top (read alone by ingest), the id of the batch that wrote it (to find the marks of
 * an unfinished batch), the whole record as JSON in `record`. Items written before batch ids were kept have none.
 */
interface StoredMark extends StoredMarkState {
  batchId?: string;
  record: string;
}

/** A mark item of the earlier form: the record's fields at the top level beside its state. */
type LegacyStoredMark = StoredMarkState & MarkRecord;

const MARK_STATE_ATTRIBUTES = ['markId', 'batchDate', 'contentHash', 'lookupKeys'] as const;

export class DynamoDbMarkStore implements MarkStore {
  private readonly limits: KeyItemLimits;

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tables: { marks: string; markKeys: string },
    options: MarkStoreOptions = {},
  ) {
    this.limits = {
      budgetBytes: options.keyItemBudgetBytes ?? KEY_ITEM_BUDGET_BYTES,
      maxParts: options.maxKeyItemParts ?? MAX_KEY_ITEM_PARTS,
    };
    if (!(this.limits.budgetBytes > 0) || !Number.isInteger(this.limits.maxParts) || this.limits.maxParts < 1) {
      throw new Error(
        `key item limits must be a positive budget and at least one part: ${JSON.stringify(this.limits)}`,
      );
    }
  }

  async lookup(market: Market, keys: readonly string[]): Promise<Map<string, MarkSummary[]>> {
    const unique = [...new Set(keys)];
    const items = await this.keyItemsOf(
      unique.map((k) => `${market}#${k}`),
      { consistent: false },
    );
    const found = new Map<string, MarkSummary[]>();
    for (const [lookupKey, keyItems] of items) {
      const summaries = summariesOfKey(keyItems);
      if (summaries.size > 0)
        found.set(
          lookupKey.slice(market.length + 1),
          [...summaries].map(([serial, packed]) => unpack(serial, packed)),
        );
    }
    return found;
  }

  async *allKeys(market: Market): AsyncIterable<string> {
    // Overflow items belong to the key of their base item, which is yielded on its own.
    for await (const key of this.idsOf(this.tables.markKeys, 'lookupKey', market)) if (!key.includes('#')) yield key;
  }

  allSerials(market: Market): AsyncIterable<string> {
    return this.idsOf(this.tables.marks, 'markId', market);
  }

  /** Every item id of a market in a table, without the market (a scan that reads only the id). */
  private async *idsOf(table: string, attribute: 'lookupKey' | 'markId', market: Market): AsyncIterable<string> {
    const pages = paginateScan(
      { client: this.doc },
      {
        TableName: table,
        ProjectionExpression: attribute,
        FilterExpression: `begins_with(${attribute}, :market)`,
        ExpressionAttributeValues: { ':market': `${market}#` },
      },
    );
    for await (const page of pages)
      for (const item of page.Items ?? []) yield String(item[attribute]).slice(market.length + 1);
  }

  async getMark(market: Market, serial: string): Promise<(MarkRecord & { lookupKeys: string[] }) | undefined> {
    const out = await this.doc.send(
      new GetCommand({ TableName: this.tables.marks, Key: { markId: `${market}#${serial}` }, ConsistentRead: true }),
    );
    if (!out.Item) return undefined;
    const item = out.Item as StoredMark | LegacyStoredMark;
    if ('record' in item && typeof item.record === 'string')
      return { ...(JSON.parse(item.record) as MarkRecord), lookupKeys: item.lookupKeys };
    const { markId: _markId, contentHash: _hash, ...record } = item as LegacyStoredMark;
    return record;
  }

  async upsertMarks(records: readonly MarkRecord[], options: { absent?: KnownAbsent } = {}): Promise<MarkWriteResult> {
    return new DynamoDbMarkBatchWriter(this, { absent: options.absent, holdJoins: false }).write(records);
  }

  /** `maxHeldBytes`: MAX_HELD_JOIN_BYTES unless a test wants a writer that writes its held joins sooner. */
  openBatchWriter(options: { absent?: KnownAbsent; maxHeldBytes?: number } = {}): MarkBatchWriter {
    return new DynamoDbMarkBatchWriter(this, {
      absent: options.absent,
      holdJoins: true,
      maxHeldBytes: options.maxHeldBytes,
    });
  }

  /** What ingest needs of each stored mark of `markIds` (those stored), consistently. */
  async storedStates(markIds: readonly string[]): Promise<StoredMarkState[]> {
    const items = await batchGetAll<StoredMarkState>(
      this.doc,
      this.tables.marks,
      markIds.map((markId) => ({ markId })),
      {
        consistent: true,
        attributes: MARK_STATE_ATTRIBUTES,
        inFlight: READ_CALLS_IN_FLIGHT,
      },
    );
    return items;
  }

  async putMarks(marks: readonly { record: MarkRecord; state: StoredMarkState }[]): Promise<void> {
    await batchWriteAll(
      this.doc,
      this.tables.marks,
      marks.map(({ record, state }) => ({
        PutRequest: {
          Item: {
            ...state,
            batchId: batchIdOf(record.batchDate, record.source),
            record: JSON.stringify(record),
          } satisfies StoredMark,
        },
      })),
      { inFlight: WRITE_CALLS_IN_FLIGHT },
    );
  }

  /** Every stored mark of a market with the keys it is filed under, a page at a time (a scan of the marks table). */
  async *storedMarks(market: Market): AsyncIterable<{ record: MarkRecord; lookupKeys: string[] }> {
    const pages = paginateScan(
      { client: this.doc },
      {
        TableName: this.tables.marks,
        ProjectionExpression: '#record, lookupKeys',
        FilterExpression: 'begins_with(markId, :market)',
        ExpressionAttributeNames: { '#record': 'record' },
        ExpressionAttributeValues: { ':market': `${market}#` },
        ConsistentRead: true,
      },
    );
    for await (const page of pages) {
      for (const item of (page.Items ?? []) as Pick<StoredMark, 'record' | 'lookupKeys'>[]) {
        yield { record: JSON.parse(item.record) as MarkRecord, lookupKeys: item.lookupKeys };
      }
    }
  }

  /** The stored marks of a market written by the given batches, a page at a time. */
  async *marksOfBatches(
    market: Market,
    batchIds: readonly string[],
  ): AsyncIterable<{ record: MarkRecord; lookupKeys: string[] }> {
    // DynamoDB takes at most 100 values in an IN list.
    for (let i = 0; i < batchIds.length; i += 99) {
      const ids = batchIds.slice(i, i + 99);
      const pages = paginateScan(
        { client: this.doc },
        {
          TableName: this.tables.marks,
          ProjectionExpression: '#record, lookupKeys',
          FilterExpression: `begins_with(markId, :market) AND batchId IN (${ids.map((_, j) => `:b${j}`).join(', ')})`,
          ExpressionAttributeNames: { '#record': 'record' },
          ExpressionAttributeValues: {
            ':market': `${market}#`,
            ...Object.fromEntries(ids.map((id, j) => [`:b${j}`, id])),
          },
          ConsistentRead: true,
        },
      );
      for await (const page of pages) {
        for (const item of (page.Items ?? []) as Pick<StoredMark, 'record' | 'lookupKeys'>[]) {
          yield { record: JSON.parse(item.record) as MarkRecord, lookupKeys: item.lookupKeys };
        }
      }
    }
  }

  /**
   * Writes what the given keys gain and lose (`changeOf`, asked a slice at a time): each key's items are read
   * (unless known absent), changed and put back, so that memory holds a few hundred of them whatever their size. Within a slice, items
   * no base refers to go first, then the bases, then what the bases stopped referring to (see Sharded keys).
   */
  async writeKeyChanges(lookupKeys: readonly string[], changeOf: (lookupKey: string) => KeyChange): Promise<void> {
    for (let i = 0; i < lookupKeys.length; i += KEY_ITEMS_PER_SLICE) {
      const slice = lookupKeys.slice(i, i + KEY_ITEMS_PER_SLICE);
      const changes = new Map(slice.map((lookupKey) => [lookupKey, changeOf(lookupKey)]));
      const current = await this.keyItemsOf(
        slice.filter((lookupKey) => !changes.get(lookupKey)!.absent),
        { consistent: true, inFlight: READ_CALLS_IN_FLIGHT },
      );
      const plans = slice.map((lookupKey) => {
        const change = changes.get(lookupKey)!;
        const items = current.get(lookupKey) ?? [];
        const summaries = summariesOfKey(items);
        for (const serial of change.leaving) summaries.delete(serial);
        for (const [serial, summary] of change.joining) summaries.set(serial, summary);
        return { lookupKey, items, layout: packedParts(lookupKey, summaries, this.limits) };
      });
      const leftovers = await this.leftoverParts(plans);
      const phases: KeyWritePhases = { unreferenced: [], bases: [], retired: [], emptied: [] };
      for (const plan of plans) addKeyWrites(phases, plan, leftovers.get(plan.lookupKey) ?? []);
      for (const writes of [phases.unreferenced, phases.bases, phases.retired, phases.emptied]) {
        await batchWriteAll(this.doc, this.tables.markKeys, writes, { inFlight: WRITE_CALLS_IN_FLIGHT });
      }
    }
  }

  /**
   * The items of each key that exists, by base key: its base item, then its overflow items in order. Sharded keys
   * cost one more round. A part missing from that round means the key was rewritten between the two rounds (the
   * writer deletes a generation's parts right after switching the base away from them), so the key is read again,
   * consistently, from its base.
   */
  private async keyItemsOf(
    baseKeys: readonly string[],
    options: { consistent: boolean; inFlight?: number },
  ): Promise<Map<string, KeyItem[]>> {
    const found = new Map<string, KeyItem[]>();
    let sharded: KeyItem[] = [];
    const take = (bases: readonly KeyItem[]) => {
      for (const base of bases) {
        if (isSharded(base)) sharded.push(base);
        else found.set(base.lookupKey, [base]);
      }
    };
    let consistent = options.consistent;
    take(await this.readKeyItems(baseKeys, consistent, options.inFlight));
    for (let attempt = 1; sharded.length > 0; attempt++) {
      const parts = await this.readKeyItems(sharded.flatMap(overflowKeysOf), consistent, options.inFlight);
      const partsByKey = new Map(parts.map((item) => [item.lookupKey, item]));
      const moved: string[] = [];
      for (const base of sharded) {
        const keyParts = overflowKeysOf(base).map((key) => partsByKey.get(key));
        if (keyParts.every((part) => part !== undefined)) found.set(base.lookupKey, [base, ...(keyParts as KeyItem[])]);
        else moved.push(base.lookupKey);
      }
      if (moved.length === 0) break;
      if (attempt >= SHARDED_READ_ATTEMPTS)
        throw new Error(`key items ${moved.join(', ')}: overflow items missing after ${attempt} reads`);
      consistent = true;
      sharded = [];
      take(await this.readKeyItems(moved, consistent, options.inFlight));
    }
    return found;
  }

  private async readKeyItems(
    lookupKeys: readonly string[],
    consistent: boolean,
    inFlight?: number,
  ): Promise<KeyItem[]> {
    return batchGetAll<KeyItem>(
      this.doc,
      this.tables.markKeys,
      lookupKeys.map((lookupKey) => ({ lookupKey })),
      { consistent, inFlight },
    );
  }

  /**
   * Overflow items an interrupted write may have left with no base referring to them: those of the generation
   * before the base's (replaced, not yet deleted) and after it (written, the base not yet switched). Only keys
   * that are or become sharded, or recently were (their base still has `gen`), can have any.
   */
  private async leftoverParts(plans: readonly KeyPlan[]): Promise<Map<string, string[]>> {
    const candidates: string[] = [];
    for (const { lookupKey, items, layout } of plans) {
      const gen = items[0]?.gen;
      if (gen === undefined && layout.length <= 1) continue;
      for (const g of [(gen ?? 0) - 1, (gen ?? 0) + 1]) {
        if (g < 1) continue;
        for (let part = 1; part < this.limits.maxParts; part++) candidates.push(overflowKey(lookupKey, g, part));
      }
    }
    const leftovers = new Map<string, string[]>();
    if (candidates.length === 0) return leftovers;
    const found = await batchGetAll<Pick<KeyItem, 'lookupKey'>>(
      this.doc,
      this.tables.markKeys,
      candidates.map((lookupKey) => ({ lookupKey })),
      {
        consistent: true,
        attributes: ['lookupKey'],
        inFlight: READ_CALLS_IN_FLIGHT,
      },
    );
    for (const { lookupKey } of found) pushTo(leftovers, lookupKey.slice(0, lookupKey.lastIndexOf('#')), lookupKey);
    return leftovers;
  }
}
