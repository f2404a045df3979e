/**
 * A brand spelt to slip past filters is screened as the brand: written backwards inside a right-to-left override
 * (shown forwards: "\u202EekiN" shows "Nike"), or with a look-alike letter from Unicode's confusables ("Nıke" with a
 * dotless ı, "Nikе" with a Cyrillic е). The sample corpus holds the live mark NIKE (data/sample).
 */
import { createInMemoryScreening, type InMemoryScreening } from '../../support/in-memory-screening';

let corpus: InMemoryScreening;
beforeAll(async () => {
  corpus = await createInMemoryScreening();
}, 60_000);

const screen = async (title: string) => (await corpus.screening.screen([{ title }], { detail: true })).results[0]!;
const LOOK_ALIKE_REASON = 'spelt with look-alike letters';

describe.each([
  ['a right-to-left override over the whole title (shown "Nike running shoes")', '\u202Eseohs gninnur ekiN'],
  ['an override closed by its PDF (shown "Buy Nike running shoes")', 'Buy \u202EekiN\u202C running shoes'],
  ['a dotless i', 'Nıke running shoes'],
  ['a Cyrillic е', 'Nikе running shoes'],
])('a brand spelt with %s', (_how, title) => {
  it(`is found, as an evasive spelling: ${JSON.stringify(title)}`, async () => {
    const result = await screen(title);

    expect(['中', '高']).toContain(result.risk);
    expect(result.top_conflict.toUpperCase()).toBe('NIKE');
    expect(result.conflicts![0]!.reason).toContain(LOOK_ALIKE_REASON);
  });
});

// An override left open runs to the end of the title (UAX #9), so this title shows "seohs gninnur Nike": the brand
// is read there, as an evasive spelling (models 2026-11-28-3654b697 and 8384e830 put it over the 中 threshold).
it('a brand written backwards in an override left open is found: "\\u202EekiN running shoes"', async () => {
  const result = await screen('\u202EekiN running shoes');

  expect(['中', '高']).toContain(result.risk);
  expect(result.top_conflict.toUpperCase()).toBe('NIKE');
});

it('leaves the brand written plainly as it was', async () => {
  const result = await screen('Nike running shoes');

  expect(result).toMatchObject({ risk: '高', top_conflict: 'Nike' });
  expect(result.conflicts![0]!.reason).not.toContain(LOOK_ALIKE_REASON);
});
