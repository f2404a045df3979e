/**
 * Screening over a lookup key spread across several items (real ingest and screening, DynamoDB Local): a misspelled
 * brand that only its phonetic key finds, when that key is shared by hundreds of marks and the brand's summary sits
 * in an overflow item. The mark store is built with a small key-item budget so that a few hundred marks need several
 * items; the market's key filter is rebuilt from the store's keys by the ingest itself.
 */
import { Readable } from 'node:stream';
import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDynamoDbClients } from '../../../shared/adapters/aws/dynamodb-client';
import { DynamoDbMarkStore } from '../../../shared/adapters/aws/dynamodb-mark-store';
import { buildDataStores } from '../../../shared/composition/data-stores';
import { ingestBatch, type IngestRequest, type IngestStores } from '../../../shared/ingest/ingest-batch';
import { phoneticKey } from '../../../shared/marks/lookup-keys';
import { createScreeningService } from '../../../shared/screening/screening-service';
import { createTestStack } from '../../support/test-stack';

const FILLERS = 300;
/** Ten letters: a misspelling of it two edits off is looked for by its phonetic key (p:), as the fillers are filed. */
const TARGET = { serial: 'ZZ-TARGET', mark: 'Valdoraina', is_live: true, nice: [25], drawing_kind: 'word' };

let doc: DynamoDBDocumentClient;
let markKeysTable: string;
let stores: IngestStores;

/** Marks sharing the phonetic key of "Valdoraina" whose texts are too far from it to be confused with it. */
function fillers(): object[] {
  const runs: string[] = [];
  for (const a of 'aeiou')
    for (const b of 'aeiou') for (const c of 'aeiou') if (a !== b && b !== c) runs.push(a + b + c);
  return Array.from({ length: FILLERS }, (_, i) => {
    let n = i;
    let text = '';
    for (const consonant of 'vldrn') {
      text += consonant + runs[n % runs.length];
      n = Math.floor(n / runs.length);
    }
    return {
      serial: `FILL-${String(i).padStart(5, '0')}`,
      mark: text[0]!.toUpperCase() + text.slice(1),
      is_live: true,
      nice: [25],
      drawing_kind: 'word',
    };
  });
}

const batch = (): IngestRequest => ({
  kind: 'marks-jsonl',
  market: 'US',
  batchDate: '2026-11-10',
  source: 'sharded-key.jsonl',
  holder: 'sharded-key-test',
  input: Readable.from([[...fillers(), TARGET].map((line) => JSON.stringify(line)).join('\n')]),
});

beforeAll(async () => {
  const { config } = await createTestStack();
  doc = createDynamoDbClients({ region: config.region, endpoint: config.dynamoDbEndpoint }).doc;
  markKeysTable = config.tables['mark-keys'];
  stores = {
    ...buildDataStores(config, doc),
    marks: new DynamoDbMarkStore(
      doc,
      { marks: config.tables.marks, markKeys: markKeysTable },
      { keyItemBudgetBytes: 2_000 },
    ),
  };
  const first = await ingestBatch(stores, batch());
  expect(first).toMatchObject({ complete: true, written: FILLERS + 1, rejected: 0 });
});

afterAll(() => doc.destroy());

it('the key is spread over several items, and the brand is in one of its overflow items', async () => {
  expect(fillers().every((f) => phoneticKey((f as { mark: string }).mark) === 'p:vldrn')).toBe(true);
  expect(phoneticKey(TARGET.mark)).toBe('p:vldrn');

  const base = (
    await doc.send(new GetCommand({ TableName: markKeysTable, Key: { lookupKey: 'US#p:vldrn' }, ConsistentRead: true }))
  ).Item!;

  expect(base.parts).toBeGreaterThanOrEqual(3);
  expect(base.summaries).not.toContain(TARGET.serial);
});

it('the key filter built by ingest counts each key once, not each item', async () => {
  const filter = await stores.keyFilters.load('US');

  // Every mark's exact key, and the one phonetic key they share (none is short enough for d: keys).
  expect(filter?.count).toBe(FILLERS + 2);
  expect(filter?.mightContain('p:vldrn')).toBe(true);
});

it('a misspelling of the brand is found through the shared phonetic key', async () => {
  const screening = createScreeningService(stores);

  const { results } = await screening.screen([{ title: 'Valdoreyna running shoes for men', nice: '25' }], {
    detail: true,
  });

  expect(results[0]!.top_conflict).toBe('Valdoraina');
  expect(results[0]!.conflicts).toEqual([expect.objectContaining({ serial: TARGET.serial, match: 'fuzzy' })]);
});

it('running the same batch again changes nothing', async () => {
  const before = (
    await doc.send(new GetCommand({ TableName: markKeysTable, Key: { lookupKey: 'US#p:vldrn' }, ConsistentRead: true }))
  ).Item;

  const again = await ingestBatch(stores, batch());

  expect(again).toMatchObject({ complete: true, written: 0, unchanged: FILLERS + 1 });
  expect(
    (
      await doc.send(
        new GetCommand({ TableName: markKeysTable, Key: { lookupKey: 'US#p:vldrn' }, ConsistentRead: true }),
      )
    ).Item,
  ).toEqual(before);
});
