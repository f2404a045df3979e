/**
 * Screening where every word is somebody's mark, as in the US register (about three million live marks, most
 * dictionary words among them): each word of every title here is registered as a live word mark, in classes 09, 16,
 * 20 and 25 and in the word's own goods class where the lexicon knows one, on top of
 * the sample corpus and the failure-class marks, through the real ingest code. Only a word used as a brand (or named
 * nominatively, at 中) may raise a title; a registration alone may not. Cases are general patterns; a case the
 * shipped model gets wrong runs with it.failing and a comment saying what it answers.
 */
import { Readable } from 'node:stream';
import { ingestBatch } from '../../../shared/ingest/ingest-batch';
import { isGenericWord, productClassesOf } from '../../../shared/screening/lexicon';
import { wordsOfTitle } from '../../../shared/screening/title-words';
import { createFailureClassScreening, type InMemoryScreening, screenOne } from '../../support/in-memory-screening';

/** Generic nouns of goods, each a title on its own: none is anybody's brand use, whoever registered it. */
const GENERIC_TITLES = [
  'interface',
  'input device',
  'memory',
  'ink',
  'cushions',
  'folder',
  'notebook',
  'charger',
  'kettle',
  'blanket',
  'screwdriver set',
  'laptop memory kit',
  'cushion cover',
  'wall clock',
  'storage box',
];

/**
 * Trade terms and materials past the title's first word: a clipped material ("poly") and an abbreviation of the trade
 * ("OEM"), read as terms by shared/screening/terms-of-trade.ts (the model alone answers 高 on POLY and OEM).
 */
const TRADE_TERM_TITLES = ['Acid-Free Poly Folder Letter Size', 'Bulk OEM Hard Drive 500GB'];

/**
 * A material the lexicon does not know, first in the title, where a brand stands: "kraft" is no English word, no
 * clipping and no abbreviation, and KRAFT is registered (the sample corpus holds it for food). A known miss of
 * 2026-11-28-3654b697 and every model since (高 on KRAFT); the test fails the day a model gets it right. ("Deluxe
 * Projection Screen", a seller's adjective first, was one until the describing-word features of 8384e830: it is
 * with the ordinary words below.)
 */
const UNLISTED_MATERIAL_TITLES = ['Kraft Folders Pack of 25'];

/** A term's abbreviation beside the words it stands for (shared/screening/abbreviations.ts). */
const SPELLED_OUT_TITLES = ['Power over Ethernet PoE Switch 8 Port', 'PoE (Power over Ethernet) Injector 48V'];

/** A feed's placeholder for a missing value (shared/screening/placeholders.ts), NA and NULL registered. */
const PLACEHOLDER_TITLES = ['Garnet Gemstone Sterling Silver NA Brass NA K Ring', 'Cotton Kurta Colour null Size M'];

const ORDINARY_WORD_TITLES = [
  'Abstract Cushions Cover Set of 4',
  'Stylish Stone Necklace for Women',
  'Memory Foam Pillow Standard Size',
  'Genuine Leather Wallet for Men',
  'Premium Ink Cartridge Black',
  'Deluxe Projection Screen 100 Inch',
];

const BRANDED_TITLES: [string, string][] = [
  ['Zorblaxa Wireless Earbuds with Charging Case', 'Zorblaxa'],
  ['Galz4ever Alloy Bracelet for Women', 'Galz4ever'],
  ["The North Face Men's Resolve 2 Jacket", 'The North Face'],
  ['Radiant Bay Priceless Bond White Gold Diamond 18 K Ring', 'Radiant Bay'],
];

let corpus: InMemoryScreening;
let serial = 0;

function markLine(mark: string, nice: readonly string[]): string {
  serial++;
  return JSON.stringify({
    serial: `SAT-${String(serial).padStart(6, '0')}`,
    mark,
    nice: nice.map(Number),
    is_live: true,
    drawing_kind: 'word',
  });
}

/** Every word of the titles, each a live mark in four classes and its own goods class. */
function saturatedRegister(titles: readonly string[]): string {
  const marks = new Map<string, Set<string>>();
  for (const title of titles) {
    const words = wordsOfTitle(title)
      .filter((w) => !w.cjk)
      .map((w) => w.norm);
    for (const word of words) {
      if (word.length < 2) continue;
      const classes = marks.get(word) ?? new Set(['09', '16', '20', '25']);
      for (const own of productClassesOf(word)) classes.add(own.nice);
      marks.set(word, classes);
    }
  }
  const brands = new Set(BRANDED_TITLES.map(([, brand]) => brand.toLowerCase()));
  const lines = [...marks.entries()]
    .filter(([phrase]) => !brands.has(phrase))
    .map(([phrase, classes]) => markLine(phrase.toUpperCase(), [...classes].sort()));
  // The one brand here that neither the sample corpus nor the failure-class marks hold.
  lines.push(markLine('Zorblaxa', ['09']));
  return `${lines.join('\n')}\n`;
}

beforeAll(async () => {
  corpus = await createFailureClassScreening('saturated-register-test');
  const titles = [
    ...GENERIC_TITLES,
    ...TRADE_TERM_TITLES,
    ...UNLISTED_MATERIAL_TITLES,
    ...SPELLED_OUT_TITLES,
    ...PLACEHOLDER_TITLES,
    ...ORDINARY_WORD_TITLES,
    ...BRANDED_TITLES.map(([title]) => title),
  ];
  const summary = await ingestBatch(corpus.stores, {
    kind: 'marks-jsonl',
    market: 'US',
    input: Readable.from([saturatedRegister(titles)]),
    batchDate: '2026-11-26',
    source: 'saturated-register',
    holder: 'saturated-register-test',
  });
  expect(summary).toMatchObject({ complete: true, rejected: 0 });
}, 60_000);

const screen = (title: string, nice?: string) => screenOne(corpus, title, nice);

it('registers what the titles hold (the test would prove nothing otherwise)', async () => {
  const found = await corpus.stores.marks.lookup('US', [
    'e:memory',
    'e:stylish',
    'e:laptop',
    'e:kraft',
    'e:poe',
    'e:na',
    'e:null',
  ]);

  expect([...found.values()].every((marks) => marks.length > 0)).toBe(true);
  expect(isGenericWord('kettle')).toBe(true);
});

it.each(GENERIC_TITLES)('a generic noun as a title is never raised: "%s"', async (title) => {
  expect(await screen(title)).toMatchObject({ risk: '低', top_conflict: '' });
});

it.each(ORDINARY_WORD_TITLES)('ordinary words of trade and description raise nothing: "%s"', async (title) => {
  expect(await screen(title)).toMatchObject({ risk: '低', top_conflict: '' });
});

it.each(TRADE_TERM_TITLES)('a trade term or material raises nothing: "%s"', async (title) => {
  expect(await screen(title)).toMatchObject({ risk: '低', top_conflict: '' });
});

it.failing.each(UNLISTED_MATERIAL_TITLES)(
  'a material no list knows, first in the title, raises nothing: "%s"',
  async (title) => {
    expect(await screen(title)).toMatchObject({ risk: '低', top_conflict: '' });
  },
);

it.each(PLACEHOLDER_TITLES)('a placeholder for a missing value raises nothing: "%s"', async (title) => {
  expect(await screen(title)).toMatchObject({ risk: '低', top_conflict: '' });
});

it.each(SPELLED_OUT_TITLES)('an abbreviation the title spells out raises nothing: "%s"', async (title) => {
  expect(await screen(title)).toMatchObject({ risk: '低', top_conflict: '' });
});

it.each(BRANDED_TITLES)('the brand a title uses is still found among registered words: "%s"', async (title, brand) => {
  const result = await screen(title);

  expect(result.risk).not.toBe('低');
  expect(result.top_conflict).toBe(brand);
});
