/**
 * Look-alike letters read as Latin by Unicode's confusables data (UTS #39; data/screening/confusables.json, built
 * by builders/build-confusables.ts): when a token is folded, and when it stays as written.
 */
import confusables from '../../../data/screening/confusables.json';
import { CONFUSABLES_VERSION, latinReadingOf } from '../../../shared/screening/confusables';
import { foldLookAlikes } from '../../../shared/screening/evasion';
import { wordsOfTitle } from '../../../shared/screening/title-words';

const read = (title: string) => wordsOfTitle(title).map((w) => [w.norm, w.lookAlike]);

describe('the confusables table', () => {
  it('names the confusables.txt it was built from', () => {
    expect(CONFUSABLES_VERSION).toBe('17.0.0');
    expect(confusables.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(confusables.source).toContain(confusables.sha256);
  });

  it('holds letters only, none ASCII, each read as ASCII letters or digits', () => {
    const readings = Object.entries(confusables.readings as Record<string, string>);
    expect(readings.length).toBeGreaterThan(1_000);
    for (const [source, reading] of readings) {
      expect(source).toMatch(/^\p{L}$/u);
      expect(source.codePointAt(0)!).toBeGreaterThanOrEqual(0x80);
      expect(reading).toMatch(/^[A-Za-z0-9]+$/);
    }
  });

  it('reads a letter that looks like a capital I as I, and leaves Latin ligatures out', () => {
    expect(['І', 'Ι', 'Ӏ', 'ӏ', 'ı'].map(latinReadingOf)).toEqual(['I', 'I', 'I', 'l', 'i']);
    expect(['æ', 'œ', 'é', 'a', '1', '0'].map(latinReadingOf)).toEqual(Array(6).fill(undefined));
  });
});

describe('foldLookAlikes', () => {
  it('reads a dotless i among Latin letters as i', () => {
    expect(foldLookAlikes('Nıke')).toBe('Nike');
    expect(foldLookAlikes('ADİDAS')).toBeUndefined();
  });

  it('reads Cyrillic а, е, о mixed into a Latin word as Latin', () => {
    expect(foldLookAlikes('Nikе')).toBe('Nike');
    expect(foldLookAlikes('Аdidas')).toBe('Adidas');
    expect(foldLookAlikes('Sаmsung')).toBe('Samsung');
    expect(foldLookAlikes('Lоgitech')).toBe('Logitech');
    expect(foldLookAlikes('NІKE')).toBe('NIKE');
    // With an accent on a look-alike: its base letter is read.
    expect(foldLookAlikes('Nikё')).toBe('Nike');
  });

  it('reads a full-width form as the letter it is', () => {
    expect(foldLookAlikes('Ｎｉｋｅ')).toBe('Nike');
    expect(foldLookAlikes('Ｎikе')).toBe('Nike');
  });

  it('reads three or more look-alikes with no Latin letter as Latin', () => {
    expect(foldLookAlikes('АРРLЕ')).toBe('APPLE');
    expect(foldLookAlikes('ΑΡΡLΕ')).toBe('APPLE');
    // The rule of three reads a short Russian word of look-alikes only ("оса", wasp) as Latin too, as it always did.
    expect(foldLookAlikes('оса')).toBe('oca');
    expect(foldLookAlikes('ос')).toBeUndefined();
  });

  it('leaves a genuine Russian or Greek word as written', () => {
    for (const word of ['Привет', 'Кабель', 'зарядка', 'Ελληνικά', 'смартфон', 'ЗАО']) {
      expect(foldLookAlikes(word)).toBeUndefined();
    }
  });

  it('never folds a token of ASCII letters, digits and symbols', () => {
    for (const token of ['1080p', '5W-30', '3M', 'l0l', 'I1l|', 'm', 'Nike', '0O0']) {
      expect(foldLookAlikes(token)).toBeUndefined();
    }
  });
});

describe('look-alikes in a title', () => {
  it('are read as Latin and marked as look-alike spellings', () => {
    expect(read('Nıke running shoes')).toEqual([
      ['nike', true],
      ['running', false],
      ['shoes', false],
    ]);
    expect(read('Nikе Air')).toEqual([
      ['nike', true],
      ['air', false],
    ]);
  });

  it('leave ordinary titles as they were', () => {
    expect(read('1080p HD Camera 5W-30 Oil 3M Tape')).toEqual(
      ['1080', 'p', 'hd', 'camera', '5', 'w', '30', 'oil', '3', 'm', 'tape'].map((norm) => [norm, false]),
    );
    expect(read('Кабель USB Привет')).toEqual([
      ['кабель', false],
      ['usb', false],
      ['привет', false],
    ]);
  });

  it('read a full-width title through NFKC, as every title is read: no look-alike', () => {
    expect(read('Ｎｉｋｅ Shoes')).toEqual([
      ['nike', false],
      ['shoes', false],
    ]);
  });
});
