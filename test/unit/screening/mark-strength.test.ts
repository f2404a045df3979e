/**
 * A mark's strength in the register (shared/screening/mark-strength.ts): famous marks made of ordinary words, filed
 * again and again by one owner across the goods it licenses, are named as brands even where the title reads like
 * ordinary words; the same texts filed once each by unrelated owners are not. Both registers are the sample corpus
 * plus the marks of test/fixtures/screening/strong-mark-marks.jsonl, loaded through the real ingest code into the
 * in-memory stores; the second has each registration under an owner of its own.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pack, unpack } from '../../../shared/adapters/aws/mark-key-items';
import { ingestBatch } from '../../../shared/ingest/ingest-batch';
import { ownerTagOf } from '../../../shared/marks/lookup-keys';
import type { MarkRecord } from '../../../shared/marks/mark-record';
import type { ScreeningResult } from '../../../shared/screening/screen-titles';
import { createInMemoryScreening, type InMemoryScreening, screenOne } from '../../support/in-memory-screening';

const FIXTURE = path.join(__dirname, '../../fixtures/screening/strong-mark-marks.jsonl');

async function registerWith(lines: readonly string[], holder: string): Promise<InMemoryScreening> {
  const corpus = await createInMemoryScreening();
  const summary = await ingestBatch(corpus.stores, {
    kind: 'marks-jsonl',
    market: 'US',
    input: Readable.from([`${lines.join('\n')}\n`]),
    batchDate: '2026-11-24',
    source: 'strong-mark-marks',
    holder,
  });
  if (!summary.complete || summary.rejected !== 0)
    throw new Error(`the marks did not load: ${JSON.stringify(summary)}`);
  return corpus;
}

let portfolios: InMemoryScreening;
let spread: InMemoryScreening;
beforeAll(async () => {
  const lines = readFileSync(FIXTURE, 'utf8').trim().split('\n');
  portfolios = await registerWith(lines, 'mark-strength-portfolios');
  // The same registrations, each under an owner of its own: nobody holds a portfolio of any text.
  spread = await registerWith(
    lines.map((line) => {
      const record = JSON.parse(line) as { serial: string; owner?: string };
      return JSON.stringify({ ...record, owner: `Unrelated Holder ${record.serial}` });
    }),
    'mark-strength-spread',
  );
}, 60_000);

/** Some conflict of the result stands for the strength of its mark in the register. */
const raisedAsStrong = (result: ScreeningResult) =>
  result.conflicts?.some((c) => /strong mark/.test(c.reason)) ?? false;

const screen = screenOne;

describe('a famous mark made of ordinary words', () => {
  it.each([
    ['Star Wars The Black Series 6-Inch Kylo Ren', 'STAR WARS'],
    ['Kinetic Sand 14 oz', 'KINETIC SAND'],
    ['kinetic sand 14 oz', 'KINETIC SAND'],
  ])(
    '"%s" is raised on %s as strong when its owner holds the text across classes, and not as strong when the text is spread over owners',
    async (title, mark) => {
      const strong = await screen(portfolios, title);
      const weak = await screen(spread, title);

      expect(strong.risk).not.toBe('低');
      expect(strong.top_conflict).toBe(mark);
      expect(strong.conflicts![0]!.reason).toMatch(
        /a strong mark: its owner holds 3 live registrations of it in \d classes/,
      );
      // Spread over owners, the text is left to the model (which reads "Star Wars" as a name: 中 by itself).
      expect(raisedAsStrong(weak)).toBe(false);
    },
  );

  it("lists one owner's registrations of one text once", async () => {
    const result = await screen(portfolios, 'Star Wars The Black Series 6-Inch Kylo Ren');

    expect(result.conflicts!.filter((c) => c.mark === 'STAR WARS')).toHaveLength(1);
  });

  it('counts live registrations only: a dead one adds nothing to the portfolio', async () => {
    const result = await screen(portfolios, 'Star Wars The Black Series 6-Inch Kylo Ren');

    expect(result.conflicts![0]!.reason).toContain('3 live registrations of it in 5 classes');
  });
});

describe('one ordinary word of a famous portfolio', () => {
  it.each([
    ['Transformers Robots In Disguise One Step Changer', 'TRANSFORMERS'],
    ['Echo Dot Smart Speaker with Alexa', 'ECHO'],
    ['echo show 5 charcoal', 'ECHO'],
  ])('"%s" is raised on %s, and not when the registrations are spread over owners', async (title, mark) => {
    const strong = await screen(portfolios, title);
    const weak = await screen(spread, title);

    expect(strong.risk).not.toBe('低');
    expect(strong.top_conflict).toBe(mark);
    expect(strong.conflicts![0]!.reason).toMatch(/a strong mark: its owner holds 6 live registrations of it/);
    expect(raisedAsStrong(weak)).toBe(false);
  });

  it('needs a famous portfolio: STELLAR, 4 registrations in 5 classes, is left to the model', async () => {
    const result = await screen(portfolios, 'Stellar Telescope 70mm Refractor');

    expect(raisedAsStrong(result)).toBe(false);
  });

  it('not when the word describes the item: "Pearl Alloy Necklace", whoever holds PEARL in 8 classes', async () => {
    const result = await screen(portfolios, 'Pearl Alloy Necklace');

    expect(raisedAsStrong(result)).toBe(false);
  });

  it('not when the word is mainly an adjective: "Royal Ornamental ...", whoever holds ROYAL in 6 classes', async () => {
    const result = await screen(portfolios, 'Royal Ornamental Wall Hanging Showpiece');

    expect(raisedAsStrong(result)).toBe(false);
  });

  it('not when the word makes a term with the word beside it: "Echo chamber"', async () => {
    const result = await screen(portfolios, 'Echo Chamber Acoustic Foam Panels');

    expect(raisedAsStrong(result)).toBe(false);
  });

  it('not mid-title after ordinary words, where no brand stands', async () => {
    const result = await screen(portfolios, 'Wall Mount Bracket Holder for Echo Dot');

    expect(result.risk).not.toBe('高');
  });
});

describe('a strong mark naming the device an accessory fits', () => {
  it.each([['Apple Watch band 45mm'], ['Apple watch band 45mm Silicone Sport Strap']])(
    '"%s" is 中, a nominative use, not 高: the band is made for the watch',
    async (title) => {
      const result = await screen(portfolios, title);

      expect(result.risk).toBe('中');
      expect(result.top_conflict).toBe('APPLE');
      expect(result.conflicts![0]!.reason).toMatch(/nominative use/);
    },
  );

  it('the whole device keeps its maker: "Apple Watch Series 9 GPS 45mm" is no nominative use', async () => {
    const result = await screen(portfolios, 'Apple Watch Series 9 GPS 45mm');

    expect(result.top_conflict).toBe('APPLE');
    expect(result.conflicts![0]!.reason).not.toMatch(/nominative use/);
  });
});

describe('where a strong mark does not count', () => {
  it('one ordinary word, however strong its owner: "Pearl Alloy Necklace" is left to the model', async () => {
    const result = await screen(portfolios, 'Pearl Alloy Necklace', '14');

    expect(raisedAsStrong(result)).toBe(false);
  });

  it('a term of ordinary language: "Sterling Silver" names no STERLING SILVER portfolio', async () => {
    const result = await screen(portfolios, 'Sterling Silver Cubic Zirconia Ring');

    expect(raisedAsStrong(result)).toBe(false);
  });

  it('mid-title after ordinary words, where no brand stands', async () => {
    expect((await screen(portfolios, 'Wall Art Star Wars Poster')).risk).toBe('低');
  });

  it("for goods its owner's registrations do not cover, when the item is clearly them", async () => {
    const result = await screen(portfolios, 'Star Wars Hair Dryer', '11');

    expect(raisedAsStrong(result)).toBe(false);
  });
});

describe('several brands in one title', () => {
  it('lists both the maker and the licensed character, and the character is top_conflict', async () => {
    const result = await screen(portfolios, 'Rubies Teenage Mutant Ninja Turtles bow staff');

    expect(result.risk).toBe('中');
    expect(result.top_conflict).toBe('TEENAGE MUTANT NINJA TURTLES');
    expect(result.conflicts!.map((c) => c.mark)).toEqual(['TEENAGE MUTANT NINJA TURTLES', 'RUBIES']);
  });
});

describe('the owner tag', () => {
  it("is one for every spelling of one owner's name, and differs between owners", () => {
    expect(ownerTagOf('NIKE, INC.')).toBe(ownerTagOf('Nike Inc'));
    expect(ownerTagOf('Hasbro, Inc.')).not.toBe(ownerTagOf('Mattel, Inc.'));
    expect(ownerTagOf(' ., ')).toBeUndefined();
  });

  it('travels in a key item and is absent from one written before it', () => {
    const record: MarkRecord = {
      serial: '90000001',
      markText: 'STAR WARS',
      niceClasses: ['28'],
      statusCode: '800',
      statusCategory: 'registered',
      isLive: true,
      drawingKind: 'word',
      market: 'US',
      source: 'test',
      batchDate: '2026-11-24',
      owner: 'Lucasfilm Ltd. LLC',
    };

    expect(unpack('90000001', pack(record)).owner).toBe(ownerTagOf('Lucasfilm Ltd. LLC'));
    expect(unpack('90000001', ['STAR WARS', ['28'], 'registered', 'word']).owner).toBeUndefined();
  });
});
