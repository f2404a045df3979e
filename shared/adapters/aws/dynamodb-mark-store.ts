/**
 * Marks on DynamoDB, in two tables:
 *  - `marks`: the canonical record of each mark (`<market>#<serial>`), with a hash of its content and its keys;
 *  - `mark-keys`: one item per lookup key (`<market>#e:nike`) holding a summary of every mark filed under it, so
 *    that screening resolves up to 100 candidate keys in one BatchGetItem.
 * Writes read the affected key items, change them in memory and put them back. That is safe because ingest holds
 * the market's lock (one writer per market: see DataBatchStore.acquireLock), and it is ordered so that an
 * interrupted chunk is repaired by running the batch again: key items first, mark records last.
 */
import { createHash } from 'node:crypto';
import { GetCommand, ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { lookupKeysOfMark } from '../../marks/lookup-keys';
import type { Market, MarkRecord } from '../../marks/mark-record';
import type { MarkStore, MarkSummary, MarkWriteResult } from '../../ports';
import { batchGetAll, batchWriteAll } from './dynamodb-batch';

/** A key item is kept under DynamoDB's 400 KB item limit with room to spare. */
const KEY_ITEM_BUDGET_BYTES = 350_000;

interface StoredMark extends MarkRecord {
  markId: string;
  lookupKeys: string[];
  contentHash: string;
}

/** Compact form of a summary inside a key item: these items are read on every screening request. */
interface PackedSummary {
  m: string;
  n: string[];
  s: MarkSummary['statusCategory'];
  d: MarkSummary['drawingKind'];
}

interface KeyItem {
  lookupKey: string;
  marks: Record<string, PackedSummary>;
}

export function contentHashOf(record: MarkRecord): string {
  const { batchDate: _batchDate, source: _source, ...content } = record;
  return createHash('sha256').update(JSON.stringify(content, Object.keys(content).sort())).digest('base64url').slice(0, 22);
}

function pack(record: MarkRecord): PackedSummary {
  return { m: record.markText, n: record.niceClasses, s: record.statusCategory, d: record.drawingKind };
}

function unpack(serial: string, packed: PackedSummary): MarkSummary {
  return { serial, markText: packed.m, niceClasses: packed.n, isLive: packed.s === 'registered', statusCategory: packed.s, drawingKind: packed.d };
}

export class DynamoDbMarkStore implements MarkStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tables: { marks: string; markKeys: string },
  ) {}

  async lookup(market: Market, keys: readonly string[]): Promise<Map<string, MarkSummary[]>> {
    const unique = [...new Set(keys)];
    const items = (await batchGetAll(
      this.doc,
      this.tables.markKeys,
      unique.map((k) => ({ lookupKey: `${market}#${k}` })),
    )) as unknown as KeyItem[];
    const found = new Map<string, MarkSummary[]>();
    for (const item of items) {
      const key = item.lookupKey.slice(market.length + 1);
      found.set(key, Object.entries(item.marks ?? {}).map(([serial, packed]) => unpack(serial, packed)));
    }
    return found;
  }

  async *allKeys(market: Market): AsyncIterable<string> {
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.doc.send(
        new ScanCommand({
          TableName: this.tables.markKeys,
          ProjectionExpression: 'lookupKey',
          FilterExpression: 'begins_with(lookupKey, :market)',
          ExpressionAttributeValues: { ':market': `${market}#` },
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) yield String(item.lookupKey).slice(market.length + 1);
      startKey = page.LastEvaluatedKey;
    } while (startKey);
  }

  async getMark(market: Market, serial: string): Promise<(MarkRecord & { lookupKeys: string[] }) | undefined> {
    const out = await this.doc.send(new GetCommand({ TableName: this.tables.marks, Key: { markId: `${market}#${serial}` }, ConsistentRead: true }));
    if (!out.Item) return undefined;
    const { markId: _markId, contentHash: _hash, ...record } = out.Item as StoredMark;
    return record;
  }

  async upsertMarks(records: readonly MarkRecord[]): Promise<MarkWriteResult> {
    // Within a chunk the last record of a serial wins, as it would if they were written one after another.
    const latest = new Map<string, MarkRecord>();
    for (const record of records) latest.set(`${record.market}#${record.serial}`, record);

    const existing = new Map<string, StoredMark>();
    const stored = (await batchGetAll(this.doc, this.tables.marks, [...latest.keys()].map((markId) => ({ markId })), { consistent: true })) as unknown as StoredMark[];
    for (const item of stored) existing.set(item.markId, item);

    const result: MarkWriteResult = { written: 0, unchanged: 0, stale: 0, keys: [] };
    const changed: StoredMark[] = [];
    for (const [markId, record] of latest) {
      const before = existing.get(markId);
      const contentHash = contentHashOf(record);
      if (before && before.batchDate > record.batchDate) {
        result.stale++;
        continue;
      }
      if (before && before.contentHash === contentHash) {
        result.unchanged++;
        continue;
      }
      changed.push({ ...record, markId, contentHash, lookupKeys: lookupKeysOfMark(record.markText, record.transliteration) });
    }
    if (changed.length === 0) return result;

    // Every key item a changed mark leaves or joins.
    const touched = new Set<string>();
    for (const mark of changed) {
      for (const key of existing.get(mark.markId)?.lookupKeys ?? []) touched.add(`${mark.market}#${key}`);
      for (const key of mark.lookupKeys) touched.add(`${mark.market}#${key}`);
    }
    const keyItems = new Map<string, KeyItem>();
    const currentItems = (await batchGetAll(this.doc, this.tables.markKeys, [...touched].map((lookupKey) => ({ lookupKey })), { consistent: true })) as unknown as KeyItem[];
    for (const item of currentItems) keyItems.set(item.lookupKey, item);

    for (const mark of changed) {
      for (const key of existing.get(mark.markId)?.lookupKeys ?? []) delete keyItems.get(`${mark.market}#${key}`)?.marks[mark.serial];
      for (const key of mark.lookupKeys) {
        const lookupKey = `${mark.market}#${key}`;
        const item = keyItems.get(lookupKey) ?? { lookupKey, marks: {} };
        item.marks[mark.serial] = pack(mark);
        keyItems.set(lookupKey, item);
      }
    }

    const keyWrites = [...touched].map((lookupKey) => {
      const item = keyItems.get(lookupKey);
      if (!item || Object.keys(item.marks).length === 0) return { DeleteRequest: { Key: { lookupKey } } };
      return { PutRequest: { Item: fitToBudget(item) as unknown as Record<string, unknown> } };
    });
    await batchWriteAll(this.doc, this.tables.markKeys, keyWrites);
    await batchWriteAll(
      this.doc,
      this.tables.marks,
      changed.map((mark) => ({ PutRequest: { Item: mark as unknown as Record<string, unknown> } })),
    );
    result.written = changed.length;
    result.keys = [...new Set(changed.flatMap((mark) => mark.lookupKeys))];
    return result;
  }
}

/**
 * A key shared by very many marks (a phonetic skeleton of a common word) could outgrow an item. Dead marks are
 * dropped from such an item first, then pending ones: a live registration is never dropped.
 */
function fitToBudget(item: KeyItem): KeyItem {
  const size = () => Buffer.byteLength(JSON.stringify(item.marks));
  if (size() <= KEY_ITEM_BUDGET_BYTES) return item;
  for (const drop of ['dead', 'unknown', 'pending'] as const) {
    for (const [serial, packed] of Object.entries(item.marks)) if (packed.s === drop) delete item.marks[serial];
    if (size() <= KEY_ITEM_BUDGET_BYTES) break;
  }
  return item;
}
