/**
 * A warm reader of the key filter (the screening service reloads it every few seconds) reads its chunks once per
 * version, on DynamoDB Local: a reload of the same version reads only the small `current` item; a batch that adds
 * keys saves a new version, which the next reload reads whole and which finds the new keys. A filter handed to an
 * ingest (loadSealed) is its own copy, so adding to it never changes what the readers hold. Chunk reads are counted
 * at the SDK (BatchGetItem calls on the data-batches table). A filter bigger than one BatchGetItem answer loads whole.
 */
import { Readable } from 'node:stream';
import { createDynamoDbClients } from '../../../shared/adapters/aws/dynamodb-client';
import { buildDataStores } from '../../../shared/composition/data-stores';
import { ingestBatch } from '../../../shared/ingest/ingest-batch';
import { KeyFilter } from '../../../shared/marks/key-filter';
import { lookupKeysOfMark } from '../../../shared/marks/lookup-keys';
import { createTestStack, testDynamoDbEndpoint } from '../../support/test-stack';

async function countedStores() {
  const { config } = await createTestStack();
  const { raw, doc } = createDynamoDbClients({ region: 'us-east-1', endpoint: testDynamoDbEndpoint() });
  const chunkReads = { count: 0 };
  raw.middlewareStack.add(
    (next, context) => async (args) => {
      const requests = (args.input as { RequestItems?: Record<string, unknown> }).RequestItems;
      if (context.commandName === 'BatchGetItemCommand' && requests?.[config.tables['data-batches']])
        chunkReads.count += 1;
      return next(args);
    },
    { step: 'initialize', name: 'countChunkReads' },
  );
  return { stores: buildDataStores(config, doc), chunkReads };
}

const batchOf = (mark: string, serial: string, source: string) => ({
  kind: 'marks-jsonl' as const,
  market: 'US' as const,
  batchDate: '2026-11-10',
  source,
  holder: 'test',
  input: Readable.from([`${JSON.stringify({ serial, mark, is_live: true, nice: [9] })}\n`]),
});

it('reads the chunks once per version, and a new version whole', async () => {
  const { stores, chunkReads } = await countedStores();
  const first = await ingestBatch(stores, batchOf('ZARQUELLO', 'US-FR-0001', 'filter-reads-1'));
  expect(first.complete).toBe(true);

  const loaded = await stores.keyFilters.load('US');
  const readsForFirst = chunkReads.count;
  expect(readsForFirst).toBeGreaterThan(0);
  const again = await stores.keyFilters.load('US');
  expect(chunkReads.count).toBe(readsForFirst);
  expect(again).toBe(loaded);
  expect(again!.mightContain(lookupKeysOfMark('ZARQUELLO')[0]!)).toBe(true);

  const second = await ingestBatch(stores, batchOf('QUENTIVAR', 'US-FR-0002', 'filter-reads-2'));
  expect(second.complete).toBe(true);
  const before = chunkReads.count;
  const newer = await stores.keyFilters.load('US');
  expect(chunkReads.count).toBeGreaterThan(before);
  expect(newer).not.toBe(loaded);
  expect(newer!.mightContain(lookupKeysOfMark('QUENTIVAR')[0]!)).toBe(true);
});

it("hands an ingest a copy of its own: adding to it leaves the readers' filter as it was", async () => {
  const { stores } = await countedStores();
  await ingestBatch(stores, batchOf('VELMORATH', 'US-FR-0003', 'filter-reads-3'));
  const reader = await stores.keyFilters.load('US');
  const { filter: writable } = await stores.keyFilters.loadSealed('US', 'keys');
  const key = 'e:neverregisteredanywherexyz';
  writable!.add(key);

  expect(writable!.mightContain(key)).toBe(true);
  expect(reader!.mightContain(key)).toBe(false);
  expect((await stores.keyFilters.load('US'))!.mightContain(key)).toBe(false);
});

it('loads a filter larger than one BatchGetItem answer (16 MB), as a register of millions of marks has', async () => {
  const { stores } = await countedStores();
  const big = KeyFilter.forCapacity(7_000_000);
  expect(big.bits.length).toBeGreaterThanOrEqual(16 * 2 ** 20);
  for (const key of ['e:first', 'e:second', 'e:third']) big.add(key);
  await stores.keyFilters.save('US', big, { sealed: true });

  const loaded = await stores.keyFilters.load('US');

  expect(loaded?.bits.length).toBe(big.bits.length);
  expect(['e:first', 'e:second', 'e:third'].every((k) => loaded!.mightContain(k))).toBe(true);
  expect(Buffer.compare(Buffer.from(loaded!.bits), Buffer.from(big.bits))).toBe(0);
}, 60_000);
