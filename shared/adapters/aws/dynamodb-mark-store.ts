/**
 * Marks on DynamoDB, in two tables:
 *  - `marks`: the canonical record of each mark (`<market>#<serial>`), with a hash of its content and its keys;
 *  - `mark-keys`: one item per lookup key (`<market>#e:nike`) holding a summary of every mark filed under it, so
 *    that screening resolves up to 100 candidate keys in one BatchGetItem.
 * Writes read the affected key items, change them in memory and put them back. That is safe because ingest holds
 * the market's lock (one writer per market: see DataBatchStore.acquireLock), and it is ordered so that an
 * interrupted chunk is repaired by running the batch again: key items first, mark records last.
 *
 * Both kinds of item keep their payload in one string attribute (JSON) rather than as nested DynamoDB maps and
 * lists: DynamoDB's cost of reading and writing an item grows with the number of attributes in it, and a key item
 * shared by a thousand marks held as a map of maps cost about twenty times more to write than the same text as one
 * string (BENCHMARKS.md, Ingest). Items written in the earlier nested form are still read.
 */
import { createHash } from 'node:crypto';
import { GetCommand, ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { lookupKeysOfMark } from '../../marks/lookup-keys';
import type { DrawingKind, Market, MarkRecord, StatusCategory } from '../../marks/mark-record';
import type { MarkStore, MarkSummary, MarkWriteResult } from '../../ports';
import { batchGetAll, batchWriteAll } from './dynamodb-batch';

/** A key item is kept under DynamoDB's 400 KB item limit with room to spare. */
export const KEY_ITEM_BUDGET_BYTES = 350_000;
/** Ingest writes are independent items (the lock keeps other writers out), so many calls can be in flight. */
const WRITE_CALLS_IN_FLIGHT = 8;
const READ_CALLS_IN_FLIGHT = 8;
/** Key items read, changed and written back together (4 BatchGetItem calls, 16 BatchWriteItem calls). */
const KEY_ITEMS_PER_SLICE = 400;

/** What ingest needs to know of a stored mark to decide what a new record changes. */
interface StoredMarkState {
  markId: string;
  batchDate: string;
  contentHash: string;
  lookupKeys: string[];
}

/** A mark item: its state at the top (read alone by ingest), the whole record as JSON in `record`. */
interface StoredMark extends StoredMarkState {
  record: string;
}

/** One mark inside a key item: [mark text, Nice classes, status category, drawing kind]. */
type PackedSummary = [string, string[], StatusCategory, DrawingKind];

/** A key item; `marks` is the earlier nested form ({serial: {m, n, s, d}}), read but no longer written. */
interface KeyItem {
  lookupKey: string;
  summaries?: string;
  marks?: Record<string, { m: string; n: string[]; s: StatusCategory; d: DrawingKind }>;
}

const MARK_STATE_ATTRIBUTES = ['markId', 'batchDate', 'contentHash', 'lookupKeys'] as const;

export function contentHashOf(record: MarkRecord): string {
  const { batchDate: _batchDate, source: _source, ...content } = record;
  return createHash('sha256').update(JSON.stringify(content, Object.keys(content).sort())).digest('base64url').slice(0, 22);
}

function pack(record: MarkRecord): PackedSummary {
  return [record.markText, record.niceClasses, record.statusCategory, record.drawingKind];
}

/** The marks of a key item by serial, whichever form it was written in. */
function summariesOf(item: KeyItem): Map<string, PackedSummary> {
  if (item.summaries !== undefined) return new Map(Object.entries(JSON.parse(item.summaries) as Record<string, PackedSummary>));
  return new Map(Object.entries(item.marks ?? {}).map(([serial, p]) => [serial, [p.m, p.n, p.s, p.d]]));
}

function unpack(serial: string, [markText, niceClasses, statusCategory, drawingKind]: PackedSummary): MarkSummary {
  return { serial, markText, niceClasses, isLive: statusCategory === 'registered', statusCategory, drawingKind };
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
      found.set(key, [...summariesOf(item)].map(([serial, packed]) => unpack(serial, packed)));
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
    const { markId: _markId, contentHash: _hash, record, lookupKeys, ...legacy } = out.Item as StoredMark;
    return { ...(record === undefined ? (legacy as unknown as MarkRecord) : (JSON.parse(record) as MarkRecord)), lookupKeys };
  }

  async upsertMarks(records: readonly MarkRecord[]): Promise<MarkWriteResult> {
    // Within a chunk the last record of a serial wins, as it would if they were written one after another.
    const latest = new Map<string, MarkRecord>();
    for (const record of records) latest.set(`${record.market}#${record.serial}`, record);

    // Only the state of what is stored is read: a new mark costs a key lookup, not a whole record.
    const existing = new Map<string, StoredMarkState>();
    const stored = (await batchGetAll(this.doc, this.tables.marks, [...latest.keys()].map((markId) => ({ markId })), {
      consistent: true,
      attributes: MARK_STATE_ATTRIBUTES,
      inFlight: READ_CALLS_IN_FLIGHT,
    })) as unknown as StoredMarkState[];
    for (const item of stored) existing.set(item.markId, item);

    const result: MarkWriteResult = { written: 0, unchanged: 0, stale: 0, keys: [] };
    const changed: { record: MarkRecord; state: StoredMarkState }[] = [];
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
      changed.push({ record, state: { markId, batchDate: record.batchDate, contentHash, lookupKeys: lookupKeysOfMark(record.markText, record.transliteration) } });
    }
    if (changed.length === 0) return result;

    // Every key item a changed mark leaves or joins. They are changed a slice at a time, so that memory holds a few hundred of them whatever their size;
    // every slice is written before any mark record, which keeps an interrupted chunk repairable.
    const leaving = new Map<string, string[]>();
    const joining = new Map<string, MarkRecord[]>();
    for (const { record, state } of changed) {
      for (const key of existing.get(state.markId)?.lookupKeys ?? []) pushTo(leaving, `${record.market}#${key}`, record.serial);
      for (const key of state.lookupKeys) pushTo(joining, `${record.market}#${key}`, record);
    }
    const touched = [...new Set([...leaving.keys(), ...joining.keys()])];
    for (let i = 0; i < touched.length; i += KEY_ITEMS_PER_SLICE) {
      const slice = touched.slice(i, i + KEY_ITEMS_PER_SLICE);
      const currentItems = (await batchGetAll(this.doc, this.tables.markKeys, slice.map((lookupKey) => ({ lookupKey })), {
        consistent: true,
        inFlight: READ_CALLS_IN_FLIGHT,
      })) as unknown as KeyItem[];
      const current = new Map(currentItems.map((item) => [item.lookupKey, item]));
      const keyWrites = slice.map((lookupKey) => {
        const item = current.get(lookupKey);
        const summaries = item ? summariesOf(item) : new Map<string, PackedSummary>();
        for (const serial of leaving.get(lookupKey) ?? []) summaries.delete(serial);
        for (const record of joining.get(lookupKey) ?? []) summaries.set(record.serial, pack(record));
        if (summaries.size === 0) return { DeleteRequest: { Key: { lookupKey } } };
        return { PutRequest: { Item: { lookupKey, summaries: packedWithinBudget(summaries) } } };
      });
      await batchWriteAll(this.doc, this.tables.markKeys, keyWrites, { inFlight: WRITE_CALLS_IN_FLIGHT });
    }
    await batchWriteAll(
      this.doc,
      this.tables.marks,
      changed.map(({ record, state }) => ({ PutRequest: { Item: { ...state, record: JSON.stringify(record) } satisfies StoredMark } })),
      { inFlight: WRITE_CALLS_IN_FLIGHT },
    );
    result.written = changed.length;
    result.keys = [...new Set(changed.flatMap(({ state }) => state.lookupKeys))];
    return result;
  }
}

function pushTo<T>(map: Map<string, T[]>, key: string, value: T): void {
  const values = map.get(key);
  if (values) values.push(value);
  else map.set(key, [value]);
}

/**
 * A key shared by very many marks (a phonetic skeleton of a common word) could outgrow an item. Dead marks are
 * dropped from such an item first, then pending ones: a live registration is never dropped.
 */
export function packedWithinBudget(summaries: Map<string, PackedSummary>, budgetBytes = KEY_ITEM_BUDGET_BYTES): string {
  let packed = JSON.stringify(Object.fromEntries(summaries));
  if (Buffer.byteLength(packed) <= budgetBytes) return packed;
  for (const drop of ['dead', 'unknown', 'pending'] as const) {
    for (const [serial, summary] of summaries) if (summary[2] === drop) summaries.delete(serial);
    packed = JSON.stringify(Object.fromEntries(summaries));
    if (Buffer.byteLength(packed) <= budgetBytes) break;
  }
  return packed;
}
