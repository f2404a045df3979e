import fc from 'fast-check';
import {
  editDistance,
  exactKey,
  lookupKeysOfMark,
  lookupKeysOfRecord,
  nearKeysOfMark,
  nearKeysOfRun,
  normalizeText,
  phoneticKey,
  phoneticSkeleton,
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

  it('a word mark of 4 to 9 letters has an exact key and its one-edit neighbourhood; from 7 letters a phonetic key', () => {
    expect(lookupKeysOfMark('NIKE')).toEqual(['e:nike', 'd:nike/nk']);
    expect(lookupKeysOfMark('Adidas')).toEqual(
      expect.arrayContaining([
        'e:adidas',
        'd:adidas/ads',
        'd:didas/ads',
        'd:aidas/ads',
        'd:addas/ads',
        'd:adias/ads',
        'd:adids/ads',
        'd:adida/ads',
      ]),
    );
    expect(lookupKeysOfMark('Adidas')).toHaveLength(8);
    expect(lookupKeysOfMark('Stanley')).toEqual(
      expect.arrayContaining(['e:stanley', 'p:stnl', 'd:stanley/stnl', 'd:stanly/stnl']),
    );
    // Nine letters: only a run of eight, one edit away, finds it through d: (its deletions, not its text).
    expect(lookupKeysOfMark('Blackberry')).toEqual(['e:blackberry', 'p:blkbr']);
    expect(lookupKeysOfMark('Starbucks')).toEqual(expect.arrayContaining(['d:tarbucks/strbks', 'd:starbuck/strbks']));
    expect(lookupKeysOfMark('Starbucks')).not.toContain('d:starbucks/strbks');
    // No phonetic skeleton (other scripts, three letters, a lone sound): no fuzzy key at all.
    expect(lookupKeysOfMark('GAP')).toEqual(['e:gap']);
    expect(lookupKeysOfMark('Aiea')).toEqual(['e:aiea']);
    expect(lookupKeysOfMark('耐克')).toEqual(['e:耐克']);
  });

  it('files a dead record under every key but its fuzzy ones (lookupKeysOfRecord)', () => {
    const record = { markText: 'STANLEY', owner: 'Stanley Works', transliteration: '史丹利' };
    const all = lookupKeysOfMark('STANLEY', '史丹利', 'Stanley Works');
    expect(lookupKeysOfRecord({ ...record, statusCategory: 'registered' })).toEqual(all);
    expect(lookupKeysOfRecord({ ...record, statusCategory: 'pending' })).toEqual(
      expect.arrayContaining(['p:stnl', 'd:stanly/stnl']),
    );
    expect(lookupKeysOfRecord({ ...record, statusCategory: 'dead' })).toEqual(
      all.filter((key) => !key.startsWith('p:') && !key.startsWith('d:')),
    );
    expect(lookupKeysOfRecord({ ...record, statusCategory: 'dead' })).toEqual(
      expect.arrayContaining(['e:stanley', 'e:史丹利', 'o:stanley works']),
    );
  });
});

describe('one-edit neighbourhoods (d: keys)', () => {
  const letters = fc.constantFrom(...'abeiknorst');
  const word = (min: number, max: number) =>
    fc.array(letters, { minLength: min, maxLength: max }).map((chars) => chars.join(''));
  /** A text one edit from `text`: a letter deleted, inserted, changed, or two neighbours swapped. */
  const oneEditFrom = (text: string) =>
    fc
      .tuple(fc.nat(text.length), letters, fc.constantFrom('delete', 'insert', 'change', 'swap'))
      .map(([at, letter, edit]) => {
        const i = Math.min(at, text.length - 1);
        if (edit === 'delete') return text.slice(0, i) + text.slice(i + 1);
        if (edit === 'insert') return text.slice(0, at) + letter + text.slice(at);
        if (edit === 'change') return text.slice(0, i) + letter + text.slice(i + 1);
        return i + 1 < text.length ? text.slice(0, i) + text[i + 1] + text[i] + text.slice(i + 2) : text;
      });

  it('a run of 5 to 8 letters shares a d: key with every mark one edit from it that sounds alike (same skeleton)', () => {
    fc.assert(
      fc.property(
        word(5, 8).chain((run) => fc.tuple(fc.constant(run), oneEditFrom(run))),
        ([run, mark]) => {
          fc.pre(phoneticSkeleton(run) !== undefined && phoneticSkeleton(mark) === phoneticSkeleton(run));
          expect(editDistance(run, mark)).toBeLessThanOrEqual(1);
          const runKeys = new Set(nearKeysOfRun(run));
          expect(nearKeysOfMark(mark).some((key) => runKeys.has(key))).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('a shared d: key means at most two edits, and the same text shares one', () => {
    fc.assert(
      fc.property(word(5, 8), word(4, 9), (run, mark) => {
        const runKeys = new Set(nearKeysOfRun(run));
        if (nearKeysOfMark(mark).some((key) => runKeys.has(key)))
          expect(editDistance(run, mark)).toBeLessThanOrEqual(2);
        if (phoneticSkeleton(run)) expect(nearKeysOfMark(run).some((key) => runKeys.has(key))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('a mark one edit away that sounds otherwise shares no d: key: the run never reads it', () => {
    const runKeys = new Set(nearKeysOfRun('nikee'));
    // "mikee" is one edit from "nikee" but its skeleton is mk, not nk.
    expect(nearKeysOfMark('mikee').some((key) => runKeys.has(key))).toBe(false);
    expect(nearKeysOfMark('nikke').some((key) => runKeys.has(key))).toBe(true);
  });

  it('gives a run outside 5 to 8 letters, or without a skeleton, no d: key', () => {
    expect(nearKeysOfRun('nike')).toEqual([]);
    expect(nearKeysOfRun('starbucks')).toEqual([]);
    expect(nearKeysOfRun('aiiea')).toEqual([]);
    expect(nearKeysOfRun('nikee')).toEqual(['d:nikee/nk', 'd:ikee/nk', 'd:nkee/nk', 'd:niee/nk', 'd:nike/nk']);
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
