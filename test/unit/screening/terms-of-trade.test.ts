/**
 * A term of trade is the term, not a use of the mark of its words (shared/screening/terms-of-trade.ts): a term of
 * ordinary language written as one word, its words told apart by their capitals ("LipBalm"), and a clipped material
 * or finish ("poly", "digi") and an abbreviation of the trade ("OEM", "SD"). The sample corpus plus the marks of test/fixtures/screening/term-of-trade-marks.jsonl,
 * each registered once, through the real ingest code.
 */
import type { ScreeningResult } from '../../../shared/screening/screen-titles';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { buildTradeAbbreviations, OUT as TRADE_ABBREVIATIONS } from '../../../builders/build-trade-abbreviations';
import { DEFAULT_SHARED_DIR } from '../../../builders/lexicon/paths';
import { isClippedDescriptor, isTradeAbbreviation } from '../../../shared/screening/terms-of-trade';
import { createScreeningWithMarks, type InMemoryScreening, screenOne } from '../../support/in-memory-screening';

let corpus: InMemoryScreening;

beforeAll(async () => {
  corpus = await createScreeningWithMarks('term-of-trade-marks.jsonl', 'terms-of-trade-test', '2026-11-29');
}, 120_000);

const screen = (title: string, nice?: string) => screenOne(corpus, title, nice);

const marksOf = (result: ScreeningResult) => result.conflicts?.map((c) => c.mark) ?? [];

/** Whether the model alone, before any rule, rates the title's match of `mark` a brand use. */
async function modelRaises(title: string, mark: string): Promise<boolean> {
  const { screener } = corpus.screening;
  const [examples] = await screener.examples([{ title }]);
  const example = examples!.find((e) => e.match.mark === mark);
  if (!example) throw new Error(`"${title}" does not match ${mark}`);
  return screener.model.probability(example.features) >= screener.model.medium;
}

it.each([
  ['Strawberry LipBalm 4g', 'LIP BALM', 'a term run together'],
  ['Blue Raspberry LipBalm 4.25g', 'LIP BALM', 'a term run together'],
  ['Kids HairClip Set for Girls', 'HAIR CLIP', 'a term run together'],
  ['Stainless Steel WaterBottle 1 Litre', 'WATER BOTTLE', 'a term run together'],
  ['acid-free poly folder', 'POLY', 'a clipped material'],
  ['Letter Size Poly Envelope 10 Pack', 'POLY', 'a clipped material'],
  ['Non-stick Cera Coated Frying Pan 24 cm', 'CERA', 'a clipped material'],
  ['bulk oem hard drive', 'OEM', 'an abbreviation of the trade'],
  ['5W USB Official OEM Charger and Power Adapter', 'OEM', 'an abbreviation of the trade'],
  ['Kingston 32 GB micro SD Memory Card', 'SD', 'an abbreviation of the trade'],
])('"%s" writes a term: no use of %s (%s)', async (title, mark) => {
  expect(marksOf(await screen(title))).not.toContain(mark);
});

it('words that make no term stay a name when run together: "AirPods Pro Case Cover" raises AIR PODS', async () => {
  const result = await screen('AirPods Pro Case Cover');

  expect(result.risk).not.toBe('低');
  expect(marksOf(result)).toContain('AIR PODS');
});

it('a mark registered as one word is its owner\'s name, left to the model: "FaceTime Camera Cover" raises FACETIME', async () => {
  expect(marksOf(await screen('FaceTime Camera Cover'))).toContain('FACETIME');
});

it('the rule, not the model, sets the term aside: the model alone rates "Strawberry LipBalm" a brand use of LIP BALM', async () => {
  expect(await modelRaises('Strawberry LipBalm 4g', 'LIP BALM')).toBe(true);
});

it('the title\'s first word stands where its brand does, and is left to the model: "CoffeeBean" against COFFEE BEAN', async () => {
  // A label named by the words of a registered term ("CoffeeBean Regular Fit Baby Girl's Pink Trousers"); the same
  // word further in would be the term.
  const title = "CoffeeBean Regular Fit Baby Girl's Pink Trousers";
  const raised = await modelRaises(title, 'COFFEE BEAN');

  expect(marksOf(await screen(title)).includes('COFFEE BEAN')).toBe(raised);
  expect(marksOf(await screen("Baby Girl's CoffeeBean Trousers"))).not.toContain('COFFEE BEAN');
});

/** The two readings of a single word, each by its own list (shared/screening/terms-of-trade.ts). */
const READINGS = { clipping: isClippedDescriptor, abbreviation: isTradeAbbreviation } as const;

describe('a clipped material or finish, and an abbreviation of the trade', () => {
  it.each([
    ['poly', 'clipping', true, 'the start of "polyester"'],
    ['digi', 'clipping', true, 'the start of "digital"'],
    ['acry', 'clipping', true, 'the start of "acrylic"'],
    ['nike', 'clipping', false, 'no material starts so'],
    ['polyester', 'clipping', false, 'the whole word, which the lexicon already reads'],
    ['stain', 'clipping', false, 'an English word: the model reads it'],
    ['acryli', 'clipping', false, 'a clipping must leave three letters out or more'],
    ['alu', 'clipping', false, 'three letters are too few to tell a clipping'],
    ['oem', 'abbreviation', true, "a kind of maker's part"],
    ['sd', 'abbreviation', true, 'a memory card format'],
    ['ptfe', 'abbreviation', true, 'a material'],
    ['ntsc', 'abbreviation', true, 'a video standard'],
    ['sdxc', 'abbreviation', true, 'a memory card format'],
    ['amd', 'abbreviation', false, "a chipset family: a maker's name"],
    ['nfl', 'abbreviation', false, 'a sports logo'],
    ['ncaa', 'abbreviation', false, 'a body that certifies bats, with marks of its own'],
    ['raid', 'abbreviation', false, 'a one-word name of the brand list'],
    ['usb', 'abbreviation', false, 'generic already, never looked up alone'],
    ['nike', 'abbreviation', false, 'no value of the taxonomy'],
  ] as const)('"%s" as a %s: %s (%s)', (word, reading, expected, _why) => {
    expect(READINGS[reading](word)).toBe(expected);
  });

  it.each([
    ['acid-free poly folder', 'POLY'],
    ['bulk oem hard drive', 'OEM'],
  ])('the rule, not the model, sets it aside: the model alone rates "%s" a use of %s', async (title, mark) => {
    expect(await modelRaises(title, mark)).toBe(true);
  });

  it('the title\'s first word is its maker\'s place: "Poly Voyager 4320 Headset" raises POLY', async () => {
    expect(marksOf(await screen('Poly Voyager 4320 Headset'))).toContain('POLY');
  });

  it('a strong mark is a name wherever it stands: "Wireless Module Kit by Digi", DIGI registered in six classes by one owner', async () => {
    expect(marksOf(await screen('Wireless Module Kit by Digi'))).toContain('DIGI');
  });

  const sourcePresent = existsSync(path.join(DEFAULT_SHARED_DIR, 'data/lexicon/shopify-taxonomy/attribute_values.txt'));
  (sourcePresent ? it : it.skip)(
    'the committed list equals what builders/build-trade-abbreviations.ts builds (skipped without ../shared)',
    () => {
      expect(readFileSync(TRADE_ABBREVIATIONS, 'utf8')).toBe(buildTradeAbbreviations(DEFAULT_SHARED_DIR).json);
    },
  );
});
