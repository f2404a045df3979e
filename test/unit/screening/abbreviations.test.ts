/**
 * An abbreviation the title spells out beside it (shared/screening/abbreviations.ts) names the term, not a mark of
 * the same letters; a maker's name, a TRO brand, a known trademark word or letters no words beside them give are
 * left for screening to judge.
 */
import { isSpelledOutAbbreviation } from '../../../shared/screening/abbreviations';
import { wordsOfTitle } from '../../../shared/screening/title-words';

const noBrand = () => false;

/** Whether the title's word `abbreviation` reads as spelled out. */
function spelledOut(title: string, abbreviation: string, isBrandName: (word: string) => boolean = noBrand): boolean {
  const words = wordsOfTitle(title);
  const at = words.findIndex((w) => w.norm === abbreviation);
  if (at < 0) throw new Error(`"${abbreviation}" is not a word of "${title}"`);
  return isSpelledOutAbbreviation(words, { start: at, end: at + 1, run: undefined as never }, isBrandName);
}

describe('spelled out beside it', () => {
  it.each([
    ['Power over Ethernet PoE Switch 8 Port', 'poe'],
    ['PoE (Power over Ethernet) Injector', 'poe'],
    ['Federal Bureau of Investigation FBI Cap', 'fbi'],
    ['Liquid Crystal Display LCD Monitor 24 Inch', 'lcd'],
    ['Solid State Drive SSD 1TB', 'ssd'],
  ])('"%s": %s is the term', (title, abbreviation) => {
    expect(spelledOut(title, abbreviation)).toBe(true);
  });
});

describe('not spelled out', () => {
  it('letters that the words beside them do not give', () => {
    expect(spelledOut('PoE Network Switch 8 Port', 'poe')).toBe(false);
  });

  it("a maker's name spelled out: its words are no ordinary words", () => {
    expect(spelledOut('Zorblaxa Wireless Earbuds ZWE Edition', 'zwe')).toBe(false);
  });

  it('a TRO brand, even where the words beside it happen to spell it', () => {
    expect(spelledOut('Power over Ethernet PoE Switch', 'poe', (w) => w === 'poe')).toBe(false);
  });

  it('two letters, which the words beside them give by chance too often ("GE Light Bulb")', () => {
    expect(spelledOut('Great Escape GE Light Bulb', 'ge')).toBe(false);
  });

  it('a run of several words or a part of a token', () => {
    const words = wordsOfTitle('Power over Ethernet PoE Switch');
    expect(isSpelledOutAbbreviation(words, { start: 3, end: 5, run: undefined as never }, noBrand)).toBe(false);
    expect(spelledOut('Power over Ethernet PoE-Switch', 'poe')).toBe(false);
  });
});
