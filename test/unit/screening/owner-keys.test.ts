/**
 * The owner index (`o:` keys) is for the TRO docket job only: screening asks for e:, d: and p: keys, so a title that
 * names a mark's owner, even written as an owner key, never raises that mark.
 */
import { Readable } from 'node:stream';
import { ingestBatch } from '../../../shared/ingest/ingest-batch';
import { createScreeningService } from '../../../shared/screening/screening-service';
import { createInMemoryDataStores } from '../../support/in-memory-data-stores';

const stores = createInMemoryDataStores();
const asked: string[] = [];

beforeAll(async () => {
  const lines = [
    { serial: 'OWNER-1', mark: 'Zanthiq', nice: [9], is_live: true, owner: 'Quorblex Industries Ltd.' },
    { serial: 'OWNER-2', mark: 'Velmorax', nice: [9], is_live: true, owner: 'Sound Wireless Inc.' },
  ].map((line) => JSON.stringify({ ...line, drawing_kind: 'word' }));
  const summary = await ingestBatch(stores, {
    kind: 'marks-jsonl',
    market: 'US',
    input: Readable.from([`${lines.join('\n')}\n`]),
    batchDate: '2026-11-25',
    source: 'owner-keys-test',
    holder: 'owner-keys-test',
  });
  expect(summary).toMatchObject({ complete: true, written: 2 });
  const lookup = stores.marks.lookup.bind(stores.marks);
  jest.spyOn(stores.marks, 'lookup').mockImplementation(async (market, keys) => {
    asked.push(...keys);
    return lookup(market, keys);
  });
});

it('the owner index holds the marks', async () => {
  const found = await stores.marks.lookup('US', ['o:quorblex industries', 'o:sound wireless']);
  expect(found.get('o:quorblex industries')?.map((m) => m.serial)).toEqual(['OWNER-1']);
  expect(found.get('o:sound wireless')?.map((m) => m.serial)).toEqual(['OWNER-2']);
});

it("a title naming a mark's owner raises nothing, and screening never asks for an owner key", async () => {
  const screening = createScreeningService(stores, { refreshMs: 0, everyRun: true });
  asked.length = 0;
  const { results } = await screening.screen(
    [
      { title: 'Quorblex Industries wireless earbuds with charging case', nice: '09' },
      { title: 'QUORBLEX INDUSTRIES LTD. Bluetooth speaker', nice: '09' },
      { title: 'o:quorblex industries earbuds', nice: '09' },
      { title: 'Sound Wireless Inc. noise cancelling headphones', nice: '09' },
      { title: 'Zanthiq wireless earbuds with charging case', nice: '09' },
    ],
    { detail: true },
  );

  expect(results.slice(0, 4).map((r) => [r.risk, r.top_conflict, r.tro_hit])).toEqual([
    ['低', '', false],
    ['低', '', false],
    ['低', '', false],
    ['低', '', false],
  ]);
  // The mark's own name still raises it: the store is read as usual.
  expect(results[4]).toMatchObject({ top_conflict: 'Zanthiq' });
  expect(asked.length).toBeGreaterThan(0);
  expect(asked.filter((key) => !/^[edp]:/.test(key))).toEqual([]);
});
