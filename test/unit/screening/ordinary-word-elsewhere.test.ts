/**
 * An ordinary word's registration far from the item's goods is no use of the mark (shared/screening/mark-strength.ts
 * isOrdinaryWordElsewhere): "Gap filler for car seat" against GAP's clothing. The sample corpus (GAP in classes 25
 * and 35, Dove in 3 and 30) plus the marks of test/fixtures/screening/ordinary-word-marks.jsonl, through the real ingest code.
 */
import type { ScreeningResult } from '../../../shared/screening/screen-titles';
import { createScreeningWithMarks, type InMemoryScreening, screenOne } from '../../support/in-memory-screening';

let corpus: InMemoryScreening;

beforeAll(async () => {
  corpus = await createScreeningWithMarks('ordinary-word-marks.jsonl', 'ordinary-word-test', '2026-11-29');
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
  ['Gap filler for car seat', 'GAP'],
  ['Gap Filler Expanding Foam Sealant', 'GAP'],
  ['Dove Grey Cotton T-Shirt for Men', 'Dove'],
])('"%s": %s is registered for other goods, and the item is clearly not them: no use', async (title, mark) => {
  const result = await screen(title);

  expect(marksOf(result)).not.toContain(mark);
  expect(result.risk).toBe('低');
});

it.each([
  ['Gap filler for car seat', 'GAP'],
  ['Dove Grey Cotton T-Shirt for Men', 'Dove'],
])('the rule, not the model, sets it aside: the model alone rates "%s" a use of %s', async (title, mark) => {
  expect(await modelRaises(title, mark)).toBe(true);
});

it('the model alone raises both marks left to it below', async () => {
  expect(await modelRaises('Zorblaxa filler for car seat', 'ZORBLAXA')).toBe(true);
  expect(await modelRaises('Magnolia Running Shoes', 'MAGNOLIA')).toBe(true);
});

it('the mark\'s own goods stay its own: "Gap Slim Fit Jeans" raises GAP', async () => {
  expect(marksOf(await screen('Gap Slim Fit Jeans'))).toContain('GAP');
});

it('the seller\'s class decides over the words: "Gap filler for car seat" given class 25 raises GAP', async () => {
  expect(marksOf(await screen('Gap filler for car seat', '25'))).toContain('GAP');
});

it('a mark named nominatively is named whatever its goods: "Helmet Lock for Hero Splendor Plus" raises HERO', async () => {
  const result = await screen('Premium Locking Device for Hero Splendor Plus Helmet Lock');

  expect(marksOf(result)).toContain('HERO');
  expect(result.risk).toBe('中');
});

it.each([
  ['Zorblaxa filler for car seat', 'ZORBLAXA', "a coined word is nobody's language"],
  ['Magnolia Running Shoes', 'MAGNOLIA', 'a portfolio of six classes is a name that reaches further'],
])('"%s" is left to the model (%s)', async (title, mark) => {
  expect(marksOf(await screen(title)).includes(mark)).toBe(await modelRaises(title, mark));
});
