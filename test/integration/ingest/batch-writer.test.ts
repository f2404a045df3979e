/**
 * The mark store's batch writer on DynamoDB Local: joins held across chunks and written once, keys a mark leaves
 * written at once, the held-bytes bound, and `refile` after a batch that stopped before writing what it held.
 * Writes are counted at the SDK (BatchWriteItem items per table).
 */
import { createDynamoDbClients } from '../../../shared/adapters/aws/dynamodb-client';
import { DynamoDbDataBatchStore } from '../../../shared/adapters/aws/dynamodb-data-batch-store';
import { DynamoDbMarkStore } from '../../../shared/adapters/aws/dynamodb-mark-store';
import { lookupKeysOfMark } from '../../../shared/marks/lookup-keys';
import { batchIdOf, type MarkRecord } from '../../../shared/marks/mark-record';
import { markRecord } from '../../support/mark-records';
import { createTestStack, testDynamoDbEndpoint } from '../../support/test-stack';

async function countedStore() {
  const { config } = await createTestStack();
  const { raw, doc } = createDynamoDbClients({ region: 'us-east-1', endpoint: testDynamoDbEndpoint() });
  const tables = { marks: config.tables.marks, markKeys: config.tables['mark-keys'] };
  const written = new Map<string, number>();
  raw.middlewareStack.add(
    (next, context) => async (args) => {
      const requests = (args.input as { RequestItems?: Record<string, unknown[]> }).RequestItems;
      if (context.commandName === 'BatchWriteItemCommand' && requests) {
        for (const [table, items] of Object.entries(requests))
          written.set(table, (written.get(table) ?? 0) + items.length);
      }
      return next(args);
    },
    { step: 'initialize', name: 'countWrites' },
  );
  return {
    store: new DynamoDbMarkStore(doc, tables),
    batches: new DynamoDbDataBatchStore(doc, config.tables['data-batches']),
    written,
    tables,
    doc,
  };
}

const mark = (serial: string, markText: string, overrides: Partial<MarkRecord> = {}) =>
  markRecord(serial, markText, { source: 'writer-test', ...overrides });
const serialsOf = async (store: DynamoDbMarkStore, key: string) =>
  ((await store.lookup('US', [key])).get(key) ?? []).map((m) => m.serial).sort();

describe('a batch writer', () => {
  it('files the marks of many chunks under a shared key with one write of it, at finish', async () => {
    const { store, written, tables } = await countedStore();
    const writer = store.openBatchWriter();
    for (let chunk = 0; chunk < 4; chunk++) {
      await writer.write(Array.from({ length: 5 }, (_, i) => mark(`HOLD-${chunk}-${i}`, 'Quillmarrow')));
    }
    // Mark records are written chunk by chunk; the key is not, yet.
    expect(written.get(tables.marks)).toBe(20);
    expect(await serialsOf(store, 'e:quillmarrow')).toEqual([]);

    await writer.finish();

    // Quillmarrow has two keys (e:, p:), each written once for the 20 marks.
    expect(written.get(tables.markKeys)).toBe(2);
    expect(await serialsOf(store, 'e:quillmarrow')).toHaveLength(20);
    expect(await serialsOf(store, 'p:klmrw')).toHaveLength(20);
  });

  it('writes a key that a stored mark leaves at once, and a held join of a mark that moved on never lands', async () => {
    const { store } = await countedStore();
    await store.upsertMarks([mark('MOVE-1', 'Tarnwhistle'), mark('MOVE-2', 'Tarnwhistle')]);
    const writer = store.openBatchWriter();

    // MOVE-1 is renamed: its old key is written before finish, without it and with MOVE-3, held to join it.
    // MOVE-4 joins a key no stored mark leaves: that join is held.
    await writer.write([
      mark('MOVE-1', 'Brackenvolt', { batchDate: '2026-11-02' }),
      mark('MOVE-3', 'Tarnwhistle', { batchDate: '2026-11-02' }),
      mark('MOVE-4', 'Corvellum', { batchDate: '2026-11-02' }),
    ]);
    expect(await serialsOf(store, 'e:tarnwhistle')).toEqual(['MOVE-2', 'MOVE-3']);
    expect(await serialsOf(store, 'e:corvellum')).toEqual([]);
    // Both are renamed in the next chunk: MOVE-3 leaves a stored key, MOVE-4 one it was only held to join.
    await writer.write([
      mark('MOVE-3', 'Brackenvolt', { batchDate: '2026-11-03' }),
      mark('MOVE-4', 'Brackenvolt', { batchDate: '2026-11-03' }),
    ]);
    expect(await serialsOf(store, 'e:tarnwhistle')).toEqual(['MOVE-2']);
    await writer.finish();

    expect(await serialsOf(store, 'e:tarnwhistle')).toEqual(['MOVE-2']);
    expect(await serialsOf(store, 'e:corvellum')).toEqual([]);
    expect(await serialsOf(store, 'e:brackenvolt')).toEqual(['MOVE-1', 'MOVE-3', 'MOVE-4']);
    expect(await store.getMark('US', 'MOVE-3')).toMatchObject({
      markText: 'Brackenvolt',
      lookupKeys: expect.arrayContaining(['e:brackenvolt']),
    });
  });

  it('a later summary of a serial wins within the batch (a status that changes between chunks)', async () => {
    const { store } = await countedStore();
    const writer = store.openBatchWriter();

    await writer.write([mark('TWICE-1', 'Ossifrage Blue')]);
    await writer.write([
      mark('TWICE-1', 'Ossifrage Blue', {
        statusCode: '602',
        statusCategory: 'dead',
        isLive: false,
        batchDate: '2026-11-02',
      }),
    ]);
    await writer.finish();

    expect((await store.lookup('US', ['e:ossifrageblue'])).get('e:ossifrageblue')).toEqual([
      expect.objectContaining({ serial: 'TWICE-1', isLive: false, statusCategory: 'dead' }),
    ]);
  });

  it('writes what it holds once it holds more than its bound, and goes on holding after that', async () => {
    const { store, written, tables } = await countedStore();
    const writer = store.openBatchWriter({ maxHeldBytes: 1 });

    await writer.write([mark('BOUND-1', 'Fenwraith')]);
    expect(await serialsOf(store, 'e:fenwraith')).toEqual(['BOUND-1']);
    await writer.write([mark('BOUND-2', 'Fenwraith')]);
    await writer.finish();

    expect(await serialsOf(store, 'e:fenwraith')).toEqual(['BOUND-1', 'BOUND-2']);
    // Each write filed the mark's every key once: its exact, phonetic and one-edit keys, twice in all.
    expect(written.get(tables.markKeys)).toBe(2 * lookupKeysOfMark('Fenwraith').length);
  });

  it('refile files again the stored marks of the named batches, and only those', async () => {
    const { store } = await countedStore();
    const stopped = store.openBatchWriter();
    await stopped.write([mark('LOST-1', 'Gildercrag'), mark('LOST-2', 'Gildercrag Two')]);
    // The process dies here: its mark records are stored, its held joins are gone.
    await store.upsertMarks([mark('OTHER-1', 'Gildercrag', { source: 'another-batch' })]);
    expect(await serialsOf(store, 'e:gildercrag')).toEqual(['OTHER-1']);

    const next = store.openBatchWriter();
    const found = await next.refile('US', [batchIdOf('2026-11-01', 'writer-test')]);
    await next.finish();

    expect(found).toBe(2);
    expect(await serialsOf(store, 'e:gildercrag')).toEqual(['LOST-1', 'OTHER-1']);
    expect(await serialsOf(store, 'e:gildercragtwo')).toEqual(['LOST-2']);
    expect(await next.refile('CN', [batchIdOf('2026-11-01', 'writer-test')])).toBe(0);
  });
});

describe('unfinished batches', () => {
  it('lists the batches begun and never completed, not the complete ones nor the lock', async () => {
    const { batches } = await countedStore();
    const begin = (batchId: string) =>
      batches.begin({
        market: 'US',
        kind: 'marks',
        batchId,
        source: 's',
        dataAsOf: '2026-11-01',
        startedAt: '2026-11-01T00:00:00Z',
      });
    await begin('2026-11-01#a');
    await begin('2026-11-02#b');
    await batches.complete({ market: 'US', kind: 'marks', batchId: '2026-11-02#b' }, { read: 1 }, new Date());
    await batches.acquireLock('US', 'marks', 'test', new Date(), 60);

    expect(await batches.unfinished('US', 'marks')).toEqual(['2026-11-01#a']);
    expect(await batches.unfinished('CN', 'marks')).toEqual([]);
  });
});
