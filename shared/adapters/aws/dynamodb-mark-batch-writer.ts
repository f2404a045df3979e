/**
 * The batch writer of the DynamoDB mark store (MarkStore.openBatchWriter and upsertMarks): which marks of a chunk
 * change, which keys they leave and join, and the joins it holds back until the batch ends.
 */
import { createHash } from 'node:crypto';
import { lookupKeysOfRecord, sameKeys } from '../../marks/lookup-keys';
import type { Market, MarkRecord } from '../../marks/mark-record';
import type { KnownAbsent, MarkBatchWriter, MarkWriteResult } from '../../ports';
import type { DynamoDbMarkStore, StoredMarkState } from './dynamodb-mark-store';
import { isKnownAbsentKey, pack, pushTo, type KeyChange, type PackedSummary } from './mark-key-items';

export function contentHashOf(record: MarkRecord): string {
  const { batchDate: _batchDate, source: _source, ...content } = record;
  return createHash('sha256')
    .update(JSON.stringify(content, Object.keys(content).sort()))
    .digest('base64url')
    .slice(0, 22);
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
    const joining = (typeof held === 'number' ? [held] : held).map(
      (position) => Object.entries(JSON.parse(this.summaries[position]!) as Record<string, PackedSummary>)[0]!,
    );
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
 *     store has already, filed under the same keys (unchanged), or has newer (stale).
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
export class DynamoDbMarkBatchWriter implements MarkBatchWriter {
  private readonly held = new HeldJoins();
  private readonly maxHeldBytes: number;

  constructor(
    private readonly store: DynamoDbMarkStore,
    private readonly options: {
      absent: KnownAbsent | undefined;
      holdJoins: boolean;
      maxHeldBytes?: number | undefined;
    },
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
    const toRead = [...latest]
      .filter(([, record]) => !absent?.serial(record.market, record.serial))
      .map(([markId]) => markId);
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
      const lookupKeys = lookupKeysOfRecord(record);
      // The same content filed under other keys (stored before a kind of key was added) is filed again.
      if (before && before.contentHash === contentHash && sameKeys(before.lookupKeys, lookupKeys)) {
        result.unchanged++;
        continue;
      }
      changed.push({ record, state: { markId, batchDate: record.batchDate, contentHash, lookupKeys } });
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
      this.held.add(
        record,
        state.lookupKeys.map((key) => `${record.market}#${key}`),
        this.isAbsent,
      );
    }
    // Keys a mark leaves are written now, with what they were held to gain.
    const now = new Map<string, KeyChange>();
    for (const [lookupKey, serials] of leaving) {
      const held = this.held.take(lookupKey);
      now.set(lookupKey, {
        absent: held?.absent ?? this.isAbsent(lookupKey),
        leaving: serials,
        joining: held?.joining ?? [],
      });
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
      this.held.add(
        record,
        lookupKeys.map((key) => `${market}#${key}`),
        this.isAbsent,
      );
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
  private readonly isAbsent = (lookupKey: string): boolean =>
    this.options.absent ? isKnownAbsentKey(this.options.absent, lookupKey) : false;
}
