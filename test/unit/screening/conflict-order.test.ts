/**
 * The order of conflicts alike in everything a seller sees (same words, level, probability, spelling distance) is
 * the register's: a live registration first, then the owner's stronger portfolio, then the serial. It never depends
 * on the order the store's keys hold their marks in, which the ingest order (and a change of lookup keys) decides.
 * Nor does the order of the examples the brand-use model is fitted on (its trees subsample rows).
 */
import { Readable } from 'node:stream';
import { ingestBatch } from '../../../shared/ingest/ingest-batch';
import { createScreeningService } from '../../../shared/screening/screening-service';
import { createInMemoryDataStores } from '../../support/in-memory-data-stores';

/** Marks one letter from "Zorvanek", all sounding alike (skeleton zrvnk), all live in class 25. */
const LINES = [
  { serial: 'CO-3', mark: 'ZORVANIK', owner: 'Third Owner LLC' },
  { serial: 'CO-1', mark: 'ZORVENEK', owner: 'First Owner LLC' },
  { serial: 'CO-2', mark: 'ZORVANAK', owner: 'Second Owner LLC' },
].map((line) => ({ ...line, nice: [25], is_live: true, drawing_kind: 'word' }));

async function storesWith(lines: readonly object[]) {
  const stores = createInMemoryDataStores();
  const summary = await ingestBatch(stores, {
    kind: 'marks-jsonl',
    market: 'US',
    input: Readable.from([`${lines.map((line) => JSON.stringify(line)).join('\n')}\n`]),
    batchDate: '2026-11-28',
    source: 'conflict-order-test',
    holder: 'conflict-order-test',
  });
  expect(summary).toMatchObject({ complete: true, written: lines.length });
  return stores;
}

async function screenedAfterIngesting(lines: readonly object[]) {
  const stores = await storesWith(lines);
  const { results } = await createScreeningService(stores).screen(
    [{ title: 'Zorvanek Trail Running Shoes for Men', nice: '25' }],
    { detail: true },
  );
  return results[0]!;
}

it('orders equal conflicts by serial, whatever order the register was loaded in', async () => {
  const forward = await screenedAfterIngesting(LINES);
  const backward = await screenedAfterIngesting([...LINES].reverse());

  expect(forward.risk).not.toBe('低');
  const serials = forward.conflicts!.map((c) => c.serial);
  expect(serials).toEqual(['CO-1', 'CO-2', 'CO-3']);
  expect(forward.top_conflict).toBe('ZORVENEK');
  expect(backward).toEqual(forward);
});

it('gives the examples of a title by its words, then by serial, whatever order the register was loaded in', async () => {
  const examplesAfterIngesting = async (lines: readonly object[]) => {
    const { screener } = createScreeningService(await storesWith(lines));
    const [examples] = await screener.examples([{ title: 'Zorvanek Trail Running Shoes', nice: '25' }]);
    return examples!.map((e) => [e.candidate.start, e.candidate.end, e.match.serial, [...e.features]]);
  };

  const forward = await examplesAfterIngesting(LINES);
  const backward = await examplesAfterIngesting([...LINES].reverse());

  expect(forward.map(([, , serial]) => serial)).toEqual(['CO-1', 'CO-2', 'CO-3']);
  expect(backward).toEqual(forward);
});
