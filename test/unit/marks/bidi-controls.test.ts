/**
 * Directional controls (UAX #9) are invisible, and an override can show a word written backwards as the brand
 * ("\u202EekiN" shows "Nike"): titles and marks are read without the controls, in the order a viewer shows them.
 */
import { displaySegments, inDisplayOrder, normalizeText } from '../../../shared/marks/lookup-keys';
import { wordsOfTitle } from '../../../shared/screening/title-words';

const RLO = '\u202E';
const LRO = '\u202D';
const RLE = '\u202B';
const LRE = '\u202A';
const PDF = '\u202C';
const RLI = '\u2067';
const LRI = '\u2066';
const FSI = '\u2068';
const PDI = '\u2069';

describe('inDisplayOrder', () => {
  it('reverses what a right-to-left override holds, up to its PDF or the end of the text', () => {
    expect(inDisplayOrder(`${RLO}ekiN`)).toBe('Nike');
    expect(inDisplayOrder(`Buy ${RLO}ekiN${PDF} shoes`)).toBe('Buy Nike shoes');
    expect(inDisplayOrder(`${RLO}ekiN running shoes`)).toBe('seohs gninnur Nike');
    expect(inDisplayOrder(`Ni${RLO}ek${PDF} Air`)).toBe('Nike Air');
  });

  it('ends an override at the end of its paragraph, or at the PDI of an isolate it is inside', () => {
    expect(inDisplayOrder(`${RLO}ba\ncd`)).toBe('ab\ncd');
    expect(inDisplayOrder(`x ${RLI}${RLO}ba${PDI} cd`)).toBe('x ab cd');
    // A PDF does not close an isolate, nor an override outside it.
    expect(inDisplayOrder(`${RLO}ba${LRI}cd${PDF}ef${PDI}`)).toBe('cdefab');
  });

  it('moves an embedding, isolate or left-to-right override inside an override as one piece', () => {
    expect(inDisplayOrder(`${RLO}a${LRO}bc${PDF}d${PDF}`)).toBe('dbca');
    expect(inDisplayOrder(`a${RLO}b${LRI}cd${PDI}ef${PDF}g`)).toBe('afecdbg');
  });

  it('only takes out embeddings, isolates and marks, which show Latin text in the order written', () => {
    for (const control of [RLE, LRE, LRO, RLI, LRI, FSI]) {
      const close = control === RLI || control === LRI || control === FSI ? PDI : PDF;
      expect(inDisplayOrder(`Buy ${control}Nike Air${close} shoes`)).toBe('Buy Nike Air shoes');
    }
    expect(inDisplayOrder('Ni\u200Eke \u200FAir\u061C')).toBe('Nike Air');
    expect(inDisplayOrder(`stray ${PDF}${PDI}closers`)).toBe('stray closers');
  });

  it('keeps a letter and its accents together when it reverses', () => {
    expect(inDisplayOrder(`${RLO}e\u0301mre\u0300H`)).toBe('He\u0300rme\u0301');
  });

  it('says which stretches are shown otherwise than written', () => {
    expect(displaySegments(`Buy ${RLO}ekiN${PDF} shoes`)).toEqual([
      { text: 'Buy ', reversed: false },
      { text: 'Nike', reversed: true },
      { text: ' shoes', reversed: false },
    ]);
    // One letter reversed is the letter as written.
    expect(displaySegments(`a${RLO}b${PDF}c`)).toEqual([{ text: 'abc', reversed: false }]);
  });
});

describe('normalizeText', () => {
  it('reads a title or mark without its controls, in the order shown', () => {
    expect(normalizeText(`${RLO}ekiN`)).toBe('nike');
    expect(normalizeText(`Buy ${RLO}ekiN${PDF} shoes`)).toBe('buy nike shoes');
    expect(normalizeText(`Ni${RLI}ke${PDI}`)).toBe('nike');
    expect(normalizeText(`Ni\u2066\u2067\u2068\u2069\u061Cke`)).toBe('nike');
  });
});

describe('the words of a title with directional controls', () => {
  const read = (title: string) => wordsOfTitle(title).map((w) => [w.text, w.norm, w.lookAlike]);

  it('are the words shown, a reversed one marked as an evasive spelling', () => {
    expect(read(`${RLO}ekiN`)).toEqual([['Nike', 'nike', true]]);
    expect(read(`Buy ${RLO}ekiN${PDF} shoes`)).toEqual([
      ['Buy', 'buy', false],
      ['Nike', 'nike', true],
      ['shoes', 'shoes', false],
    ]);
    expect(read(`Ni${RLO}ek${PDF}™ Air`)).toEqual([
      ['Nike', 'nike', true],
      ['Air', 'air', false],
    ]);
  });

  it('are as without the controls when nothing is reversed', () => {
    expect(read(`Buy ${RLI}Nike${PDI} ${RLE}Air${PDF} shoes\u200F`)).toEqual(read('Buy Nike Air shoes'));
  });
});
