/**
 * The DynamoDB mark store on DynamoDB Local: a key item shared by many marks across chunks, the size budget of a
 * key item, and items written in the earlier nested form (still read, rewritten in the packed form on change).
 * Keys that outgrow one item are covered in sharded-key-items.test.ts.
 */
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoDbMarkStore } from '../../../shared/adapters/aws/dynamodb-mark-store';
import { contentHashOf } from '../../../shared/adapters/aws/dynamodb-mark-batch-writer';
import {
  KEY_ITEM_BUDGET_BYTES,
  KeyItemTooLargeError,
  pack,
  packedParts,
} from '../../../shared/adapters/aws/mark-key-items';
import { lookupKeysOfMark } from '../../../shared/marks/lookup-keys';
import type { MarkRecord, StatusCategory } from '../../../shared/marks/mark-record';
import { markRecord, markTables } from '../../support/mark-records';

let doc: DynamoDBDocumentClient;
let tables: { marks: string; markKeys: string };
let store: DynamoDbMarkStore;

beforeAll(async () => {
  ({ doc, tables } = await markTables());
  store = new DynamoDbMarkStore(doc, tables);
});

afterAll(() => doc.destroy());

const mark = (serial: string, markText: string, overrides: Partial<MarkRecord> = {}): MarkRecord =>
  markRecord(serial, markText, { source: 'mark-store-test', ...overrides });

describe('a key shared by many marks', () => {
  it('holds every mark written under it, chunk after chunk, and a status change of one leaves the others alone', async () => {
    const serials = Array.from({ length: 1200 }, (_, i) => `SHARED-${i}`);
    for (let i = 0; i < serials.length; i += 500) {
      await store.upsertMarks(serials.slice(i, i + 500).map((s) => mark(s, 'Globnarrow')));
    }

    const dead = await store.upsertMarks([
      mark('SHARED-7', 'Globnarrow', {
        statusCode: '602',
        statusCategory: 'dead',
        isLive: false,
        batchDate: '2026-11-02',
      }),
    ]);
    const found = (await store.lookup('US', ['e:globnarrow'])).get('e:globnarrow')!;

    expect(dead).toMatchObject({ written: 1, unchanged: 0 });
    expect(found).toHaveLength(1200);
    expect(new Set(found.map((m) => m.serial))).toEqual(new Set(serials));
    expect(found.find((m) => m.serial === 'SHARED-7')).toMatchObject({ isLive: false, statusCategory: 'dead' });
    expect(found.filter((m) => m.isLive)).toHaveLength(1199);
  });

  it('a chunk that repeats what is stored writes nothing', async () => {
    const records = Array.from({ length: 30 }, (_, i) => mark(`AGAIN-${i}`, 'Vantorilke'));
    await store.upsertMarks(records);

    const again = await store.upsertMarks(records);

    expect(again).toMatchObject({ written: 0, unchanged: 30, stale: 0, keys: [] });
  });
});

describe('a dead record and its sounds-alike key', () => {
  it('leaves the key when it dies and joins it again when it lives, keeping its exact key throughout', async () => {
    const serials = (found: Map<string, { serial: string }[]>, key: string) =>
      (found.get(key) ?? []).map((m) => m.serial).sort();
    const keys = ['e:sprondelix', 'p:sprndlks'];
    await store.upsertMarks([mark('SOUND-1', 'Sprondelix'), mark('SOUND-2', 'Sprondelix')]);

    const died = await store.upsertMarks([
      mark('SOUND-2', 'Sprondelix', {
        statusCode: '602',
        statusCategory: 'dead',
        isLive: false,
        batchDate: '2026-11-02',
      }),
    ]);
    const whileDead = await store.lookup('US', keys);
    await store.upsertMarks([mark('SOUND-2', 'Sprondelix', { batchDate: '2026-11-03' })]);
    const alive = await store.lookup('US', keys);

    expect(died).toMatchObject({ written: 1 });
    expect(serials(whileDead, 'e:sprondelix')).toEqual(['SOUND-1', 'SOUND-2']);
    expect(serials(whileDead, 'p:sprndlks')).toEqual(['SOUND-1']);
    expect(serials(alive, 'p:sprndlks')).toEqual(['SOUND-1', 'SOUND-2']);
    expect((await store.getMark('US', 'SOUND-2'))!.lookupKeys.sort()).toEqual(keys);
  });

  it('files a record stored with its old keys again when the same content comes back (a re-ingest moves it)', async () => {
    const dead = mark('SOUND-3', 'Quorvantile', {
      statusCode: '602',
      statusCategory: 'dead',
      isLive: false,
    });
    // As the writer before dead records left their sounds-alike keys stored it: every key, that one included.
    await store.putMarks([
      {
        record: dead,
        state: {
          markId: 'US#SOUND-3',
          batchDate: dead.batchDate,
          contentHash: contentHashOf(dead),
          lookupKeys: lookupKeysOfMark(dead.markText),
        },
      },
    ]);
    await store.writeKeyChanges(['US#e:quorvantile', 'US#p:krvntl'], () => ({
      absent: true,
      leaving: [],
      joining: [[dead.serial, pack(dead)]],
    }));
    const before = await store.lookup('US', ['p:krvntl']);

    const again = await store.upsertMarks([dead]);

    expect(before.get('p:krvntl')?.map((m) => m.serial)).toEqual(['SOUND-3']);
    expect(again).toMatchObject({ written: 1, unchanged: 0 });
    expect((await store.lookup('US', ['p:krvntl'])).get('p:krvntl')).toBeUndefined();
    expect((await store.lookup('US', ['e:quorvantile'])).get('e:quorvantile')?.map((m) => m.serial)).toEqual([
      'SOUND-3',
    ]);
    expect((await store.getMark('US', 'SOUND-3'))!.lookupKeys).toEqual(['e:quorvantile']);
  });
});

describe("a mark's owner", () => {
  it("is filed with the mark as a short tag, the same for each spelling of one owner's name, and read back by lookup", async () => {
    await store.upsertMarks([
      mark('OWNED-1', 'Quillorant', { owner: 'Quillorant Brands, Inc.', niceClasses: ['28'] }),
      mark('OWNED-2', 'Quillorant', { owner: 'QUILLORANT BRANDS INC', niceClasses: ['09'] }),
      mark('OWNED-3', 'Quillorant', { owner: 'Another Quillorant LLC' }),
      mark('OWNED-4', 'Quillorant'),
    ]);

    const found = (await store.lookup('US', ['e:quillorant'])).get('e:quillorant')!;
    const owner = Object.fromEntries(found.map((m) => [m.serial, m.owner]));

    expect(owner['OWNED-1']).toMatch(/^[0-9a-z]{1,7}$/);
    expect(owner['OWNED-2']).toBe(owner['OWNED-1']);
    expect(owner['OWNED-3']).not.toBe(owner['OWNED-1']);
    expect(owner['OWNED-4']).toBeUndefined();
  });
});

describe('the size budget of a key item', () => {
  const summaries = (statuses: StatusCategory[]) =>
    new Map(
      statuses.map((s, i) => [
        `S${i}`,
        ['Some mark text', ['09'], s, 'word'] as [string, string[], StatusCategory, 'word'],
      ]),
    );
  const statusesOf = (parts: string[]) =>
    parts.flatMap((part) =>
      Object.values(JSON.parse(part) as Record<string, [string, string[], StatusCategory]>).map((s) => s[2]),
    );
  const statuses: StatusCategory[] = [
    ...Array(20).fill('registered'),
    ...Array(20).fill('dead'),
    ...Array(20).fill('pending'),
  ];
  const one = Buffer.byteLength(JSON.stringify({ S10: ['Some mark text', ['09'], 'registered', 'word'] }));

  it('keeps an item within budget untouched', () => {
    const parts = packedParts('US#e:some', summaries(['registered', 'dead', 'pending']));

    expect(parts).toHaveLength(1);
    expect(Object.keys(JSON.parse(parts[0]!))).toEqual(['S0', 'S1', 'S2']);
  });

  it('over budget: spreads the marks over more items, each within budget, dropping none', () => {
    const parts = packedParts('US#e:some', summaries(statuses), { budgetBytes: one * 25, maxParts: 16 });

    expect(parts.length).toBeGreaterThanOrEqual(3);
    for (const part of parts) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(one * 25);
    expect(statusesOf(parts)).toHaveLength(60);
  });

  it('past the cap of items: dead marks go first, then pending ones; a live registration is never dropped', () => {
    const withoutDead = packedParts('US#e:some', summaries(statuses), { budgetBytes: one * 45, maxParts: 1 });
    const liveOnly = packedParts('US#e:some', summaries(statuses), { budgetBytes: one * 25, maxParts: 1 });

    expect(statusesOf(withoutDead).sort()).toEqual([...Array(20).fill('pending'), ...Array(20).fill('registered')]);
    expect(statusesOf(liveOnly)).toEqual(Array(20).fill('registered'));
  });

  it('live marks beyond the cap of items: an error naming the key, rather than an item too big or a live mark left out', () => {
    const pack = () => packedParts('US#p:smmrktkst', summaries(statuses), { budgetBytes: one * 10, maxParts: 1 });

    expect(pack).toThrow(KeyItemTooLargeError);
    expect(pack).toThrow(/US#p:smmrktkst holds 20 live marks/);
  });

  it('a real key item stays under the budget', async () => {
    await store.upsertMarks(Array.from({ length: 300 }, (_, i) => mark(`BUDGET-${i}`, 'Quillimbard')));

    const item = (
      await doc.send(new GetCommand({ TableName: tables.markKeys, Key: { lookupKey: 'US#e:quillimbard' } }))
    ).Item!;

    expect(Object.keys(item).sort()).toEqual(['lookupKey', 'summaries']);
    expect(Buffer.byteLength(item.summaries as string)).toBeLessThan(KEY_ITEM_BUDGET_BYTES);
  });
});

describe('items written in the earlier nested form', () => {
  beforeAll(async () => {
    await doc.send(
      new PutCommand({
        TableName: tables.markKeys,
        Item: {
          lookupKey: 'US#e:oldformia',
          marks: {
            'OLD-1': { m: 'Oldformia', n: ['03'], s: 'registered', d: 'word' },
            'OLD-2': { m: 'OLDFORMIA', n: [], s: 'dead', d: 'design' },
          },
        },
      }),
    );
    const old2 = mark('OLD-2', 'OLDFORMIA', {
      niceClasses: [],
      statusCode: '602',
      statusCategory: 'dead',
      isLive: false,
      drawingKind: 'design',
    });
    await doc.send(
      new PutCommand({
        TableName: tables.marks,
        Item: { ...old2, markId: 'US#OLD-2', contentHash: 'from-before', lookupKeys: ['e:oldformia'] },
      }),
    );
  });

  it('are read by lookup and getMark', async () => {
    const found = (await store.lookup('US', ['e:oldformia'])).get('e:oldformia')!;
    const old2 = await store.getMark('US', 'OLD-2');

    expect(found).toEqual(
      expect.arrayContaining([
        {
          serial: 'OLD-1',
          markText: 'Oldformia',
          niceClasses: ['03'],
          isLive: true,
          statusCategory: 'registered',
          drawingKind: 'word',
        },
        {
          serial: 'OLD-2',
          markText: 'OLDFORMIA',
          niceClasses: [],
          isLive: false,
          statusCategory: 'dead',
          drawingKind: 'design',
        },
      ]),
    );
    expect(old2).toMatchObject({
      serial: 'OLD-2',
      markText: 'OLDFORMIA',
      statusCategory: 'dead',
      lookupKeys: ['e:oldformia'],
    });
  });

  it('a change rewrites the key item packed, keeping the marks it already held', async () => {
    await store.upsertMarks([mark('OLD-2', 'Oldformia', { batchDate: '2026-11-03' })]);

    const item = (await doc.send(new GetCommand({ TableName: tables.markKeys, Key: { lookupKey: 'US#e:oldformia' } })))
      .Item!;
    const found = (await store.lookup('US', ['e:oldformia'])).get('e:oldformia')!;

    expect(item.marks).toBeUndefined();
    expect(typeof item.summaries).toBe('string');
    expect(found.map((m) => [m.serial, m.isLive]).sort()).toEqual([
      ['OLD-1', true],
      ['OLD-2', true],
    ]);
    expect(await store.getMark('US', 'OLD-2')).toMatchObject({
      markText: 'Oldformia',
      batchDate: '2026-11-03',
      isLive: true,
    });
  });
});
