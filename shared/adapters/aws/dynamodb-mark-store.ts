/**
 * Marks on DynamoDB, in two tables:
 *  - `marks`: the canonical record of each mark (`<market>#<serial>`), with a hash of its content and its keys;
 *  - `mark-keys`: one item per lookup key (`<market>#e:nike`) holding a summary of every mark filed under it, so
 *    that screening resolves up to 100 candidate keys in one BatchGetItem.
 * Writes read the affected key items, change them in memory and put them back. That is safe because ingest holds
 * the market's lock (one writer per market: see DataBatchStore.acquireLock), and it is ordered so that an
 * interrupted chunk is repaired by running the batch again: key items first, mark records last. What the caller
 * knows to be absent (the market's sealed filters: see shared/ingest/ingest-batch.ts) is written without a read.
 *
 * Both kinds of item keep their payload in one string attribute (JSON) rather than as nested DynamoDB maps and
 * lists: DynamoDB's cost of reading and writing an item grows with the number of attributes in it, and a key item
 * shared by a thousand marks held as a map of maps cost about twenty times more to write than the same text as one
 * string (BENCHMARKS.md, Ingest). Items written in the earlier nested form are still read.
 *
 * Sharded keys. A key shared by more marks than one item holds (a short phonetic skeleton of the full register can
 * gather thousands of live marks; an item is capped at 400 KB) is split over its base item and overflow items:
 *
 *   base      { lookupKey: 'US#p:bt', summaries: '<first part>', parts: 3, gen: 7 }
 *   overflow  { lookupKey: 'US#p:bt#7.1', summaries: '<second part>' }, { lookupKey: 'US#p:bt#7.2', ... }
 *
 * Every other key stays one item of `lookupKey` and `summaries`, so screening's single BatchGetItem round remains
 * the common case; only the sharded keys it finds cost a second round. Lookup keys never contain `#` (they are
 * built from letters and digits), so an overflow key cannot be mistaken for a lookup key.
 *
 * A change to a sharded key is written copy-on-write: the new parts go under the next generation's keys
 * (`#8.1` ...), which nothing reads yet; then the base item is put, which switches readers to them in one atomic
 * write; then the previous generation's parts are deleted. Parts are never overwritten while a base refers to
 * them, so a reader sees the key either wholly before or wholly after the change, and a crash at any point leaves
 * the base referring to a complete set of parts. A reader whose second round misses a part (the writer switched
 * and deleted between its two rounds) reads the key again from its base. What a crash can leave behind is only
 * parts nothing refers to, of the generation before or after the base's; the next write of the key (a re-run of the
 * batch writes it again, since its mark records were not written) looks for those and deletes them. A key that
 * shrinks back to one item keeps `gen` until its next change, and one that empties is first left as an empty base
 * with `gen`, deleted once its parts are. The price of this is paid by sharded keys alone: a change to one rewrites
 * all its items and deletes the previous ones, and each write of one first looks for leftovers.
 */
import { createHash } from 'node:crypto';
import { GetCommand, ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { lookupKeysOfMark } from '../../marks/lookup-keys';
import type { DrawingKind, Market, MarkRecord, StatusCategory } from '../../marks/mark-record';
import type { KnownAbsent, MarkStore, MarkSummary, MarkWriteResult } from '../../ports';
import { batchGetAll, batchWriteAll } from './dynamodb-batch';

/** The summaries of a key item are kept under DynamoDB's 400 KB item limit with room for its other attributes. */
export const KEY_ITEM_BUDGET_BYTES = 350_000;
/**
 * Items one key may spread over, its base included. A summary takes about 55 bytes, so an item holds some 6,000
 * marks and a key up to about 100,000 (and a lookup of it reads up to 16 x 350 KB). Past it, dead marks are left out
 * of the key first, then those of unknown status, then pending ones; live registrations never are: a key whose live
 * marks alone need more items is refused with KeyItemTooLargeError.
 */
export const MAX_KEY_ITEM_PARTS = 16;
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

export interface KeyItemLimits {
  budgetBytes: number;
  maxParts: number;
}

/** Thrown rather than writing a key item DynamoDB would refuse, or leaving out a live mark. */
export class KeyItemTooLargeError extends Error {
  constructor(
    readonly lookupKey: string,
    readonly liveMarks: number,
    limits: KeyItemLimits,
  ) {
    super(`lookup key ${lookupKey} holds ${liveMarks} live marks, more than ${limits.maxParts} key items of ${limits.budgetBytes} bytes can hold`);
    this.name = 'KeyItemTooLargeError';
  }
}

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

/**
 * A key item; `marks` is the earlier nested form ({serial: {m, n, s, d}}), read but no longer written.
 * `parts` (2 or more, on a sharded key's base) counts the items holding the key, the base included; `gen` names
 * the generation of its overflow items.
 */
interface KeyItem {
  lookupKey: string;
  summaries?: string;
  marks?: Record<string, { m: string; n: string[]; s: StatusCategory; d: DrawingKind }>;
  parts?: number;
  gen?: number;
}

type KeyWrite = { PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: { lookupKey: string } } };

/** The writes of a slice of keys, in the order that keeps every base item referring to a complete set of parts. */
interface KeyWritePhases {
  /** Items no base refers to: the next generation's parts, and parts an interrupted write left behind. */
  unreferenced: KeyWrite[];
  bases: KeyWrite[];
  /** Parts of the generation the new bases replaced. */
  retired: KeyWrite[];
  /** Emptied bases of sharded keys, deleted once their parts are gone. */
  emptied: KeyWrite[];
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

/** The marks of a key held by its base item and overflow items. */
function summariesOfKey(items: readonly KeyItem[]): Map<string, PackedSummary> {
  const [base, ...parts] = items;
  const summaries = base ? summariesOf(base) : new Map<string, PackedSummary>();
  for (const part of parts) for (const [serial, summary] of summariesOf(part)) summaries.set(serial, summary);
  return summaries;
}

function unpack(serial: string, [markText, niceClasses, statusCategory, drawingKind]: PackedSummary): MarkSummary {
  return { serial, markText, niceClasses, isLive: statusCategory === 'registered', statusCategory, drawingKind };
}

function overflowKey(lookupKey: string, gen: number, part: number): string {
  return `${lookupKey}#${gen}.${part}`;
}

function isSharded(item: KeyItem): boolean {
  return (item.parts ?? 1) > 1;
}

function overflowKeysOf(base: KeyItem): string[] {
  return Array.from({ length: (base.parts ?? 1) - 1 }, (_, i) => overflowKey(base.lookupKey, base.gen ?? 0, i + 1));
}

export class DynamoDbMarkStore implements MarkStore {
  private readonly limits: KeyItemLimits;

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tables: { marks: string; markKeys: string },
    options: MarkStoreOptions = {},
  ) {
    this.limits = { budgetBytes: options.keyItemBudgetBytes ?? KEY_ITEM_BUDGET_BYTES, maxParts: options.maxKeyItemParts ?? MAX_KEY_ITEM_PARTS };
    if (!(this.limits.budgetBytes > 0) || !Number.isInteger(this.limits.maxParts) || this.limits.maxParts < 1) {
      throw new Error(`key item limits must be a positive budget and at least one part: ${JSON.stringify(this.limits)}`);
    }
  }

  async lookup(market: Market, keys: readonly string[]): Promise<Map<string, MarkSummary[]>> {
    const unique = [...new Set(keys)];
    const items = await this.keyItemsOf(unique.map((k) => `${market}#${k}`), { consistent: false });
    const found = new Map<string, MarkSummary[]>();
    for (const [lookupKey, keyItems] of items) {
      const summaries = summariesOfKey(keyItems);
      if (summaries.size > 0) found.set(lookupKey.slice(market.length + 1), [...summaries].map(([serial, packed]) => unpack(serial, packed)));
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
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.doc.send(
        new ScanCommand({
          TableName: table,
          ProjectionExpression: attribute,
          FilterExpression: `begins_with(${attribute}, :market)`,
          ExpressionAttributeValues: { ':market': `${market}#` },
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) yield String(item[attribute]).slice(market.length + 1);
      startKey = page.LastEvaluatedKey;
    } while (startKey);
  }

  async getMark(market: Market, serial: string): Promise<(MarkRecord & { lookupKeys: string[] }) | undefined> {
    const out = await this.doc.send(new GetCommand({ TableName: this.tables.marks, Key: { markId: `${market}#${serial}` }, ConsistentRead: true }));
    if (!out.Item) return undefined;
    const { markId: _markId, contentHash: _hash, record, lookupKeys, ...legacy } = out.Item as StoredMark;
    return { ...(record === undefined ? (legacy as unknown as MarkRecord) : (JSON.parse(record) as MarkRecord)), lookupKeys };
  }

  async upsertMarks(records: readonly MarkRecord[], options: { absent?: KnownAbsent } = {}): Promise<MarkWriteResult> {
    const { absent } = options;
    // Within a chunk the last record of a serial wins, as it would if they were written one after another.
    const latest = new Map<string, MarkRecord>();
    for (const record of records) latest.set(`${record.market}#${record.serial}`, record);

    // Only the state of what is stored is read: a new mark costs a key lookup, not a whole record.
    const existing = new Map<string, StoredMarkState>();
    // A serial the sealed filter has never seen is new: there is nothing to read.
    const toRead = [...latest].filter(([, record]) => !absent?.serial(record.market, record.serial)).map(([markId]) => markId);
    const stored = (await batchGetAll(this.doc, this.tables.marks, toRead.map((markId) => ({ markId })), {
      consistent: true,
      attributes: MARK_STATE_ATTRIBUTES,
      inFlight: READ_CALLS_IN_FLIGHT,
    })) as unknown as StoredMarkState[];
    for (const item of stored) existing.set(item.markId, item);

    const result: MarkWriteResult = { written: 0, unchanged: 0, stale: 0, keys: [], serials: [] };
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
    // every slice is written before any mark record, which keeps an interrupted chunk repairable. Within a slice,
    // items no base refers to go first, then the bases, then what the bases stopped referring to (see Sharded keys).
    const leaving = new Map<string, string[]>();
    const joining = new Map<string, MarkRecord[]>();
    for (const { record, state } of changed) {
      for (const key of existing.get(state.markId)?.lookupKeys ?? []) pushTo(leaving, `${record.market}#${key}`, record.serial);
      for (const key of state.lookupKeys) pushTo(joining, `${record.market}#${key}`, record);
    }
    const touched = [...new Set([...leaving.keys(), ...joining.keys()])];
    for (let i = 0; i < touched.length; i += KEY_ITEMS_PER_SLICE) {
      const slice = touched.slice(i, i + KEY_ITEMS_PER_SLICE);
      // Likewise a key the sealed filter has never seen has no items yet.
      const current = await this.keyItemsOf(
        absent ? slice.filter((lookupKey) => !isKnownAbsentKey(absent, lookupKey)) : slice,
        { consistent: true, inFlight: READ_CALLS_IN_FLIGHT },
      );
      const plans = slice.map((lookupKey) => {
        const items = current.get(lookupKey) ?? [];
        const summaries = summariesOfKey(items);
        for (const serial of leaving.get(lookupKey) ?? []) summaries.delete(serial);
        for (const record of joining.get(lookupKey) ?? []) summaries.set(record.serial, pack(record));
        return { lookupKey, items, layout: packedParts(lookupKey, summaries, this.limits) };
      });
      const leftovers = await this.leftoverParts(plans);
      const phases: KeyWritePhases = { unreferenced: [], bases: [], retired: [], emptied: [] };
      for (const plan of plans) addKeyWrites(phases, plan, leftovers.get(plan.lookupKey) ?? []);
      for (const writes of [phases.unreferenced, phases.bases, phases.retired, phases.emptied]) {
        await batchWriteAll(this.doc, this.tables.markKeys, writes, { inFlight: WRITE_CALLS_IN_FLIGHT });
      }
    }
    await batchWriteAll(
      this.doc,
      this.tables.marks,
      changed.map(({ record, state }) => ({ PutRequest: { Item: { ...state, record: JSON.stringify(record) } satisfies StoredMark } })),
      { inFlight: WRITE_CALLS_IN_FLIGHT },
    );
    result.written = changed.length;
    result.keys = [...new Set(changed.flatMap(({ state }) => state.lookupKeys))];
    result.serials = changed.map(({ record }) => record.serial);
    return result;
  }

  /**
   * The items of each key that exists, by base key: its base item, then its overflow items in order. Sharded keys
   * cost one more round. A part missing from that round means the key was rewritten between the two rounds (the
   * writer deletes a generation's parts right after switching the base away from them), so the key is read again,
   * consistently, from its base.
   */
  private async keyItemsOf(baseKeys: readonly string[], options: { consistent: boolean; inFlight?: number }): Promise<Map<string, KeyItem[]>> {
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
      if (attempt >= SHARDED_READ_ATTEMPTS) throw new Error(`key items ${moved.join(', ')}: overflow items missing after ${attempt} reads`);
      consistent = true;
      sharded = [];
      take(await this.readKeyItems(moved, consistent, options.inFlight));
    }
    return found;
  }

  private async readKeyItems(lookupKeys: readonly string[], consistent: boolean, inFlight?: number): Promise<KeyItem[]> {
    const items = await batchGetAll(this.doc, this.tables.markKeys, lookupKeys.map((lookupKey) => ({ lookupKey })), { consistent, inFlight });
    return items as unknown as KeyItem[];
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
    const found = await batchGetAll(this.doc, this.tables.markKeys, candidates.map((lookupKey) => ({ lookupKey })), {
      consistent: true,
      attributes: ['lookupKey'],
      inFlight: READ_CALLS_IN_FLIGHT,
    });
    for (const { lookupKey } of found as { lookupKey: string }[]) pushTo(leftovers, lookupKey.slice(0, lookupKey.lastIndexOf('#')), lookupKey);
    return leftovers;
  }
}

/** A touched key: its items as read, and its summaries as they are to be stored, one string per item. */
interface KeyPlan {
  lookupKey: string;
  items: KeyItem[];
  layout: string[];
}

function addKeyWrites(phases: KeyWritePhases, { lookupKey, items, layout }: KeyPlan, leftovers: readonly string[]): void {
  const put = (Item: Record<string, unknown>): KeyWrite => ({ PutRequest: { Item } });
  const remove = (key: string): KeyWrite => ({ DeleteRequest: { Key: { lookupKey: key } } });
  const base = items[0];
  const gen = base?.gen ?? 0;
  const oldParts = items.slice(1).map((item) => item.lookupKey);
  const written = new Set<string>();
  const unchanged = layout.length === items.length && layout.every((summaries, i) => summaries === items[i]!.summaries);
  if (!unchanged) {
    if (layout.length > 1) {
      layout.slice(1).forEach((summaries, i) => {
        const key = overflowKey(lookupKey, gen + 1, i + 1);
        written.add(key);
        phases.unreferenced.push(put({ lookupKey: key, summaries }));
      });
      phases.bases.push(put({ lookupKey, summaries: layout[0], parts: layout.length, gen: gen + 1 }));
    } else if (layout.length === 1) {
      // A base that had parts keeps a generation until the next write of the key has seen them gone.
      phases.bases.push(put({ lookupKey, summaries: layout[0], ...(oldParts.length > 0 ? { gen: gen + 1 } : {}) }));
    } else if (oldParts.length > 0) {
      phases.bases.push(put({ lookupKey, summaries: '{}', gen: gen + 1 }));
      phases.emptied.push(remove(lookupKey));
    } else if (base) {
      phases.bases.push(remove(lookupKey));
    }
    phases.retired.push(...oldParts.map(remove));
  }
  phases.unreferenced.push(...leftovers.filter((key) => !written.has(key)).map(remove));
}

/** `<market>#<key>`, absent by the market's sealed key filter. */
function isKnownAbsentKey(absent: KnownAbsent, lookupKey: string): boolean {
  const hash = lookupKey.indexOf('#');
  return absent.key(lookupKey.slice(0, hash) as Market, lookupKey.slice(hash + 1));
}

function pushTo<T>(map: Map<string, T[]>, key: string, value: T): void {
  const values = map.get(key);
  if (values) values.push(value);
  else map.set(key, [value]);
}

/**
 * The summaries of a key as the JSON objects of its items, each within `budgetBytes`, in serial order; none when
 * the key has no marks. Past `maxParts` items, dead marks are left out first, then those of unknown status, then
 * pending ones; when the live registrations alone need more, KeyItemTooLargeError.
 */
export function packedParts(
  lookupKey: string,
  summaries: ReadonlyMap<string, PackedSummary>,
  limits: KeyItemLimits = { budgetBytes: KEY_ITEM_BUDGET_BYTES, maxParts: MAX_KEY_ITEM_PARTS },
): string[] {
  const serials = [...summaries.keys()].sort();
  let entries = serials.map((serial) => {
    const summary = summaries.get(serial)!;
    return { status: summary[2], json: `${JSON.stringify(serial)}:${JSON.stringify(summary)}` };
  });
  for (const drop of [undefined, 'dead', 'unknown', 'pending'] as const) {
    if (drop) entries = entries.filter((entry) => entry.status !== drop);
    const parts = splitWithinBudget(entries.map((entry) => entry.json), limits.budgetBytes);
    if (parts.length <= limits.maxParts) return parts;
  }
  throw new KeyItemTooLargeError(lookupKey, entries.length, limits);
}

function splitWithinBudget(entries: readonly string[], budgetBytes: number): string[] {
  const parts: string[] = [];
  let part: string[] = [];
  let bytes = 2; // the braces
  for (const entry of entries) {
    const size = Buffer.byteLength(entry);
    if (part.length > 0 && bytes + 1 + size > budgetBytes) {
      parts.push(`{${part.join(',')}}`);
      part = [];
      bytes = 2;
    }
    bytes += (part.length > 0 ? 1 : 0) + size;
    part.push(entry);
  }
  if (part.length > 0) parts.push(`{${part.join(',')}}`);
  return parts;
}
