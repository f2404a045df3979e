/**
 * The owner index on DynamoDB Local: a mark with an owner is filed under `o:<owner>` like its other keys; two
 * spellings of one owner share the key; a changed owner moves the mark; and a mark stored before owner keys existed
 * (its record unchanged) is filed under its owner key when its batch is ingested again.
 */
import { DeleteCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { contentHashOf } from '../../../shared/adapters/aws/dynamodb-mark-batch-writer';
import { DynamoDbMarkStore } from '../../../shared/adapters/aws/dynamodb-mark-store';
import type { MarkRecord } from '../../../shared/marks/mark-record';
import { markRecord, markTables } from '../../support/mark-records';

let doc: DynamoDBDocumentClient;
let tables: { marks: string; markKeys: string };
let store: DynamoDbMarkStore;

beforeAll(async () => {
  ({ doc, tables } = await markTables());
  store = new DynamoDbMarkStore(doc, tables);
});

afterAll(() => doc.destroy());

const mark = (serial: string, markText: string, owner: string, overrides: Partial<MarkRecord> = {}): MarkRecord =>
  markRecord(serial, markText, { owner, source: 'owner-keys-test', ...overrides });

const serialsUnder = async (key: string) =>
  ((await store.lookup('US', [key])).get(key) ?? []).map((m) => m.serial).sort();

it('files marks under their owner key, two spellings of one owner together', async () => {
  const result = await store.upsertMarks([
    mark('OWN-1', 'Zorbliqon', 'SPIN MASTER LTD.'),
    mark('OWN-2', 'Quexaroo Pups', 'Spin Master, Inc.'),
    mark('OWN-3', 'Brontavia', 'Brontavia Holdings LLC'),
  ]);

  expect(result.keys).toEqual(expect.arrayContaining(['o:spin master', 'o:brontavia holdings']));
  expect(await serialsUnder('o:spin master')).toEqual(['OWN-1', 'OWN-2']);
  expect(await serialsUnder('o:brontavia holdings')).toEqual(['OWN-3']);
  expect((await store.getMark('US', 'OWN-1'))?.lookupKeys).toContain('o:spin master');
});

it('a changed owner moves the mark to the new owner key', async () => {
  await store.upsertMarks([mark('OWN-2', 'Quexaroo Pups', 'Quexaroo Toys GmbH', { batchDate: '2026-11-02' })]);

  expect(await serialsUnder('o:spin master')).toEqual(['OWN-1']);
  expect(await serialsUnder('o:quexaroo toys')).toEqual(['OWN-2']);
});

it('a mark stored without its owner key is filed under it when ingested again, and only once', async () => {
  const record = mark('OWN-4', 'Glimmerfax', 'Quiet Plaintiff, Inc.');
  await store.upsertMarks([record]);
  // As a store loaded before owner keys: the record and its text keys, no owner key.
  await doc.send(
    new PutCommand({
      TableName: tables.marks,
      Item: {
        markId: 'US#OWN-4',
        batchDate: record.batchDate,
        contentHash: contentHashOf(record),
        lookupKeys: ['e:glimmerfax', 'p:glmrfks'],
        batchId: `${record.batchDate}#${record.source}`,
        record: JSON.stringify(record),
      },
    }),
  );
  await doc.send(new DeleteCommand({ TableName: tables.markKeys, Key: { lookupKey: 'US#o:quiet plaintiff' } }));
  expect(await serialsUnder('o:quiet plaintiff')).toEqual([]);

  const again = await store.upsertMarks([record]);
  const rerun = await store.upsertMarks([record]);

  expect(again).toMatchObject({ written: 1, unchanged: 0 });
  expect(await serialsUnder('o:quiet plaintiff')).toEqual(['OWN-4']);
  expect(await serialsUnder('e:glimmerfax')).toEqual(['OWN-4']);
  expect(rerun).toMatchObject({ written: 0, unchanged: 1 });
});
