/**
 * The trademark-data ports in memory (marks, TRO list, data batches, key filters), with the semantics of the
 * DynamoDB adapters that matter to screening and ingest: marks filed under lookupKeysOfMark, the newest batch per
 * serial wins, the same content twice changes nothing, a key a mark leaves is dropped. The real ingest code writes
 * into them, so the unit tests and the screening evaluation run the screening engine on real ingested data with
 * no Java; the integration tests run the same cases on DynamoDB Local.
 */
import { pack, unpack } from '../../shared/adapters/aws/mark-key-items';
import { KeyFilter } from '../../shared/marks/key-filter';
import { lookupKeysOfRecord, sameKeys } from '../../shared/marks/lookup-keys';
import type { Market, MarkRecord } from '../../shared/marks/mark-record';
import { troBrandKey, type TroEntry } from '../../shared/marks/tro-csv';
import type {
  DataBatch,
  DataBatchStore,
  DataKind,
  FilterName,
  KeyFilterStore,
  MarkBatchWriter,
  MarkStore,
  MarkSummary,
  MarkWriteResult,
  TroBrand,
  TroStore,
} from '../../shared/ports';
import type { IngestStores } from '../../shared/ingest/ingest-batch';

interface StoredMark {
  record: MarkRecord;
  keys: string[];
  summary: MarkSummary;
}

/** As the DynamoDB store files it under its keys (mark-key-items.ts). */
function summaryOf(record: MarkRecord): MarkSummary {
  return unpack(record.serial, pack(record));
}

function sameContent(a: MarkRecord, b: MarkRecord): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export class InMemoryMarkStore implements MarkStore {
  private readonly marks: Record<Market, Map<string, StoredMark>> = { US: new Map(), CN: new Map() };
  private readonly keys: Record<Market, Map<string, Map<string, MarkSummary>>> = { US: new Map(), CN: new Map() };
  /** Lookups made (each a BatchGetItem round in DynamoDB). */
  lookups = 0;

  async lookup(market: Market, keys: readonly string[]): Promise<Map<string, MarkSummary[]>> {
    this.lookups++;
    const out = new Map<string, MarkSummary[]>();
    for (const key of keys) {
      const filed = this.keys[market].get(key);
      if (filed && filed.size > 0) out.set(key, [...filed.values()]);
    }
    return out;
  }

  async getMark(market: Market, serial: string): Promise<(MarkRecord & { lookupKeys: string[] }) | undefined> {
    const stored = this.marks[market].get(serial);
    return stored ? { ...stored.record, lookupKeys: [...stored.keys] } : undefined;
  }

  async upsertMarks(records: readonly MarkRecord[]): Promise<MarkWriteResult> {
    const result: MarkWriteResult = { written: 0, unchanged: 0, stale: 0, keys: [], serials: [] };
    for (const record of records) {
      const market = record.market;
      const previous = this.marks[market].get(record.serial);
      if (previous && previous.record.batchDate > record.batchDate) {
        result.stale++;
        continue;
      }
      const keys = lookupKeysOfRecord(record);
      // The same content filed under other keys (stored before a kind of key was added) is filed again.
      if (previous && sameContent(previous.record, record) && sameKeys(previous.keys, keys)) {
        result.unchanged++;
        continue;
      }
      if (previous) for (const key of previous.keys) this.keys[market].get(key)?.delete(record.serial);
      const stored: StoredMark = { record, keys, summary: summaryOf(record) };
      this.marks[market].set(record.serial, stored);
      for (const key of keys) {
        let filed = this.keys[market].get(key);
        if (!filed) {
          filed = new Map();
          this.keys[market].set(key, filed);
        }
        filed.set(record.serial, stored.summary);
      }
      result.written++;
      result.keys.push(...keys);
      result.serials.push(record.serial);
    }
    return result;
  }

  openBatchWriter(): MarkBatchWriter {
    return {
      write: (records) => this.upsertMarks(records),
      refile: async () => 0,
      finish: async () => undefined,
    };
  }

  async *allKeys(market: Market): AsyncIterable<string> {
    for (const [key, filed] of this.keys[market]) if (filed.size > 0) yield key;
  }

  async *allSerials(market: Market): AsyncIterable<string> {
    yield* this.marks[market].keys();
  }

  async *storedMarks(market: Market): AsyncIterable<{ record: MarkRecord; lookupKeys: string[] }> {
    for (const stored of [...this.marks[market].values()])
      yield { record: stored.record, lookupKeys: [...stored.keys] };
  }
}

export class InMemoryTroStore implements TroStore {
  private readonly brands = new Map<string, TroBrand>();

  async upsert(entries: readonly TroEntry[], batchDate: string): Promise<number> {
    for (const entry of entries) {
      const brandKey = troBrandKey(entry.brand);
      this.brands.set(brandKey, { ...entry, brandKey, batchDate });
    }
    return entries.length;
  }

  async all(): Promise<TroBrand[]> {
    return [...this.brands.values()];
  }
}

export class InMemoryDataBatchStore implements DataBatchStore {
  private readonly batches = new Map<string, DataBatch>();
  private readonly locks = new Map<string, { holder: string; until: number }>();

  private static id(market: Market, kind: DataKind, batchId: string): string {
    return `${market}#${kind}#${batchId}`;
  }

  async begin(batch: Omit<DataBatch, 'status' | 'completedAt' | 'counts'>): Promise<void> {
    const id = InMemoryDataBatchStore.id(batch.market, batch.kind, batch.batchId);
    const previous = this.batches.get(id);
    if (previous?.status === 'complete') return;
    this.batches.set(id, { ...batch, status: 'running' });
  }

  async complete(
    batch: Pick<DataBatch, 'market' | 'kind' | 'batchId'>,
    counts: Record<string, number>,
    now: Date,
  ): Promise<void> {
    const id = InMemoryDataBatchStore.id(batch.market, batch.kind, batch.batchId);
    const stored = this.batches.get(id);
    if (!stored) throw new Error(`no batch ${id}`);
    this.batches.set(id, { ...stored, status: 'complete', completedAt: now.toISOString(), counts });
  }

  async get(market: Market, kind: DataKind, batchId: string): Promise<DataBatch | undefined> {
    return this.batches.get(InMemoryDataBatchStore.id(market, kind, batchId));
  }

  async latestComplete(market: Market, kind: DataKind): Promise<DataBatch | undefined> {
    let latest: DataBatch | undefined;
    for (const batch of this.batches.values()) {
      if (batch.market !== market || batch.kind !== kind || batch.status !== 'complete') continue;
      if (!latest || batch.dataAsOf > latest.dataAsOf) latest = batch;
    }
    return latest;
  }

  async hasBatches(market: Market, kind: DataKind): Promise<boolean> {
    for (const batch of this.batches.values()) if (batch.market === market && batch.kind === kind) return true;
    return false;
  }

  async unfinished(market: Market, kind: DataKind): Promise<string[]> {
    return [...this.batches.values()]
      .filter((b) => b.market === market && b.kind === kind && b.status === 'running')
      .map((b) => b.batchId);
  }

  async acquireLock(market: Market, kind: DataKind, holder: string, now: Date, ttlSeconds: number): Promise<void> {
    const id = `${market}#${kind}`;
    const lock = this.locks.get(id);
    if (lock && lock.holder !== holder && lock.until > now.getTime())
      throw new Error(`ingest of ${id} is locked by ${lock.holder}`);
    this.locks.set(id, { holder, until: now.getTime() + ttlSeconds * 1000 });
  }

  async releaseLock(market: Market, kind: DataKind, holder: string): Promise<void> {
    const id = `${market}#${kind}`;
    if (this.locks.get(id)?.holder === holder) this.locks.delete(id);
  }
}

export class InMemoryKeyFilterStore implements KeyFilterStore {
  private readonly filters = new Map<string, { filter: KeyFilter; sealed: boolean }>();

  async load(market: Market, name: FilterName = 'keys'): Promise<KeyFilter | undefined> {
    return this.filters.get(`${market}#${name}`)?.filter;
  }

  async loadSealed(market: Market, name: FilterName): Promise<{ filter: KeyFilter | undefined; sealed: boolean }> {
    const saved = this.filters.get(`${market}#${name}`);
    return saved ? { filter: saved.filter, sealed: saved.sealed } : { filter: undefined, sealed: false };
  }

  async setSealed(market: Market, name: FilterName, sealed: boolean): Promise<void> {
    const saved = this.filters.get(`${market}#${name}`);
    if (saved) saved.sealed = sealed;
  }

  async save(market: Market, filter: KeyFilter, options: { name?: FilterName; sealed?: boolean } = {}): Promise<void> {
    // A copy, as a store would keep: later additions to the caller's filter are not seen until saved again.
    const copy = KeyFilter.fromBytes(filter.bits.slice(), filter.count);
    this.filters.set(`${market}#${options.name ?? 'keys'}`, { filter: copy, sealed: options.sealed ?? false });
  }
}

/** Every store ingest writes into, in memory. */
export function createInMemoryDataStores(
  now: () => Date = () => new Date(),
): IngestStores & { marks: InMemoryMarkStore } {
  return {
    marks: new InMemoryMarkStore(),
    tro: new InMemoryTroStore(),
    batches: new InMemoryDataBatchStore(),
    keyFilters: new InMemoryKeyFilterStore(),
    now,
  };
}
