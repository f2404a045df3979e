/**
 * Filing a store again under the keys this code gives (shared/ingest/refile-keys.ts), on DynamoDB Local: a store
 * loaded before misspellings of 5 to 8 letters were looked up through one-edit neighbourhoods (d: keys) has its
 * marks under their skeleton (p:) only, so screening finds no misspelling of a short mark there; after the refile
 * it does, the short marks have left their p: keys, dead ones stay off the fuzzy keys, the key filter knows the new
 * keys, and a second run changes nothing.
 */
import { Readable } from 'node:stream';
import { DeleteCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { contentHashOf } from '../../../shared/adapters/aws/dynamodb-mark-batch-writer';
import { createDynamoDbClients } from '../../../shared/adapters/aws/dynamodb-client';
import type { DynamoDbMarkStore } from '../../../shared/adapters/aws/dynamodb-mark-store';
import { pack } from '../../../shared/adapters/aws/mark-key-items';
import { buildDataStores } from '../../../shared/composition/data-stores';
import { ingestBatch, type IngestStores } from '../../../shared/ingest/ingest-batch';
import { refileKeys } from '../../../shared/ingest/refile-keys';
import { KeyFilter } from '../../../shared/marks/key-filter';
import { exactKey, lookupKeysOfRecord, ownerKeyOf, phoneticKey } from '../../../shared/marks/lookup-keys';
import type { MarkRecord } from '../../../shared/marks/mark-record';
import { createScreeningService } from '../../../shared/screening/screening-service';
import { createTestStack } from '../../support/test-stack';

let doc: DynamoDBDocumentClient;
let tables: { marks: string; markKeys: string };
let stores: IngestStores;
let store: DynamoDbMarkStore;

const LINES = [
  { serial: 'RF-1', mark: 'Brisko', is_live: true, nice: [25], drawing_kind: 'word', owner: 'Brisko Apparel LLC' },
  { serial: 'RF-2', mark: 'Vantrelo', is_live: true, nice: [9], drawing_kind: 'word' },
  { serial: 'RF-3', mark: 'Glorvex', is_live: false, status_category: 'dead', nice: [25], drawing_kind: 'word' },
  { serial: 'RF-4', mark: 'Quandelborough', is_live: true, nice: [25], drawing_kind: 'word' },
];

const serialsUnder = async (key: string) =>
  ((await store.lookup('US', [key])).get(key) ?? []).map((m) => m.serial).sort();

/** The keys a mark had before d: keys: its exact key, its skeleton whatever its length (not when dead), its owner. */
function keysBefore(record: MarkRecord): string[] {
  const keys = [exactKey(record.markText)!];
  const phonetic = phoneticKey(record.markText);
  if (phonetic && record.statusCategory !== 'dead') keys.push(phonetic);
  const owner = record.owner === undefined ? undefined : ownerKeyOf(record.owner);
  if (owner) keys.push(owner);
  return keys;
}

/** Puts the store back as that code left it: marks under their old keys, no d: key items, a key filter of those. */
async function fileAsBefore(): Promise<MarkRecord[]> {
  const records: MarkRecord[] = [];
  for await (const { record } of store.storedMarks('US')) records.push(record);
  for (const record of records) {
    const before = keysBefore(record);
    for (const key of lookupKeysOfRecord(record)) {
      if (key.startsWith('d:'))
        await doc.send(new DeleteCommand({ TableName: tables.markKeys, Key: { lookupKey: `US#${key}` } }));
    }
    for (const key of before.filter((k) => !lookupKeysOfRecord(record).includes(k))) {
      await store.writeKeyChanges([`US#${key}`], () => ({
        absent: false,
        leaving: [],
        joining: [[record.serial, pack(record)]],
      }));
    }
    await doc.send(
      new PutCommand({
        TableName: tables.marks,
        Item: {
          markId: `US#${record.serial}`,
          batchDate: record.batchDate,
          contentHash: contentHashOf(record),
          lookupKeys: before,
          batchId: `${record.batchDate}#${record.source}`,
          record: JSON.stringify(record),
        },
      }),
    );
  }
  const filter = KeyFilter.forCapacity(10_000);
  for await (const key of store.allKeys('US')) filter.add(key);
  await stores.keyFilters.save('US', filter, { name: 'keys', sealed: true });
  return records;
}

beforeAll(async () => {
  const { config } = await createTestStack();
  doc = createDynamoDbClients({ region: config.region, endpoint: config.dynamoDbEndpoint }).doc;
  tables = { marks: config.tables.marks, markKeys: config.tables['mark-keys'] };
  stores = buildDataStores(config, doc);
  store = stores.marks as DynamoDbMarkStore;
  const loaded = await ingestBatch(stores, {
    kind: 'marks-jsonl',
    market: 'US',
    batchDate: '2026-11-20',
    source: 'refile-keys.jsonl',
    holder: 'refile-keys-test',
    input: Readable.from([LINES.map((line) => JSON.stringify(line)).join('\n')]),
  });
  expect(loaded).toMatchObject({ complete: true, written: LINES.length });
});

afterAll(() => doc.destroy());

const screen = async (title: string, nice: string) =>
  (await createScreeningService(stores).screen([{ title, nice }], { detail: true })).results[0]!;

it('files a store of the old keys under the keys of now, and a second run changes nothing', async () => {
  await fileAsBefore();
  expect(await serialsUnder('p:brsk')).toEqual(['RF-1']);
  expect(await serialsUnder('d:brisk/brsk')).toEqual([]);
  // Screening reads the d: keys, which that store does not hold: a misspelling of the short mark goes unseen.
  expect((await screen('Briskko Mens Running Jacket', '25')).conflicts).toEqual([]);

  const first = await refileKeys(stores, { market: 'US', holder: 'refile-keys-test' });

  // Brisko and Vantrelo gain d: keys (Brisko also leaves p:); the dead mark and the long one keep their keys.
  expect(first).toMatchObject({ read: LINES.length, refiled: 2 });
  expect(await serialsUnder('d:brisk/brsk')).toEqual(['RF-1']);
  expect(await serialsUnder('d:vantrel/vntrl')).toEqual(['RF-2']);
  expect(await serialsUnder('p:brsk')).toEqual([]);
  expect(await serialsUnder('p:vntrl')).toEqual(['RF-2']);
  expect(await serialsUnder('d:glorvex/glrvks')).toEqual([]);
  expect(await serialsUnder('e:glorvex')).toEqual(['RF-3']);
  expect(await serialsUnder('o:brisko apparel')).toEqual(['RF-1']);
  for (const serial of ['RF-1', 'RF-2']) {
    const stored = (await store.getMark('US', serial))!;
    expect([...stored.lookupKeys].sort()).toEqual(lookupKeysOfRecord(stored).sort());
  }
  const filter = await stores.keyFilters.loadSealed('US', 'keys');
  expect(filter.sealed).toBe(true);
  expect(filter.filter?.mightContain('d:brisk/brsk')).toBe(true);

  const found = await screen('Briskko Mens Running Jacket', '25');
  expect(found.conflicts).toEqual([expect.objectContaining({ serial: 'RF-1', match: 'fuzzy' })]);

  const second = await refileKeys(stores, { market: 'US', holder: 'refile-keys-test' });
  expect(second).toMatchObject({ read: LINES.length, refiled: 0 });
});

it('waits for no one: a batch holding the market lock stops it', async () => {
  await stores.batches.acquireLock('US', 'marks', 'a running batch', stores.now(), 60);
  try {
    await expect(refileKeys(stores, { market: 'US', holder: 'refile-keys-test' })).rejects.toThrow();
  } finally {
    await stores.batches.releaseLock('US', 'marks', 'a running batch');
  }
});
