import fc from 'fast-check';
import {
  editDistance,
  exactKey,
  lookupKeysOfMark,
  lookupKeysOfRecord,
  normalizeText,
  phoneticKey,
} from '../../../shared/marks/lookup-keys';

describe('normalizeText', () => {
  it.each([
    ['Nike®', 'nike'],
    ['COCA-COLA™', 'coca cola'],
    ["Levi's", 'levis'],
    ['Nestlé', 'nestle'],
    ['ＮＩＫＥ', 'nike'],
    ['  H&M  ', 'h m'],
    ['耐克 NIKE', '耐克 nike'],
    ['Dr. Martens', 'dr martens'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeText(input)).toBe(expected);
  });
});

describe('exact keys join words, so spacing and hyphens do not matter', () => {
  it.each([
    ['Coca-Cola', 'coca cola'],
    ['AirPods', 'air pods'],
    ['Ray-Ban', 'RAYBAN'],
  ])('%s ~ %s', (a, b) => {
    expect(exactKey(a)).toBe(exactKey(b));
  });

  it('a mark with no text has no exact key', () => {
    expect(exactKey('')).toBeUndefined();
    expect(exactKey('™')).toBeUndefined();
  });
});

describe('phonetic keys catch misspellings and sound-alikes', () => {
  it.each([
    ['Nike', 'Nikee'],
    ['Adidas', 'Addidas'],
    ['Stanley', 'Stanly'],
    ['Chanel', 'Shanel'],
    ['Gucci', 'Guci'],
    ['Louis Vuitton', 'Louis Vuiton'],
    ['Michael Kors', 'Micheal Kors'],
  ])('%s ~ %s', (mark, variant) => {
    expect(phoneticKey(variant)).toBe(phoneticKey(mark));
    expect(phoneticKey(mark)).toBeDefined();
  });

  it.each([
    ['Nike', 'Vans'],
    ['Adidas', 'Puma'],
    ['Apple', 'Google'],
  ])('%s and %s stay apart', (a, b) => {
    expect(phoneticKey(a)).not.toBe(phoneticKey(b));
  });

  it('short words get no phonetic key (too many collisions)', () => {
    expect(phoneticKey('GAP')).toBeUndefined();
  });
});

describe('lookupKeysOfMark', () => {
  it('files a mixed-script mark under the whole and each script', () => {
    const keys = lookupKeysOfMark('星河织造 XINGHE WEAVE', 'xing he zhi zao');
    expect(keys).toEqual(
      expect.arrayContaining(['e:星河织造xingheweave', 'e:星河织造', 'e:xingheweave', 'e:xinghezhizao']),
    );
  });

  it('a word mark has an exact and a phonetic key', () => {
    expect(lookupKeysOfMark('NIKE')).toEqual(['e:nike', 'p:nk']);
  });

  it('files a dead record under every key but its sounds-alike ones (lookupKeysOfRecord)', () => {
    const record = { markText: 'NIKE', owner: 'Nike, Inc.', transliteration: '耐克' };
    expect(lookupKeysOfRecord({ ...record, statusCategory: 'registered' })).toEqual(
      lookupKeysOfMark('NIKE', '耐克', 'Nike, Inc.'),
    );
    expect(lookupKeysOfRecord({ ...record, statusCategory: 'pending' })).toContain('p:nk');
    expect(lookupKeysOfRecord({ ...record, statusCategory: 'dead' })).toEqual(
      lookupKeysOfMark('NIKE', '耐克', 'Nike, Inc.').filter((key) => !key.startsWith('p:')),
    );
  });
});

describe('editDistance', () => {
  it.each([
    ['nike', 'nike', 0],
    ['nike', 'nikee', 1],
    ['adidas', 'addidas', 1],
    ['adidas', 'aidads', 2],
    ['stanley', 'stanly', 1],
    ['nike', 'nkie', 1],
    ['', 'abc', 3],
  ])('%s / %s = %d', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
  });

  it('stops early past the bound', () => {
    expect(editDistance('abcdefgh', 'zyxwvuts', 2)).toBe(3);
  });

  /** The textbook table (optimal string alignment), one fresh row per character: what editDistance must equal. */
  function tableDistance(a: string, b: string): number {
    const d = Array.from({ length: a.length + 1 }, (_, i) =>
      Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
    );
    for (let i = 1; i <= a.length; i++)
      for (let j = 1; j <= b.length; j++) {
        d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
          d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
      }
    return d[a.length]![b.length]!;
  }

  it('equals the textbook table within its bound and exceeds the bound past it, in whatever order it is asked', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'n', 'é'), maxLength: 90 });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(word, word, fc.constantFrom(0, 1, 2, 5, Number.POSITIVE_INFINITY)), {
          minLength: 1,
          maxLength: 8,
        }),
        (pairs) => {
          for (const [a, b, max] of pairs) {
            const want = tableDistance(a, b);
            if (want <= max) expect(editDistance(a, b, max)).toBe(want);
            else expect(editDistance(a, b, max)).toBeGreaterThan(max);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
