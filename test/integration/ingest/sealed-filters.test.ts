/**
 * The market's sealed filters on DynamoDB Local: a batch whose filters are sealed does not read what they have never
 * seen; an interrupted batch leaves them unsealed, so that the next batch reads everything, files again what the
 * interrupted one stored, and loses nothing; every batch that completes seals them again. Reads are counted at the
 * SDK (BatchGetItem keys per table).
 */
import { Readable } from 'node:stream';
import { createDynamoDbClients } from '../../../shared/adapters/aws/dynamodb-client';
import { buildDataStores } from '../../../shared/composition/data-stores';
import { ingestBatch, type IngestRequest, type IngestStores } from '../../../shared/ingest/ingest-batch';
import type { MarkStore } from '../../../shared/ports';
import { createTestStack, testDynamoDbEndpoint } from '../../support/test-stack';

interface Counted {
  stores: IngestStores;
  /** Keys asked by BatchGetItem so far, by table. */
  reads: Map<string, number>;
  tables: { marks: string; markKeys: string };
}

async function countedStores(): Promise<Counted> {
  const { config } = await createTestStack();
  const { raw, doc } = createDynamoDbClients({ region: 'us-east-1', endpoint: testDynamoDbEndpoint() });
  const reads = new Map<string, number>();
  raw.middlewareStack.add(
    (next, context) => async (args) => {
      const requests = (args.input as { RequestItems?: Record<string, { Keys?: unknown[] }> }).RequestItems;
      if (context.commandName === 'BatchGetItemCommand' && requests) {
        for (const [table, request] of Object.entries(requests))
          reads.set(table, (reads.get(table) ?? 0) + (request.Keys?.length ?? 0));
      }
      return next(args);
    },
    { step: 'initialize', name: 'countReads' },
  );
  return {
    stores: buildDataStores(config, doc),
    reads,
    tables: { marks: config.tables.marks, markKeys: config.tables['mark-keys'] },
  };
}

const jsonl = (lines: object[]) => Readable.from([lines.map((l) => JSON.stringify(l)).join('\n')]);
const marks = (prefix: string, count: number, mark: string) =>
  Array.from({ length: count }, (_, i) => ({
    serial: `US-SEAL-${prefix}-${String(i).padStart(4, '0')}`,
    mark,
    is_live: true,
    nice: [9],
  }));

function request(lines: object[], overrides: Partial<IngestRequest> = {}): IngestRequest {
  return {
    kind: 'marks-jsonl',
    market: 'US',
    batchDate: '2026-11-10',
    source: `sealed-${Math.random().toString(36).slice(2)}`,
    holder: 'test',
    input: jsonl(lines),
    ...overrides,
  };
}

/** The mark store, whose batch writer fails on its `failOn`-th chunk: the batch stops there as if the process died. */
function failingOn(store: MarkStore, failOn: number): MarkStore {
  let calls = 0;
  return {
    lookup: (market, keys) => store.lookup(market, keys),
    getMark: (market, serial) => store.getMark(market, serial),
    allKeys: (market) => store.allKeys(market),
    allSerials: (market) => store.allSerials(market),
    storedMarks: (market) => store.storedMarks(market),
    upsertMarks: (records, options) => store.upsertMarks(records, options),
    openBatchWriter: (options) => {
      const writer = store.openBatchWriter(options);
      return {
        write: async (records) => {
          if (++calls === failOn) throw new Error('the process stopped here');
          return writer.write(records);
        },
        refile: (market, batchIds) => writer.refile(market, batchIds),
        finish: () => writer.finish(),
      };
    },
  };
}

async function serialsUnder(stores: IngestStores, key: string): Promise<string[]> {
  const found = await stores.marks.lookup('US', [key]);
  return (found.get(key) ?? []).map((m) => m.serial).sort();
}

async function sealed(stores: IngestStores): Promise<boolean[]> {
  return Promise.all([stores.keyFilters.loadSealed('US', 'keys'), stores.keyFilters.loadSealed('US', 'serials')]).then(
    (all) => all.map((f) => f.sealed),
  );
}

describe('sealed filters', () => {
  it('a first batch into an empty market reads none of what it writes, and seals both filters', async () => {
    const { stores, reads, tables } = await countedStores();
    const lines = [...marks('A', 40, 'Quorvantix'), ...marks('B', 40, 'Belltrimmer')];

    const summary = await ingestBatch(stores, { ...request(lines), chunkSize: 25 });

    expect(summary).toMatchObject({ complete: true, written: 80 });
    expect(reads.get(tables.marks) ?? 0).toBe(0);
    // The writer holds every join until the batch ends, so no key item is written, nor read back, before then.
    expect(reads.get(tables.markKeys) ?? 0).toBe(0);
    expect(await serialsUnder(stores, 'e:quorvantix')).toHaveLength(40);
    expect(await serialsUnder(stores, 'e:belltrimmer')).toHaveLength(40);
    expect(await sealed(stores)).toEqual([true, true]);
    const serialFilter = await stores.keyFilters.load('US', 'serials');
    expect(lines.every((l) => serialFilter?.mightContain(l.serial))).toBe(true);
    // Begun large (the size of a first load is not known), saved at the size its 80 serials need: 64 Kibit.
    expect(serialFilter?.bits.length).toBe(8192);
  });

  it('a later batch reads what the filters may hold and not what they never saw; updates land', async () => {
    const { stores, reads, tables } = await countedStores();
    await ingestBatch(stores, request(marks('OLD', 30, 'Stormlantern')));
    reads.clear();

    // 10 stored marks change (5 die, 5 are renamed), 20 new ones join the same key.
    const old = marks('OLD', 10, 'Stormlantern').map((l, i) =>
      i < 5 ? { ...l, is_live: false } : { ...l, mark: 'Stormlantern Pro' },
    );
    const summary = await ingestBatch(
      stores,
      request([...old, ...marks('NEW', 20, 'Stormlantern')], { batchDate: '2026-11-11' }),
    );

    expect(summary).toMatchObject({ complete: true, written: 30 });
    // The 10 stored serials are read; of the 20 new ones only a rare false "maybe" of the filter could be.
    expect(reads.get(tables.marks)).toBeGreaterThanOrEqual(10);
    expect(reads.get(tables.marks)).toBeLessThanOrEqual(12);
    const under = await stores.marks.lookup('US', ['e:stormlantern', 'e:stormlanternpro']);
    expect(under.get('e:stormlantern')).toHaveLength(45);
    expect(under.get('e:stormlantern')!.filter((m) => !m.isLive)).toHaveLength(5);
    expect(under.get('e:stormlanternpro')).toHaveLength(5);
    expect(await sealed(stores)).toEqual([true, true]);
  });

  it('after an interrupted batch the filters vouch for nothing: the next batch reads everything and loses no mark', async () => {
    const { stores, reads, tables } = await countedStores();
    await ingestBatch(stores, request(marks('BASE', 5, 'Veldtrover')));
    expect(await sealed(stores)).toEqual([true, true]);

    // Batch A writes two chunks of mark records under a new key, then stops before it has filed them under it.
    const lines = marks('A', 6, 'Cindergloam');
    const interrupted = await ingestBatch(
      { ...stores, marks: failingOn(stores.marks, 3) },
      { ...request(lines), chunkSize: 2 },
    );
    expect(interrupted.complete).toBe(false);
    for (const { serial } of lines.slice(0, 4)) expect(await stores.marks.getMark('US', serial)).toBeDefined();
    expect(await serialsUnder(stores, 'e:cindergloam')).toHaveLength(0);
    expect(await sealed(stores)).toEqual([false, false]);

    // Batch B, another file, files marks under the same key: it first files again the 4 marks A stored, then its own.
    reads.clear();
    const other = await ingestBatch(stores, request(marks('B', 2, 'Cindergloam'), { batchDate: '2026-11-12' }));
    expect(other.complete).toBe(true);
    expect(reads.get(tables.markKeys)).toBeGreaterThan(0);
    expect(await serialsUnder(stores, 'e:cindergloam')).toHaveLength(6);
    expect(await sealed(stores)).toEqual([true, true]);
    const keyFilter = await stores.keyFilters.load('US', 'keys');
    expect(keyFilter?.mightContain('e:cindergloam')).toBe(true);
    expect(keyFilter?.mightContain('e:veldtrover')).toBe(true);

    // Running A again finishes it.
    const rerun = await ingestBatch(stores, request(marks('A', 6, 'Cindergloam')));
    expect(rerun).toMatchObject({ complete: true, written: 2, unchanged: 4 });
    expect(await serialsUnder(stores, 'e:cindergloam')).toHaveLength(8);
  });

  it('a batch that writes nothing new seals the filters again without saving them anew', async () => {
    const { stores } = await countedStores();
    const lines = marks('SAME', 3, 'Harrowmint');
    await ingestBatch(stores, request(lines));
    const before = await stores.keyFilters.load('US', 'keys');

    const again = await ingestBatch(stores, request(lines));

    expect(again).toMatchObject({ complete: true, written: 0, unchanged: 3 });
    expect(await sealed(stores)).toEqual([true, true]);
    expect((await stores.keyFilters.load('US', 'keys'))?.count).toBe(before?.count);
  });
});
