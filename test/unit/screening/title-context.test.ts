/**
 * What a title says around a candidate: where a model code starts (letters and digits of five or more characters,
 * across the hyphens that join its parts) and whether a word stands where makers' names stand.
 */
import type { Candidate } from '../../../shared/screening/candidates';
import { TitleContext } from '../../../shared/screening/title-context';
import { wordsOfTitle } from '../../../shared/screening/title-words';

function contextOf(title: string): TitleContext {
  return new TitleContext({ title }, wordsOfTitle(title));
}

/** The index of the first word of `title` whose normalised form is `norm`. */
function indexOf(context: TitleContext, norm: string): number {
  const index = context.normalised.indexOf(norm);
  if (index < 0) throw new Error(`no word ${norm} in ${context.item.title}`);
  return index;
}

describe('TitleContext.isModelCodeAt', () => {
  it.each([
    ['Apple MC414HN/A', 'mc', true],
    ['S Class EW-73C Lens Hood', 'ew', true],
    ['Carlos CR-7026458 Analog Watch - For Girls', 'cr', true],
    ['BELL BLEP-D10 Earphone Cable Organizer', 'blep', true],
    ['Intel 3.1 GHz LGA 1150 E3-1220 v3 Processor', 'e', true],
    ['Round Neck T-Shirt for Men', 't', false],
    ['Dual Band Wi-Fi Router', 'wi', false],
    ['Stainless Steel Tumbler 500ml', '500', false],
    ['Picture Frame 10x20', '10', false],
    ['3-in-1 Charging Cable', '3', false],
    ['USB-C Cable 2m', 'usb', false],
  ])('%s: a model code starts at "%s": %s', (title, norm, code) => {
    const context = contextOf(title);

    expect(context.isModelCodeAt(indexOf(context, norm))).toBe(code);
  });

  it('does not start one inside a hyphenated code', () => {
    const context = contextOf('Canon EW-73C Lens Hood');

    expect(context.isModelCodeAt(indexOf(context, '73'))).toBe(false);
  });
});

describe('TitleContext.isMakerSlot', () => {
  const first = { start: 0, end: 1 } as Candidate;

  it('is the first word before a model code joined by hyphens', () => {
    const context = contextOf('BELL BLEP-D10 Organizer');

    expect(context.isMakerSlot(first)).toBe(true);
  });

  it('is not the first word of a title with no product word and no model code', () => {
    const context = contextOf('Royal Enfield');

    expect(context.isMakerSlot(first)).toBe(false);
  });
});

describe('TitleContext.isInPersonName', () => {
  it('reads a given name and a word that is no ordinary word, written alike, as a person', () => {
    const context = contextOf('Victor Hugo Les Miserables Hardcover Book');

    expect(context.isInPersonName(0)).toBe(true);
    expect(context.isInPersonName(1)).toBe(true);
  });

  it.each([['Carlos CR-7026458 Analog Watch - For Girls'], ['Victor VX500 Mouse Trap']])(
    '%s: a model code after a given name is no surname',
    (title) => {
      expect(contextOf(title).isInPersonName(0)).toBe(false);
    },
  );
});

describe('TitleContext.isAmpersandName', () => {
  /** The words from `start` to `end` as a candidate (the run itself is not read). */
  const wordsAt = (start: number, end: number) => ({ start, end }) as Candidate;

  it.each([
    ["H&M Women's Cotton T-Shirt", 0, 2, true],
    ['AT&T Prepaid Smartphone', 0, 2, true],
    ['Lock&Lock Storage Container', 0, 2, true],
    ['Black & Decker Cordless Drill', 0, 2, false],
    ['Salt and Pepper Shaker Set', 0, 3, false],
    ['H&M Women', 0, 1, false],
  ])('%s, words %i to %i: %s', (title, start, end, expected) => {
    expect(contextOf(title).isAmpersandName(wordsAt(start, end))).toBe(expected);
  });
});
