/**
 * A mark batch that completes is screened against within twice the refresh interval (4 s by default, so within
 * 10 s): the TRO list, the key filters and each cached lookup key are trusted only that long. Time is moved by
 * hand (Date.now), so the test waits for nothing.
 */
import { Readable } from 'node:stream';
import { ingestBatch } from '../../../shared/ingest/ingest-batch';
import { DEFAULT_REFRESH_MS } from '../../../shared/screening/screening-service';
import { TitleScreener } from '../../../shared/screening/screen-titles';
import { TroIndex } from '../../../shared/screening/tro-index';
import { createInMemoryScreening, type InMemoryScreening } from '../../support/in-memory-screening';

const TITLE = 'Zorblaxa Wireless Earbuds with Charging Case';
let now = Date.now();
let corpus: InMemoryScreening;

beforeAll(async () => {
  corpus = await createInMemoryScreening();
}, 60_000);

beforeEach(() => {
  jest.spyOn(Date, 'now').mockImplementation(() => now);
});

afterEach(() => {
  jest.restoreAllMocks();
});

async function registerZorblaxa(): Promise<void> {
  const line = JSON.stringify({
    serial: 'FRESH-000001',
    mark: 'Zorblaxa',
    nice: [9],
    is_live: true,
    drawing_kind: 'word',
  });
  const summary = await ingestBatch(corpus.stores, {
    kind: 'marks-jsonl',
    market: 'US',
    input: Readable.from([`${line}\n`]),
    batchDate: '2026-11-25',
    source: 'fresh-batch',
    holder: 'fresh-data-test',
  });
  expect(summary.complete).toBe(true);
}

it('screens against a completed batch within twice the refresh interval, and within 10 s', async () => {
  const screen = async () => (await corpus.screening.screen([{ title: TITLE }], {})).results[0]!;
  expect(await screen()).toMatchObject({ risk: '低', top_conflict: '' });

  await registerZorblaxa();
  const seenAfter: number[] = [];
  const started = now;
  for (let step = 0; step <= 20; step++) {
    now = started + step * 500;
    if ((await screen()).top_conflict === 'Zorblaxa') seenAfter.push(now - started);
  }

  expect(DEFAULT_REFRESH_MS).toBeLessThanOrEqual(5_000);
  expect(seenAfter.length).toBeGreaterThan(0);
  expect(seenAfter[0]).toBeLessThanOrEqual(Math.min(2 * DEFAULT_REFRESH_MS, 10_000));
  // Once seen, always seen.
  expect(seenAfter).toEqual(Array.from({ length: seenAfter.length }, (_, i) => seenAfter[0]! + i * 500));
});

it('sees a brand that joins the TRO list at the next refresh, in a title already known to match nothing', async () => {
  const title = 'Quoxilent Ceramic Coffee Mug';
  const screen = async (t: string) => (await corpus.screening.screen([{ title: t }], {})).results[0]!;
  // The TRO list is read afresh at `loaded`; the title's keys are fetched later, so they are still fresh when the
  // list is read again: only the new list can tell that the title now names a TRO brand.
  const loaded = now + 60_000;
  now = loaded;
  await screen('Plain Ceramic Coffee Mug');
  now = loaded + DEFAULT_REFRESH_MS / 2;
  expect(await screen(title)).toMatchObject({ risk: '低', top_conflict: '' });
  // Screened again: the run is now known to match nothing and is not looked at again.
  expect(await screen(title)).toMatchObject({ risk: '低', top_conflict: '' });

  await corpus.stores.tro.upsert(
    [
      {
        brand: 'Quoxilent',
        plaintiffs: ['Quoxilent Ltd'],
        caseCount: 1,
        caseNumbers: ['1:26-cv-00001'],
        courts: ['N.D. Ill.'],
        sources: ['fresh-data test'],
        checkedAgainstDocket: false,
      },
    ],
    '2026-11-26',
  );
  now = loaded + DEFAULT_REFRESH_MS + 1;
  expect(await screen(title)).toMatchObject({ risk: '高', tro_hit: true, top_conflict: 'Quoxilent' });
});

it('judges batches that overlap a change of TRO list each against the list it was given', async () => {
  // A screener over the sample marks whose TRO list is handed out by the test: batches B and C are analysed while
  // the next list is still being read (each sets aside the run that matched nothing under the old list), and both
  // must see the brand the new list adds.
  const stores = corpus.stores;
  let current = Promise.resolve(new TroIndex(await stores.tro.all()));
  const screener = new TitleScreener({
    marks: stores.marks,
    keyFilter: (market) => stores.keyFilters.load(market),
    tro: () => current,
  });
  const title = 'Vorquila Bamboo Cutting Board';
  const screen = () => screener.screen([{ title }]);
  expect((await screen())[0]).toMatchObject({ risk: '低', tro_hit: false });
  expect((await screen())[0]).toMatchObject({ risk: '低', tro_hit: false });

  let listRead!: (index: TroIndex) => void;
  current = new Promise<TroIndex>((resolve) => {
    listRead = resolve;
  });
  const b = screen();
  const c = screen();
  const old = await stores.tro.all();
  listRead(
    new TroIndex([...old, { ...old[0]!, brand: 'Vorquila', brandKey: 'vorquila', plaintiffs: ['Vorquila Inc'] }]),
  );
  for (const result of [...(await b), ...(await c), ...(await screen())])
    expect(result).toMatchObject({ risk: '高', tro_hit: true, top_conflict: 'Vorquila' });
});
