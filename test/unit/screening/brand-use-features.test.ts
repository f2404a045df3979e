/**
 * Features of a match that say what the run is beside the mark: a word made of the mark ("Marwari" of MARWAR), the
 * unit after a number ("70 gm"), a name joined by "&" read as one word ("H&M", not the letters h and m).
 */
import {
  FEATURE_COUNT,
  FEATURE_NAMES,
  FeatureFiller,
  fillFeatures,
} from '../../../shared/screening/brand-use-features';
import { RunTable } from '../../../shared/screening/candidates';
import type { MatchKind, RunMatch } from '../../../shared/screening/run-matches';
import { TitleContext } from '../../../shared/screening/title-context';
import { wordsOfTitle } from '../../../shared/screening/title-words';
import { plainWordCount } from '../../../shared/screening/word-frequencies';
import { GENERAL_WORDS, generalRankOf, similarityOfRanks } from '../../../shared/screening/word-vectors';
import { candidateCovering } from '../../support/title-candidates';

/** The features of the candidate of `title` that covers the words `text` (as normalised), matched to `mark`. */
function featuresOf(title: string, text: string, mark: string, kind: MatchKind, distance = 0) {
  const { context, candidate } = candidateCovering(title, text);
  const match: RunMatch = {
    mark,
    serial: 'US-TEST-1',
    niceClasses: [],
    isLive: true,
    kind,
    distance,
    tro: false,
    troOnly: false,
    cn: false,
    ownerRegistrations: 1,
    ownerClasses: [],
  };
  const out = new Float64Array(FEATURE_COUNT);
  fillFeatures(context, candidate, match, { evasion: false, runHasExact: kind === 'exact' }, out);
  return (name: (typeof FEATURE_NAMES)[number]) => out[FEATURE_NAMES.indexOf(name)];
}

describe('fuzzy_other_form', () => {
  it.each([
    ['Marwari Style Brooch', 'marwari', 'Marwar'],
    ['Glitzy Shimmering Stones Earring', 'glitzy', 'Glitz'],
    ['Marwar Style Brooch', 'marwar', 'Marwari'],
  ])('%s: "%s" is a word made of %s', (title, text, mark) => {
    expect(featuresOf(title, text, mark, 'fuzzy', 1)('fuzzy_other_form')).toBe(1);
  });

  it.each([
    ['Nkie Running Shoes', 'nkie', 'Nike', 'fuzzy'],
    ['Adidsa Running Shoes', 'adidsa', 'Adidas', 'fuzzy'],
    ['Marwar Style Brooch', 'marwar', 'Marwar', 'exact'],
    ['Tenda Wireless Router', 'tenda wireless', 'Tenda', 'fuzzy'],
  ] as const)('%s: "%s" is no other word made of %s', (title, text, mark, kind) => {
    expect(featuresOf(title, text, mark, kind, kind === 'exact' ? 0 : 2)('fuzzy_other_form')).toBe(0);
  });
});

describe('prev_number', () => {
  it('is set for the run right after a number, not for one after a word', () => {
    expect(featuresOf('Parad Shivlingam (70 gm) Showpiece', 'gm', 'GM', 'exact')('prev_number')).toBe(1);
    expect(featuresOf('GM Genuine Parts Oil Filter', 'gm', 'GM', 'exact')('prev_number')).toBe(0);
  });
});

describe('a name joined by "&"', () => {
  it('is one word, "hm", as the title counts go, not the letters h and m', () => {
    const feature = featuresOf("H&M Women's Cotton T-Shirt", 'h m', 'H&M', 'exact');

    expect(feature('ampersand_name')).toBe(1);
    expect(feature('plain_freq_max_log')).toBe(Math.log1p(plainWordCount('hm')));
    expect(plainWordCount('m')).toBeGreaterThan(10 * (plainWordCount('hm') + 1));
    expect(feature('any_generic')).toBe(0);
  });
});

describe('general_rank_log, similar_next, similar_prev', () => {
  const similarity = (a: string, b: string) => similarityOfRanks(generalRankOf(a), generalRankOf(b));

  it('read the rank of the run’s first word in general text, and how near in use it stands to its neighbours', () => {
    const eagle = featuresOf('Eagle Feather Earrings', 'eagle', 'Eagle', 'exact');
    expect(eagle('general_rank_log')).toBeCloseTo(Math.log1p(generalRankOf('eagle')), 9);
    expect(eagle('similar_next')).toBeCloseTo(similarity('eagle', 'feather'), 9);
    expect(eagle('similar_prev')).toBe(-2);
    const ring = featuresOf('LED Ring Light', 'ring', 'Ring', 'exact');
    expect(ring('similar_prev')).toBeCloseTo(similarity('ring', 'led'), 9);
    expect(ring('similar_next')).toBeCloseTo(similarity('ring', 'light'), 9);
  });

  it('compare the run’s last word with the next, its first with the one before', () => {
    const kitty = featuresOf('Pink Hello Kitty Plush', 'hello kitty', 'Hello Kitty', 'exact');
    expect(kitty('general_rank_log')).toBeCloseTo(Math.log1p(generalRankOf('hello')), 9);
    expect(kitty('similar_next')).toBeCloseTo(similarity('kitty', 'plush'), 9);
    expect(kitty('similar_prev')).toBeCloseTo(similarity('hello', 'pink'), 9);
  });

  it('rank a word general text never uses below all others, and compare nothing with it or past the title’s end', () => {
    const coined = featuresOf('Karatcraft Gold Ring', 'karatcraft', 'Karatcraft', 'exact');
    expect(coined('general_rank_log')).toBeCloseTo(Math.log1p(GENERAL_WORDS), 9);
    expect(coined('similar_next')).toBe(-2);
    const last = featuresOf('Gold Ring Karatcraft', 'karatcraft', 'Karatcraft', 'exact');
    expect(last('similar_next')).toBe(-2);
    expect(last('similar_prev')).toBe(-2);
    expect(featuresOf('Gold Ring Eagle', 'eagle', 'Eagle', 'exact')('similar_next')).toBe(-2);
  });
});

describe('describing_all, describing_x_first, plain_noun_x_first', () => {
  it('tell a describing word first ("Stylish", "Black") from an everyday noun first that describes nothing', () => {
    const stylish = featuresOf('Stylish Stone Necklace', 'stylish', 'Stylish', 'exact');
    expect([stylish('describing_all'), stylish('describing_x_first'), stylish('plain_noun_x_first')]).toEqual([
      1, 1, 0,
    ]);
    const trident = featuresOf('Trident Cotton Towels', 'trident', 'Trident', 'exact');
    expect([trident('describing_all'), trident('describing_x_first'), trident('plain_noun_x_first')]).toEqual([
      0, 0, 1,
    ]);
    const pilot = featuresOf('Pilot Ball Pen', 'pilot', 'Pilot', 'exact');
    expect(pilot('plain_noun_x_first')).toBe(1);
  });

  it('leave a noun that is not first, a word no word list knows, and a word naming goods out of plain_noun_x_first', () => {
    expect(featuresOf('Cotton Trident Towels', 'trident', 'Trident', 'exact')('plain_noun_x_first')).toBe(0);
    expect(featuresOf('Harp Metal Necklace', 'harp', 'Harp', 'exact')('plain_noun_x_first')).toBe(0);
    expect(featuresOf('Karatcraft Gold Ring', 'karatcraft', 'Karatcraft', 'exact')('plain_noun_x_first')).toBe(0);
    expect(featuresOf('Necklace Metal Harp', 'necklace', 'Necklace', 'exact')('plain_noun_x_first')).toBe(0);
  });

  it('read a colour or material (a descriptor) as describing, first or not', () => {
    const black = featuresOf('Cotton Black Leggings', 'black', 'Black', 'exact');
    expect([black('describing_all'), black('describing_x_first')]).toEqual([1, 0]);
  });
});

describe('goods_word_elsewhere', () => {
  it('is set for a word naming goods of another class than the item the rest of the title names', () => {
    expect(featuresOf('Ring Video Doorbell Wired', 'ring', 'Ring', 'exact')('goods_word_elsewhere')).toBe(1);
    expect(featuresOf('Candy House Solid Polo T-Shirt', 'candy', 'Candy', 'exact')('goods_word_elsewhere')).toBe(1);
    expect(featuresOf('Harp Metal Necklace', 'harp', 'Harp', 'exact')('goods_word_elsewhere')).toBe(1);
  });

  it("is not set when the word names the item's goods or goods that travel with them, nor for a word naming none", () => {
    expect(featuresOf('Sterling Silver Ring for Women', 'ring', 'Ring', 'exact')('goods_word_elsewhere')).toBe(0);
    expect(featuresOf('Trident Cotton Towels', 'trident', 'Trident', 'exact')('goods_word_elsewhere')).toBe(0);
    expect(featuresOf('Ring', 'ring', 'Ring', 'exact')('goods_word_elsewhere')).toBe(0);
  });
});

describe('FeatureFiller: the candidate part worked out once for its matches', () => {
  const titles = [
    'Apple iPhone 12 Case Black Leather',
    'Nikee Air Running Shoes for Men',
    'charger for ipod and iphone',
    'Star Wars Lego Millennium Falcon building set',
  ];
  const marks: Pick<RunMatch, 'kind' | 'niceClasses' | 'distance' | 'isLive' | 'mark'>[] = [
    { mark: 'APPLE', kind: 'exact', niceClasses: ['09'], distance: 0, isLive: true },
    { mark: 'APPLES', kind: 'fuzzy', niceClasses: ['31'], distance: 1, isLive: true },
    { mark: 'Apple', kind: 'transliteration', niceClasses: [], distance: 0, isLive: false },
    { mark: 'APPLE', kind: 'exact', niceClasses: ['09', '14', '28'], distance: 0, isLive: true },
  ];

  it.each(titles)('writes what fillFeatures writes, for every match of every candidate of "%s"', (title) => {
    const words = wordsOfTitle(title);
    const context = new TitleContext({ title }, words);
    const filler = new FeatureFiller();
    const expected = new Float64Array(FEATURE_COUNT);
    const got = new Float64Array(FEATURE_COUNT);
    let compared = 0;
    for (const candidate of new RunTable().candidatesOf(words)) {
      for (const evasion of [false, true]) {
        const facts = { evasion, runHasExact: !evasion };
        for (const m of marks) {
          const match: RunMatch = {
            ...m,
            serial: 'US-TEST-1',
            tro: false,
            troOnly: false,
            cn: false,
            ownerRegistrations: 1,
            ownerClasses: m.niceClasses,
          };
          fillFeatures(context, candidate, match, facts, expected);
          filler.fill(context, candidate, match, facts, got);
          expect([...got]).toEqual([...expected]);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(8);
  });
});
