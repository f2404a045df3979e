/**
 * A brand's TRO history is strength (shared/screening/mark-strength.ts): a registered mark of a brand that files
 * Schedule A suits, named where a brand stands, for goods its registrations cover, is 高 with its TRO flag,
 * whatever the brand-use model says of an ordinary word at the head of a title. The same word registered by an owner
 * with no TRO history is left to the model, and the TRO brand is not raised for goods its registrations do not
 * cover, nor where the word describes or makes a term with its neighbour. Marks and the TRO list go through the real
 * ingest into the in-memory stores, beside the sample corpus.
 */
import { Readable } from 'node:stream';
import { ingestBatch, type IngestRequest } from '../../../shared/ingest/ingest-batch';
import { createInMemoryScreening, type InMemoryScreening, screenOne } from '../../support/in-memory-screening';

const MARKS = [
  { serial: 'TS-000001', mark: 'COACH', nice: [18], owner: 'Tapestry Test Holdings Inc' },
  { serial: 'TS-000002', mark: 'COACH', nice: [25], owner: 'Tapestry Test Holdings Inc' },
  { serial: 'TS-000003', mark: 'COACH', nice: [9], owner: 'Coachline Electronics LLC' },
];
const TRO = [
  'brand,plaintiff,case_no,court,filed,source,checked_against_docket',
  'Coach,Tapestry Test Holdings Inc,1:25-cv-00001,N.D. Ill.,2025-01-02,unit fixture,no',
].join('\n');

async function load(corpus: InMemoryScreening, withTro: boolean): Promise<void> {
  const base = { market: 'US' as const, holder: 'tro-strength', batchDate: '2026-11-24' };
  const batches: IngestRequest[] = [
    {
      ...base,
      kind: 'marks-jsonl',
      input: Readable.from([
        `${MARKS.map((m) => JSON.stringify({ ...m, is_live: true, drawing_kind: 'word' })).join('\n')}\n`,
      ]),
      source: 'tro-strength-marks',
    },
  ];
  if (withTro)
    batches.push({
      ...base,
      kind: 'tro',
      input: Readable.from([TRO]),
      batchDate: '2026-11-25',
      source: 'tro-strength',
    });
  for (const batch of batches) {
    const summary = await ingestBatch(corpus.stores, batch);
    if (!summary.complete || summary.rejected !== 0) throw new Error(`not loaded: ${JSON.stringify(summary)}`);
  }
}

let suing: InMemoryScreening;
let quiet: InMemoryScreening;
beforeAll(async () => {
  suing = await createInMemoryScreening();
  await load(suing, true);
  quiet = await createInMemoryScreening();
  await load(quiet, false);
}, 60_000);

const screen = screenOne;

describe("a TRO brand's registered mark, named for goods its registrations cover", () => {
  it.each([
    ['Coach Leather Crossbody Handbag', undefined],
    ['Coach Canvas Tote Bag for Women', undefined],
    ['Coach Signature Wallet', '18'],
  ])('"%s" is 高 on Coach with its TRO flag', async (title, nice) => {
    const result = await screen(suing, title, nice);
    expect(result.risk).toBe('高');
    expect(result.tro_hit).toBe(true);
    expect(result.top_conflict.toUpperCase()).toBe('COACH');
  });

  it('the same title is not raised where no owner of COACH files TRO suits (the model alone decides)', async () => {
    const result = await screen(quiet, 'Coach Leather Crossbody Handbag');
    expect(result.risk).toBe('低');
  });
});

describe("a TRO brand's name spelt a letter off", () => {
  it('where no word is, it is the spelling that evades the name: "Coachh Leather Crossbody Handbag" is 高', async () => {
    const result = await screen(suing, 'Coachh Leather Crossbody Handbag');
    expect(result).toMatchObject({ risk: '高', tro_hit: true });
    expect(result.top_conflict.toUpperCase()).toBe('COACH');
  });

  it('an English word a letter off is that word: "Poach Pouch Leather Handbag" is left to the model', async () => {
    const result = await screen(suing, 'Poach Pouch Leather Handbag');
    expect(result.tro_hit).toBe(false);
  });

  it.each([
    ['Couch Leather Crossbody Handbag', undefined],
    ['Couch Signature Canvas Tote', '18'],
  ])(
    'an English word a letter off, sounding the same, where the maker stands, for the brand\'s goods, is 中 at least: "%s"',
    async (title, nice) => {
      const result = await screen(suing, title, nice);
      expect(result.risk).not.toBe('低');
      expect(result.tro_hit).toBe(true);
      expect(result.top_conflict.toUpperCase()).toBe('COACH');
      expect(result.conflicts![0]!.reason).toContain('spelt as the word "couch", one letter from the brand\'s name');
    },
  );

  it.each<[string, string | undefined, string]>([
    ['Couch Cover for 3 Seater Sofa', undefined, 'goods of another class'],
    ['Couch Leather Crossbody Handbag', '20', 'goods of another class, as the seller says'],
    ['Leather Crossbody Handbag Couch Style', undefined, 'not where the maker stands'],
    ['Couch Nine Leather Crossbody Handbag by Couch Nine', undefined, "the first word of the maker's longer name"],
  ])('the same word is left to the model otherwise: "%s" (nice %s), %s', async (title, nice) => {
    const result = await screen(suing, title, nice);
    expect(result).toMatchObject({ risk: '低', tro_hit: false });
  });

  it('nor is it raised where the brand files no TRO suits', async () => {
    expect(await screen(quiet, 'Couch Leather Crossbody Handbag')).toMatchObject({ risk: '低', tro_hit: false });
  });
});

describe('a TRO brand is not raised where the title does not name it for its goods', () => {
  it.each([
    ['Coach Whistle with Lanyard for Sports Referee', '28', 'goods its registrations do not cover'],
    ['Stainless Steel Whistle for Dog Training Coach', undefined, 'not where a brand stands'],
    ['Coach Bus Model Toy 1:64 Diecast', undefined, 'a term with its neighbour'],
  ])('"%s" (nice %s): %s', async (title, nice, _why) => {
    const result = await screen(suing, title, nice);
    expect(result.risk).toBe('低');
    expect(result.tro_hit).toBe(false);
  });
});
