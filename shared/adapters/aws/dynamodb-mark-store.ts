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
import { GetCommand, paginateScan, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { lookupKeysOfMark } from '../../marks/lookup-keys';
import { batchIdOf, type DrawingKind, type Market, type MarkRecord, type StatusCategory } from '../../marks/mark-record';
import type { KnownAbsent, MarkBatchWriter, MarkStore, MarkSummary, MarkWriteResult } from '../../ports';
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

/**
 * A mark item: its state at the top (read alone by ingest), the id of the batch that wrote it (to find the marks of
 * an unfinished batch), the whole record as JSON in `record`. Items written before batch ids were kept have none.
 */
interface StoredMark extends StoredMarkState {
  batchId?: string;
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
    const pages = paginateScan(
      { client: this.doc },
      {
        TableName: table,
        ProjectionExpression: attribute,
        FilterExpression: `begins_with(${attribute}, :market)`,
        ExpressionAttributeValues: { ':market': `${market}#` },
      },
    );
    for await (const page of pages) for (const item of page.Items ?? []) yield String(item[attribute]).slice(market.length + 1);
  }

  async getMark(market: Market, serial: string): Promise<(MarkRecord & { lookupKeys: string[] }) | undefined> {
    const out = await this.doc.send(new GetCommand({ TableName: this.tables.marks, Key: { markId: `${market}#${serial}` }, ConsistentRead: true }));
    if (!out.Item) return undefined;
    const { markId: _markId, contentHash: _hash, record, lookupKeys, ...legacy } = out.Item as StoredMark;
    return { ...(record === undefined ? (legacy as unknown as MarkRecord) : (JSON.parse(record) as MarkRecord)), lookupKeys };
  }

  async upsertMarks(records: readonly MarkRecord[], options: { absent?: KnownAbsent } = {}): Promise<MarkWriteResult> {
    return new DynamoDbMarkBatchWriter(this, { absent: options.absent, holdJoins: false }).write(records);
  }

  /** `maxHeldBytes`: MAX_HELD_JOIN_BYTES unless a test wants a writer that writes its held joins sooner. */
  openBatchWriter(options: { absent?: KnownAbsent; maxHeldBytes?: number } = {}): MarkBatchWriter {
    return new DynamoDbMarkBatchWriter(this, { absent: options.absent, holdJoins: true, maxHeldBytes: options.maxHeldBytes });
  }

  /** What ingest needs of each stored mark of `markIds` (those stored), consistently. */
  async storedStates(markIds: readonly string[]): Promise<StoredMarkState[]> {
    const items = await batchGetAll(this.doc, this.tables.marks, markIds.map((markId) => ({ markId })), {
      consistent: true,
      attributes: MARK_STATE_ATTRIBUTES,
      inFlight: READ_CALLS_IN_FLIGHT,
    });
    return items as unknown as StoredMarkState[];
  }

  async putMarks(marks: readonly { record: MarkRecord; state: StoredMarkState }[]): Promise<void> {
    await batchWriteAll(
      this.doc,
      this.tables.marks,
      marks.map(({ record, state }) => ({
        PutRequest: { Item: { ...state, batchId: batchIdOf(record.batchDate, record.source), record: JSON.stringify(record) } satisfies StoredMark },
      })),
      { inFlight: WRITE_CALLS_IN_FLIGHT },
    );
  }

  /** The stored marks of a market written by the given batches, a page at a time. */
  async *marksOfBatches(market: Market, batchIds: readonly string[]): AsyncIterable<{ record: MarkRecord; lookupKeys: string[] }> {
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
          ExpressionAttributeValues: { ':market': `${market}#`, ...Object.fromEntries(ids.map((id, j) => [`:b${j}`, id])) },
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

/**
 * What a write does to one key: the serials it loses, and the marks it gains or whose summary changes (in order: a
 * later summary of a serial wins). `absent`: the key had no item when the change began (the market's sealed filter
 * said so), so it is not read.
 */
interface KeyChange {
  absent: boolean;
  leaving: readonly string[];
  joining: readonly (readonly [string, PackedSummary])[];
}

/**
 * Bytes of held joins (their JSON, and about 64 bytes of heap for each key they join) past which a batch writer
 * writes them all and starts again: memory stays bounded whatever the batch's size, and a batch that fits writes
 * each of its keys once. The generated daily file holds 1.1 MB of them per 10,000 records (BENCHMARKS.md, Ingest).
 */
export const MAX_HELD_JOIN_BYTES = 48 * 2 ** 20;
const HELD_KEY_BYTES = 64;

/**
 * The joins a batch writer holds back, in little memory: each joining mark's summary once, as one flat JSON string
 * (`{"<serial>":<summary>}`), and for each key the positions of the summaries it gains (a number for one, as most
 * keys have), rather than arrays of arrays per key and mark (several times the heap).
 */
class HeldJoins {
  private summaries: string[] = [];
  private readonly byKey = new Map<string, number | number[]>();
  /** Held keys that may have an item already: read before they are written. */
  private readonly present = new Set<string>();
  bytes = 0;

  get size(): number {
    return this.byKey.size;
  }

  /** Holds the mark's summary for every key in `lookupKeys` (`isAbsent` is asked of each key held for the first time). */
  add(record: MarkRecord, lookupKeys: readonly string[], isAbsent: (lookupKey: string) => boolean): void {
    const position = this.summaries.push(JSON.stringify({ [record.serial]: pack(record) })) - 1;
    this.bytes += this.summaries[position]!.length;
    for (const lookupKey of lookupKeys) {
      const held = this.byKey.get(lookupKey);
      if (held === undefined) {
        this.byKey.set(lookupKey, position);
        this.bytes += HELD_KEY_BYTES;
        if (!isAbsent(lookupKey)) this.present.add(lookupKey);
      } else if (typeof held === 'number') this.byKey.set(lookupKey, [held, position]);
      else held.push(position);
    }
  }

  /** The key's held joins, no longer held; undefined when none are. */
  take(lookupKey: string): KeyChange | undefined {
    const change = this.changeOf(lookupKey);
    if (change) {
      this.byKey.delete(lookupKey);
      this.present.delete(lookupKey);
    }
    return change;
  }

  /** Drops what a key was held to gain from one serial (the mark has left the key since). */
  drop(lookupKey: string, serial: string): void {
    const held = this.byKey.get(lookupKey);
    if (held === undefined) return;
    const kept = (typeof held === 'number' ? [held] : held).filter((position) => this.serialAt(position) !== serial);
    this.byKey.set(lookupKey, kept);
  }

  keys(): string[] {
    return [...this.byKey.keys()];
  }

  changeOf(lookupKey: string): KeyChange | undefined {
    const held = this.byKey.get(lookupKey);
    if (held === undefined) return undefined;
    const joining = (typeof held === 'number' ? [held] : held).map((position) => Object.entries(JSON.parse(this.summaries[position]!) as Record<string, PackedSummary>)[0]!);
    return { absent: !this.present.has(lookupKey), leaving: [], joining };
  }

  clear(): void {
    this.summaries = [];
    this.byKey.clear();
    this.present.clear();
    this.bytes = 0;
  }

  private serialAt(position: number): string {
    return Object.keys(JSON.parse(this.summaries[position]!) as object)[0]!;
  }
}

/**
 * Writes the marks of a batch, chunk after chunk (MarkStore.openBatchWriter), or of one chunk (upsertMarks).
 *
 * For each chunk:
 *  1. Read what the store has of its serials (not what the sealed filter vouches is absent); skip the records the
 *     store has already (unchanged) or has newer (stale).
 *  2. A key that a stored mark leaves (its text changed) is rewritten at once, with what it was held to gain; so a
 *     key item never lists a stored mark under a key that mark has left.
 *  3. The keys that marks join are held back in memory and written at `finish`, or once MAX_HELD_JOIN_BYTES are
 *     held: a key shared by records of many chunks is written once. The one-chunk writer (`holdJoins: false`)
 *     writes them here, before step 4, as every write did before batches held them.
 *  4. Write the mark records, each with the id of its batch.
 * A held join is what an interruption can lose: a mark record stored before its keys. The batch is then left
 * unfinished, and `refile`, which the next batch of the market runs before its own writes (see
 * shared/ingest/ingest-batch.ts), files the stored marks of every unfinished batch under their keys again.
 */
class DynamoDbMarkBatchWriter implements MarkBatchWriter {
  private readonly held = new HeldJoins();
  private readonly maxHeldBytes: number;

  constructor(
    private readonly store: DynamoDbMarkStore,
    private readonly options: { absent: KnownAbsent | undefined; holdJoins: boolean; maxHeldBytes?: number | undefined },
  ) {
    this.maxHeldBytes = options.maxHeldBytes ?? MAX_HELD_JOIN_BYTES;
  }

  async write(records: readonly MarkRecord[]): Promise<MarkWriteResult> {
    const { absent } = this.options;
    // Within a chunk the last record of a serial wins, as it would if they were written one after another.
    const latest = new Map<string, MarkRecord>();
    for (const record of records) latest.set(`${record.market}#${record.serial}`, record);

    // Only the state of what is stored is read: a new mark costs a key lookup, not a whole record. A serial the
    // sealed filter has never seen is new: there is nothing to read.
    const toRead = [...latest].filter(([, record]) => !absent?.serial(record.market, record.serial)).map(([markId]) => markId);
    const existing = new Map<string, StoredMarkState>();
    for (const item of await this.store.storedStates(toRead)) existing.set(item.markId, item);

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

    const leaving = new Map<string, string[]>();
    for (const { record, state } of changed) {
      const keys = new Set(state.lookupKeys);
      for (const key of existing.get(state.markId)?.lookupKeys ?? []) {
        if (keys.has(key)) continue;
        const lookupKey = `${record.market}#${key}`;
        this.held.drop(lookupKey, record.serial);
        pushTo(leaving, lookupKey, record.serial);
      }
      this.held.add(record, state.lookupKeys.map((key) => `${record.market}#${key}`), this.isAbsent);
    }
    // Keys a mark leaves are written now, with what they were held to gain.
    const now = new Map<string, KeyChange>();
    for (const [lookupKey, serials] of leaving) {
      const held = this.held.take(lookupKey);
      now.set(lookupKey, { absent: held?.absent ?? this.isAbsent(lookupKey), leaving: serials, joining: held?.joining ?? [] });
    }
    await this.store.writeKeyChanges([...now.keys()], (lookupKey) => now.get(lookupKey)!);
    if (!this.options.holdJoins || this.held.bytes > this.maxHeldBytes) await this.finish();
    await this.store.putMarks(changed);

    result.written = changed.length;
    result.keys = [...new Set(changed.flatMap(({ state }) => state.lookupKeys))];
    result.serials = changed.map(({ record }) => record.serial);
    return result;
  }

  async refile(market: Market, batchIds: readonly string[]): Promise<number> {
    let found = 0;
    for await (const { record, lookupKeys } of this.store.marksOfBatches(market, batchIds)) {
      found++;
      this.held.add(record, lookupKeys.map((key) => `${market}#${key}`), this.isAbsent);
      if (this.held.bytes > this.maxHeldBytes) await this.finish();
    }
    return found;
  }

  async finish(): Promise<void> {
    if (this.held.size === 0) return;
    await this.store.writeKeyChanges(this.held.keys(), (lookupKey) => this.held.changeOf(lookupKey)!);
    this.held.clear();
  }

  /** Asked when a key is first touched: until this writer writes it, nothing else can (the market's lock). */
  private readonly isAbsent = (lookupKey: string): boolean => (this.options.absent ? isKnownAbsentKey(this.options.absent, lookupKey) : false);
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
