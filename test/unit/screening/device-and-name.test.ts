/**
 * Accessories titled with the device first, and names inside a title that say whose the item is rather than what it
 * is. Each brand is registered once (test/fixtures/screening/device-and-name-marks.jsonl), as when a seller loads
 * a list of brands, on top of the sample corpus, through the real ingest code: no owner portfolio helps here.
 */
import type { ScreeningResult } from '../../../shared/screening/screen-titles';
import { createScreeningWithMarks, type InMemoryScreening, screenOne } from '../../support/in-memory-screening';

let corpus: InMemoryScreening;

beforeAll(async () => {
  corpus = await createScreeningWithMarks('device-and-name-marks.jsonl', 'device-and-name-test', '2026-11-29');
}, 120_000);

const screen = (title: string, nice?: string) => screenOne(corpus, title, nice);

function reasonFor(result: ScreeningResult, mark: string): string {
  return result.conflicts?.find((c) => c.mark === mark)?.reason ?? '';
}

describe('an accessory titled with the device first names the device nominatively', () => {
  it.each([
    ['ipod touch shield', 'IPOD'],
    ['iphone 12 case clear', 'IPHONE'],
    ['Kindle Paperwhite Cover Black', 'KINDLE'],
    ['Samsung Galaxy S21 screen protector', 'SAMSUNG'],
    ['blackberry playbook screen protector', 'BLACKBERRY'],
  ])('"%s" is 中 on %s, not 高', async (title, mark) => {
    const result = await screen(title);

    expect(result.risk).toBe('中');
    expect(result.top_conflict).toBe(mark);
    expect(reasonFor(result, mark)).toContain('nominative use');
  });

  it('the device line named after its maker is nominative too: PLAYBOOK in "blackberry playbook screen protector"', async () => {
    expect(reasonFor(await screen('blackberry playbook screen protector'), 'PLAYBOOK')).toContain('nominative use');
  });

  it.each([
    ['Samsung charger', 'SAMSUNG', 'nothing names a device between the maker and the accessory'],
    ['Samsung screen protector', 'SAMSUNG', 'the accessory noun and its modifier only'],
    ['Gucci Marmont belt', 'GUCCI', 'a belt is goods of its own, not made to fit a device'],
    ['Nike leather case', 'Nike', 'a material is no line of a device'],
  ])('"%s" keeps %s as the maker (%s)', async (title, mark) => {
    const result = await screen(title);

    expect(result.risk).toBe('高');
    expect(result.top_conflict.toUpperCase()).toBe(mark.toUpperCase());
    expect(reasonFor(result, result.top_conflict)).not.toContain('nominative use');
  });
});

describe("a device's own name before a part is 中 at least, whatever the model reads", () => {
  it.each([
    ['Apple watch band 45mm', undefined],
    ['Apple watch band 45mm', '14'],
    ['Apple Watch Band 45mm Silicone Sport Strap', undefined],
    ['Galaxy Watch strap 20mm', undefined],
  ])('"%s" (nice %s) is 中 on the device', async (title, nice) => {
    const result = await screen(title, nice);

    expect(result.risk).toBe('中');
    expect(result.top_conflict).toMatch(/^(APPLE|GALAXY) WATCH$/);
    expect(result.conflicts![0]!.reason).toContain('the name of the device a part is made for');
  });

  it('a pair of ordinary words is no device\'s name: "Leather Watch band 22mm" raises nothing on LEATHER WATCH', async () => {
    const result = await screen('Leather Watch band 22mm');

    expect(reasonFor(result, 'LEATHER WATCH')).toBe('');
  });

  it('the whole device is not a part\'s title: "Apple Watch Series 9 GPS 45mm" is not read by this rule', async () => {
    const result = await screen('Apple Watch Series 9 GPS 45mm');

    expect(reasonFor(result, 'APPLE WATCH')).not.toContain('the name of the device a part is made for');
  });
});

describe('the words of another name in the title say whose the item is, not what it is', () => {
  it.each(['Star Wars Lego set', 'LEGO Star Wars Millennium Falcon'])(
    '"%s": LEGO\'s class 28 is not read as another item\'s ("star" names no fireworks here)',
    async (title) => {
      const result = await screen(title);

      expect(result.top_conflict).toBe('LEGO');
      expect(reasonFor(result, 'LEGO')).toContain('class 28');
      expect(reasonFor(result, 'LEGO')).not.toContain("not the item's");
    },
  );

  it('without a registered name the word still votes: "Star Lego set" reads LEGO as another item\'s class', async () => {
    expect(reasonFor(await screen('Star Lego set'), 'LEGO')).toContain("not the item's");
  });
});

// Where the title's language proposes the run (brand-spans.ts: the first two words, after a maker or a nominative cue);
// a name of ordinary words further in ("Kids Halloween Costume Teenage Mutant Ninja Turtles") is not looked up.
describe('a registered name of three words or more, written as registered, is 中 at least', () => {
  const WRITTEN_AS_REGISTERED = 'written as registered';

  it('a licensed character beside its maker: both brand uses are listed, and the character is top_conflict', async () => {
    const result = await screen('Rubies Teenage Mutant Ninja Turtles bow staff');

    expect(result.risk).not.toBe('低');
    expect(result.top_conflict).toBe('TEENAGE MUTANT NINJA TURTLES');
    expect(result.conflicts?.map((c) => c.mark)).toEqual(
      expect.arrayContaining(['TEENAGE MUTANT NINJA TURTLES', 'RUBIES']),
    );
    expect(reasonFor(result, 'TEENAGE MUTANT NINJA TURTLES')).toContain(`a name of 4 words, ${WRITTEN_AS_REGISTERED}`);
  });

  it.each([
    ['Teenage Mutant Ninja Turtles Kids Halloween Costume', 'TEENAGE MUTANT NINJA TURTLES'],
    ['League of Legends Gaming Mouse Pad', 'LEAGUE OF LEGENDS'],
  ])('"%s" is 中 at least on %s', async (title, mark) => {
    const result = await screen(title);

    expect(result.risk).not.toBe('低');
    expect(result.conflicts?.map((c) => c.mark)).toContain(mark);
  });

  it('words that are a term of goods are no name, however long the mark: "Stainless Steel Water Bottle 1 Litre"', async () => {
    const result = await screen('Stainless Steel Water Bottle 1 Litre');

    expect(reasonFor(result, 'STAINLESS STEEL WATER BOTTLE')).not.toContain(WRITTEN_AS_REGISTERED);
  });

  it("goods the seller says are other than the registration's are not raised by the rule: a dress (nice 25) against a wine's name", async () => {
    const result = await screen('Midnight Garden Party Floral Dress', '25');

    expect(reasonFor(result, 'MIDNIGHT GARDEN PARTY')).not.toContain(WRITTEN_AS_REGISTERED);
  });

  it('the same name, goods unsaid and unclear, is read by the rule', async () => {
    expect(reasonFor(await screen('Midnight Garden Party'), 'MIDNIGHT GARDEN PARTY')).toContain(WRITTEN_AS_REGISTERED);
  });
});
