/**
 * A dead registration raises no risk: in a register of real size nearly half the records are dead, and a seller
 * is not exposed to a mark nobody holds. A pending application still counts (it may register soon), and a TRO brand
 * is found through the TRO list whatever the state of its marks.
 */
import { Readable } from 'node:stream';
import { ingestBatch } from '../../../shared/ingest/ingest-batch';
import { createInMemoryScreening, type InMemoryScreening } from '../../support/in-memory-screening';

let corpus: InMemoryScreening;

const line = (serial: string, mark: string, status: 'registered' | 'pending' | 'dead') =>
  JSON.stringify({
    serial,
    mark,
    nice: [9],
    is_live: status === 'registered',
    status_category: status,
    drawing_kind: 'word',
  });

beforeAll(async () => {
  corpus = await createInMemoryScreening();
  const summary = await ingestBatch(corpus.stores, {
    kind: 'marks-jsonl',
    market: 'US',
    input: Readable.from([
      `${[
        line('DEAD-000001', 'Quarvex', 'dead'),
        line('DEAD-000002', 'Plivonta', 'pending'),
        line('DEAD-000003', 'Zentriqo', 'dead'),
        line('DEAD-000004', 'Zentriqo', 'registered'),
      ].join('\n')}\n`,
    ]),
    batchDate: '2026-11-25',
    source: 'dead-marks',
    holder: 'dead-marks-test',
  });
  expect(summary).toMatchObject({ complete: true, rejected: 0 });
}, 60_000);

const screen = async (title: string) => (await corpus.screening.screen([{ title }], { detail: true })).results[0]!;

it('does not raise a title on a dead registration', async () => {
  const result = await screen('Quarvex Wireless Earbuds with Charging Case');

  expect(result).toMatchObject({ risk: '低', top_conflict: '' });
  expect(result.conflicts).toEqual([]);
});

it('still raises a pending application', async () => {
  const result = await screen('Plivonta Wireless Earbuds with Charging Case');

  expect(result.risk).not.toBe('低');
  expect(result.top_conflict).toBe('Plivonta');
});

it('answers with the live record when a dead and a live one share the words', async () => {
  const result = await screen('Zentriqo Wireless Earbuds with Charging Case');

  expect(result.risk).not.toBe('低');
  expect(result.conflicts?.map((c) => c.serial)).toEqual(['DEAD-000004']);
});
