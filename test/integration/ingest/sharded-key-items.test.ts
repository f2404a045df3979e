/**
 * Lookup keys that outgrow one DynamoDB item (DynamoDB Local): a key shared by more marks than one item holds is
 * spread over its base item and overflow items. Most cases use a small injected budget so that a few hundred marks
 * need several items; one writes a real-size key past 400 KB with the default budget.
 *
 * The interrupted-write and racing-reader cases wrap the AWS SDK client to fail, or to let a writer in, at one chosen
 * call: that is the only way to stop a write at an exact point. Everything else is the real client on DynamoDB Local.
 *
 * Over 400 lines on purpose: one mechanism (sharded key items), its cases sharing one table set.
 */
import {
  BatchGetCommand,
  BatchWriteCommand,
  PutCommand,
  paginateScan,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { DynamoDbMarkStore } from '../../../shared/adapters/aws/dynamodb-mark-store';
import { KEY_ITEM_BUDGET_BYTES, KeyItemTooLargeError } from '../../../shared/adapters/aws/mark-key-items';
import { phoneticKey } from '../../../shared/marks/lookup-keys';
import type { MarkRecord } from '../../../shared/marks/mark-record';
import type { MarkSummary } from '../../../shared/ports';
import { markRecord, markTables } from '../../support/mark-records';

const SMALL_BUDGET = 2_000;

let doc: DynamoDBDocumentClient;
let tables: { marks: string; markKeys: string };
let store: DynamoDbMarkStore;

beforeAll(async () => {
  ({ doc, tables } = await markTables());
  store = new DynamoDbMarkStore(doc, tables, { keyItemBudgetBytes: SMALL_BUDGET });
});

afterAll(() => doc.destroy());

const mark = (serial: string, markText: string, overrides: Partial<MarkRecord> = {}): MarkRecord =>
  markRecord(serial, markText, { source: 'sharded-key-test', ...overrides });

const dead = { statusCode: '602', statusCategory: 'dead', isLive: false } as const;

/** Vowel runs of one to three letters: between fixed consonants they change the text, never the phonetic key. */
const VOWEL_RUNS: string[] = [];
(function grow(run: string) {
  if (run) VOWEL_RUNS.push(run);
  if (run.length < 3) for (const v of 'aeiou') if (!run.endsWith(v)) grow(run + v);
})('');

/**
 * `count` marks with distinct texts that all share one phonetic key: the consonants of `frame`, vowels between; each
 * of 7 letters or more, as only those are filed under a phonetic key (lookupKeysOfMark).
 */
function family(
  frame: string,
  count: number,
  serialPrefix: string,
  overrides: Partial<MarkRecord> = {},
): { key: string; records: MarkRecord[] } {
  const records: MarkRecord[] = [];
  for (let i = 0; records.length < count; i++) {
    let n = i;
    let text = '';
    for (const consonant of frame) {
      text += consonant + VOWEL_RUNS[n % VOWEL_RUNS.length];
      n = Math.floor(n / VOWEL_RUNS.length);
    }
    if (text.length < 7) continue;
    const serial = `${serialPrefix}-${String(records.length).padStart(5, '0')}`;
    records.push(mark(serial, text[0]!.toUpperCase() + text.slice(1), overrides));
  }
  const key = phoneticKey(records[0]!.markText)!;
  for (const r of records) if (phoneticKey(r.markText) !== key) throw new Error(`${r.markText} is not under ${key}`);
  return { key, records };
}

async function upsertInChunks(target: DynamoDbMarkStore, records: readonly MarkRecord[], size: number): Promise<void> {
  for (let i = 0; i < records.length; i += size) await target.upsertMarks(records.slice(i, i + size));
}

/** Every item of one key as stored: its base item and any overflow item, whatever generation. */
async function itemsOfKey(key: string): Promise<Record<string, unknown>[]> {
  const base = `US#${key}`;
  const items: Record<string, unknown>[] = [];
  const pages = paginateScan(
    { client: doc },
    {
      TableName: tables.markKeys,
      ConsistentRead: true,
      FilterExpression: 'lookupKey = :base OR begins_with(lookupKey, :overflow)',
      ExpressionAttributeValues: { ':base': base, ':overflow': `${base}#` },
    },
  );
  for await (const page of pages) items.push(...(page.Items ?? []));
  return items.sort((a, b) => String(a.lookupKey).localeCompare(String(b.lookupKey)));
}

/** The items a key should have and nothing else: its base, and the overflow items of the base's generation. */
function expectedKeysOf(key: string, base: Record<string, unknown>): string[] {
  const parts = (base.parts as number | undefined) ?? 1;
  return [`US#${key}`, ...Array.from({ length: parts - 1 }, (_, i) => `US#${key}#${base.gen as number}.${i + 1}`)].sort(
    (a, b) => a.localeCompare(b),
  );
}

const summaryOf = (r: MarkRecord): MarkSummary => ({
  serial: r.serial,
  markText: r.markText,
  niceClasses: r.niceClasses,
  isLive: r.isLive,
  statusCategory: r.statusCategory,
  drawingKind: r.drawingKind,
});

async function marksUnder(key: string, from: DynamoDbMarkStore = store): Promise<MarkSummary[]> {
  return ((await from.lookup('US', [key])).get(key) ?? []).sort((a, b) => a.serial.localeCompare(b.serial));
}

const bySerial = (records: readonly MarkRecord[]) =>
  records.map(summaryOf).sort((a, b) => a.serial.localeCompare(b.serial));

/** The document client, with `before` run ahead of each call it sends (to fail it, or to let another writer in). */
function interceptedClient(before: (command: unknown) => void | Promise<void>): DynamoDBDocumentClient {
  return new Proxy(doc, {
    get(target, property, receiver) {
      if (property !== 'send') return Reflect.get(target, property, receiver);
      return async (command: unknown) => {
        await before(command);
        return (target.send as (c: unknown) => Promise<unknown>).call(target, command);
      };
    },
  });
}

type KeyWriteRequest = { PutRequest?: { Item: { lookupKey: string } }; DeleteRequest?: { Key: { lookupKey: string } } };

/** A store whose connection is lost at the first key-item write that `matches`. */
function storeFailingAt(matches: (request: KeyWriteRequest) => boolean): DynamoDbMarkStore {
  const client = interceptedClient((command) => {
    if (!(command instanceof BatchWriteCommand)) return;
    const requests = (command.input.RequestItems?.[tables.markKeys] ?? []) as KeyWriteRequest[];
    if (requests.some(matches)) throw new Error('connection lost');
  });
  return new DynamoDbMarkStore(client, tables, { keyItemBudgetBytes: SMALL_BUDGET });
}

describe('a key shared by more marks than one item holds', () => {
  it('is spread over its base item and overflow items, each within budget, and lookup returns every mark', async () => {
    const { key, records } = family('vld', 200, 'SPREAD');

    await upsertInChunks(store, records, 60);

    const items = await itemsOfKey(key);
    const base = items.find((item) => item.lookupKey === `US#${key}`)!;
    expect(Object.keys(base).sort()).toEqual(['gen', 'lookupKey', 'parts', 'summaries']);
    expect(base.parts).toBeGreaterThanOrEqual(3);
    expect(items.map((item) => item.lookupKey)).toEqual(expectedKeysOf(key, base));
    for (const item of items) expect(Buffer.byteLength(item.summaries as string)).toBeLessThanOrEqual(SMALL_BUDGET);
    expect(await marksUnder(key)).toEqual(bySerial(records));
  });

  it('is found in one lookup with unsharded and absent keys, as an unsharded store would answer', async () => {
    const { key, records } = family('mlf', 150, 'MIXED');
    await store.upsertMarks(records);
    const roomy = new DynamoDbMarkStore(doc, tables);
    const one = records[42]!;
    const exact = `e:${one.markText.toLowerCase()}`;

    const found = await store.lookup('US', [key, exact, 'e:nothingfiledhere', key]);

    expect([...found.keys()].sort()).toEqual([key, exact].sort());
    expect(found.get(key)!.sort((a, b) => a.serial.localeCompare(b.serial))).toEqual(bySerial(records));
    expect(found.get(exact)).toEqual([summaryOf(one)]);
    // A store with the default budget reads the same items and gives the same answer.
    expect(await marksUnder(key, roomy)).toEqual(bySerial(records));
  });

  it('is yielded once by allKeys, and no overflow item is', async () => {
    const { key, records } = family('gdm', 120, 'KEYS');
    await store.upsertMarks(records);
    expect((await itemsOfKey(key)).length).toBeGreaterThanOrEqual(3);

    const keys: string[] = [];
    for await (const k of store.allKeys('US')) keys.push(k);

    expect(keys.filter((k) => k === key)).toHaveLength(1);
    expect(keys.filter((k) => k.includes('#'))).toEqual([]);
    expect(keys).toEqual(expect.arrayContaining(records.map((r) => `e:${r.markText.toLowerCase()}`)));
  });

  it('written again with the same records: nothing is written and every item stays as it was', async () => {
    const { key, records } = family('rnv', 180, 'AGAIN');
    await upsertInChunks(store, records, 90);
    const before = await itemsOfKey(key);

    const again = await store.upsertMarks(records);

    expect(again).toMatchObject({ written: 0, unchanged: 180, stale: 0 });
    expect(await itemsOfKey(key)).toEqual(before);
  });

  it('a change that leaves every summary as it was rewrites none of the key items', async () => {
    const { key, records } = family('rvd', 150, 'OWNER');
    await store.upsertMarks(records);
    const before = await itemsOfKey(key);

    const result = await store.upsertMarks(
      records.slice(0, 5).map((r) => ({ ...r, filingDate: '2020-01-02', batchDate: '2026-11-02' })),
    );

    expect(result).toMatchObject({ written: 5 });
    expect(await itemsOfKey(key)).toEqual(before);
  });

  it('a mark that leaves by a text change, and one that goes dead, are reflected; the previous generation is deleted', async () => {
    const { key, records } = family('bdn', 200, 'LEAVE');
    await store.upsertMarks(records);
    const genBefore = (await itemsOfKey(key)).find((item) => item.lookupKey === `US#${key}`)!.gen as number;
    const renamed = { ...records[10]!, markText: 'Zephyrquill', batchDate: '2026-11-02' };
    const expired = { ...records[150]!, ...dead, batchDate: '2026-11-02' };

    await store.upsertMarks([renamed, expired]);

    // A dead record leaves its sounds-alike keys (lookupKeysOfRecord); it stays under its exact key.
    const found = await marksUnder(key);
    expect(found).toHaveLength(198);
    expect(found.find((m) => m.serial === renamed.serial)).toBeUndefined();
    expect(found.find((m) => m.serial === expired.serial)).toBeUndefined();
    expect(found.every((m) => m.isLive)).toBe(true);
    const exact = `e:${expired.markText.toLowerCase()}`;
    expect((await store.lookup('US', [exact])).get(exact)).toMatchObject([
      { serial: expired.serial, statusCategory: 'dead' },
    ]);
    expect((await store.lookup('US', ['e:zephyrquill'])).get('e:zephyrquill')).toEqual([summaryOf(renamed)]);
    const items = await itemsOfKey(key);
    const base = items.find((item) => item.lookupKey === `US#${key}`)!;
    expect(base.gen).toBe(genBefore + 1);
    expect(items.map((item) => item.lookupKey)).toEqual(expectedKeysOf(key, base));
  });

  it('shrinks back to one item, deleting its overflow items, and is deleted when its last mark leaves', async () => {
    const { key, records } = family('pnt', 160, 'SHRINK');
    await store.upsertMarks(records);
    expect((await itemsOfKey(key)).length).toBeGreaterThanOrEqual(3);
    const moved = (r: MarkRecord, i: number, batchDate: string) => ({ ...r, markText: `Kwokx ${i}`, batchDate });

    await store.upsertMarks(records.slice(10).map((r, i) => moved(r, i, '2026-11-02')));

    const shrunk = await itemsOfKey(key);
    expect(shrunk.map((item) => item.lookupKey)).toEqual([`US#${key}`]);
    expect(shrunk[0]!.parts).toBeUndefined();
    expect(await marksUnder(key)).toEqual(bySerial(records.slice(0, 10)));

    // The next write of the key, having seen the overflow items gone, leaves it exactly as an ordinary key item.
    await store.upsertMarks([{ ...records[0]!, ...dead, batchDate: '2026-11-03' }]);
    expect(Object.keys((await itemsOfKey(key))[0]!).sort()).toEqual(['lookupKey', 'summaries']);

    await store.upsertMarks(records.slice(0, 10).map((r, i) => moved(r, 1000 + i, '2026-11-04')));
    expect(await itemsOfKey(key)).toEqual([]);
    expect((await store.lookup('US', [key])).has(key)).toBe(false);
  });

  it('a sharded key emptied in one write leaves no item behind', async () => {
    const { key, records } = family('tmb', 130, 'EMPTY');
    await store.upsertMarks(records);
    expect((await itemsOfKey(key)).length).toBeGreaterThanOrEqual(3);

    await store.upsertMarks(records.map((r, i) => ({ ...r, markText: `Qwfq ${i}`, batchDate: '2026-11-02' })));

    expect(await itemsOfKey(key)).toEqual([]);
  });
});

describe('the cap on items per key', () => {
  it('past the cap, dead marks are left out of the key and every live one is kept', async () => {
    const capped = new DynamoDbMarkStore(doc, tables, { keyItemBudgetBytes: SMALL_BUDGET, maxKeyItemParts: 2 });
    const live = family('lmb', 60, 'CAPLIVE').records;
    const gone = family('lmb', 120, 'CAPDEAD', dead).records.slice(60);
    const { key } = family('lmb', 1, 'X');

    await capped.upsertMarks([...live, ...gone]);

    expect(await marksUnder(key)).toEqual(bySerial(live));
    expect((await itemsOfKey(key)).length).toBeLessThanOrEqual(2);
  });

  it('live marks beyond the cap: the write fails naming the key and leaves the key as it was', async () => {
    const capped = new DynamoDbMarkStore(doc, tables, { keyItemBudgetBytes: SMALL_BUDGET, maxKeyItemParts: 3 });
    const { key, records } = family('fng', 300, 'OVERCAP');
    await capped.upsertMarks(records.slice(0, 80));
    const before = await itemsOfKey(key);

    const write = capped.upsertMarks(records.slice(80));

    await expect(write).rejects.toThrow(KeyItemTooLargeError);
    await expect(write).rejects.toThrow(`US#${key}`);
    expect(await itemsOfKey(key)).toEqual(before);
    expect(await capped.getMark('US', records[200]!.serial)).toBeUndefined();
  });
});

describe('an interrupted write of a sharded key', () => {
  it('cut before its base item is written: readers still see every mark as before; the re-run converges', async () => {
    const { key, records } = family('krp', 200, 'CUTBEFORE');
    await store.upsertMarks(records);
    const change = [
      { ...records[3]!, markText: 'Oxbowlyth', batchDate: '2026-11-02' },
      mark('CUTBEFORE-NEW', 'Kaaruupee', { batchDate: '2026-11-02' }),
    ];
    const after = [...records.filter((r) => r.serial !== records[3]!.serial), change[1]!];
    const genBefore = (await itemsOfKey(key)).find((item) => item.lookupKey === `US#${key}`)!.gen as number;

    const cut = storeFailingAt((r) => r.PutRequest?.Item.lookupKey === `US#${key}`);
    await expect(cut.upsertMarks(change)).rejects.toThrow('connection lost');

    expect(await marksUnder(key)).toEqual(bySerial(records));
    expect(
      (await itemsOfKey(key)).some((item) => String(item.lookupKey).startsWith(`US#${key}#${genBefore + 1}.`)),
    ).toBe(true);

    const rerun = await store.upsertMarks(change);

    expect(rerun).toMatchObject({ written: 2 });
    expect(await marksUnder(key)).toEqual(bySerial(after));
    const items = await itemsOfKey(key);
    expect(items.map((item) => item.lookupKey)).toEqual(
      expectedKeysOf(key, items.find((item) => item.lookupKey === `US#${key}`)!),
    );
  });

  it('cut after its base item is written: readers see every mark of the new state; the re-run deletes what is left', async () => {
    const { key, records } = family('frt', 200, 'CUTAFTER');
    await store.upsertMarks(records);
    const change = [
      { ...records[7]!, ...dead, batchDate: '2026-11-02' },
      mark('CUTAFTER-NEW', 'Fuuroottee', { batchDate: '2026-11-02' }),
    ];
    // The record gone dead leaves the sounds-alike key (lookupKeysOfRecord).
    const after = [...records.filter((r) => r.serial !== change[0]!.serial), change[1]!];
    const genBefore = (await itemsOfKey(key)).find((item) => item.lookupKey === `US#${key}`)!.gen as number;

    const cut = storeFailingAt((r) => r.DeleteRequest?.Key.lookupKey.startsWith(`US#${key}#${genBefore}.`) === true);
    await expect(cut.upsertMarks(change)).rejects.toThrow('connection lost');

    expect(await marksUnder(key)).toEqual(bySerial(after));
    expect((await itemsOfKey(key)).some((item) => String(item.lookupKey).startsWith(`US#${key}#${genBefore}.`))).toBe(
      true,
    );

    const rerun = await store.upsertMarks(change);

    expect(rerun).toMatchObject({ written: 2 });
    expect(await marksUnder(key)).toEqual(bySerial(after));
    const items = await itemsOfKey(key);
    const base = items.find((item) => item.lookupKey === `US#${key}`)!;
    expect(base.gen).toBe(genBefore + 1);
    expect(items.map((item) => item.lookupKey)).toEqual(expectedKeysOf(key, base));
  });
});

describe('a lookup racing a rewrite of the key', () => {
  it('whose overflow items were replaced between its two rounds reads the key again and misses no mark', async () => {
    const { key, records } = family('sltr', 200, 'RACE');
    await store.upsertMarks(records);
    const joining = mark('RACE-NEW', 'Salutare', { batchDate: '2026-11-02' });
    let writerLetIn = false;
    let reads = 0;
    const reader = new DynamoDbMarkStore(
      interceptedClient(async (command) => {
        if (!(command instanceof BatchGetCommand)) return;
        reads++;
        const keys = (command.input.RequestItems?.[tables.markKeys]?.Keys ?? []) as { lookupKey: string }[];
        if (!writerLetIn && keys.some((k) => k.lookupKey.startsWith(`US#${key}#`))) {
          writerLetIn = true;
          await store.upsertMarks([joining]);
        }
      }),
      tables,
    );

    const found = await marksUnder(key, reader);

    expect(writerLetIn).toBe(true);
    expect(reads).toBeGreaterThanOrEqual(4);
    expect(found).toEqual(bySerial([...records, joining]));
  });
});

describe('items in the forms written before keys were sharded', () => {
  it('a nested-form key that outgrows one item keeps its marks; a lookup reads every form at once', async () => {
    const { key, records } = family('wlk', 150, 'NESTED');
    const nested = records.slice(0, 20);
    await doc.send(
      new PutCommand({
        TableName: tables.markKeys,
        Item: {
          lookupKey: `US#${key}`,
          marks: Object.fromEntries(
            nested.map((r) => [r.serial, { m: r.markText, n: r.niceClasses, s: r.statusCategory, d: r.drawingKind }]),
          ),
        },
      }),
    );
    const plain = mark('PLAIN-1', 'Plainformix');
    await doc.send(
      new PutCommand({
        TableName: tables.markKeys,
        Item: {
          lookupKey: 'US#e:plainformix',
          summaries: JSON.stringify({ [plain.serial]: [plain.markText, plain.niceClasses, 'registered', 'word'] }),
        },
      }),
    );
    const old = mark('OLDNEST-1', 'Oldnestor', { niceClasses: ['03'] });
    await doc.send(
      new PutCommand({
        TableName: tables.markKeys,
        Item: {
          lookupKey: 'US#e:oldnestor',
          marks: { [old.serial]: { m: old.markText, n: ['03'], s: 'registered', d: 'word' } },
        },
      }),
    );

    await store.upsertMarks(records.slice(20));
    const found = await store.lookup('US', [key, 'e:plainformix', 'e:oldnestor']);

    expect((await itemsOfKey(key)).length).toBeGreaterThanOrEqual(3);
    expect(found.get(key)!.sort((a, b) => a.serial.localeCompare(b.serial))).toEqual(bySerial(records));
    expect(found.get('e:plainformix')).toEqual([summaryOf(plain)]);
    expect(found.get('e:oldnestor')).toEqual([summaryOf(old)]);
  });
});

describe('a real-size key with the default budget', () => {
  it('8,000 live marks under one phonetic key (over 400 KB of summaries) are all written and all found', async () => {
    const roomy = new DynamoDbMarkStore(doc, tables);
    const { key, records } = family('bt', 8_000, 'REAL', { niceClasses: ['03', '09', '25'] });
    expect(key).toBe('p:bt');

    await upsertInChunks(roomy, records, 2_000);

    const items = await itemsOfKey(key);
    const sizes = items.map((item) => Buffer.byteLength(item.summaries as string));
    expect(sizes.reduce((a, b) => a + b, 0)).toBeGreaterThan(400 * 1024);
    expect(items.length).toBeGreaterThanOrEqual(2);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(KEY_ITEM_BUDGET_BYTES);
    expect(items.map((item) => item.lookupKey)).toEqual(
      expectedKeysOf(key, items.find((item) => item.lookupKey === `US#${key}`)!),
    );
    const found = await marksUnder(key, roomy);
    expect(found).toHaveLength(8_000);
    expect(found).toEqual(bySerial(records));
  }, 180_000);
});
