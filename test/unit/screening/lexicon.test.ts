import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { buildLexicon, serializeLexicon } from '../../../builders/lexicon/build';
import { DEFAULT_SHARED_DIR, LEXICON_FILE } from '../../../builders/lexicon/paths';
import { categoryHeadNouns, niceHeadNoun } from '../../../builders/lexicon/product-classes';
import { pluralOf, singularOf } from '../../../builders/lexicon/word-forms';
import { normalizeText } from '../../../shared/marks/lookup-keys';
import {
  factsOfNormalised,
  followsNominativeCue,
  inferNiceClasses,
  inferNiceClassesOfFacts,
  isDualUse,
  isGenericWord,
  isKnownTrademarkWord,
  isNumberLike,
  isStopword,
  NOMINATIVE_CUES,
  nominativeCueAt,
  nominativeCueOf,
  productClassesOf,
} from '../../../shared/screening/lexicon';

/** A title as the engine sees it: normalised words (Latin split on spaces, as normalizeText leaves them). */
const wordsOf = (title: string): string[] => normalizeText(title).split(' ');

/** Chinese titles segmented the way the engine does it. */
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });
const segmentsOf = (title: string): string[] =>
  [...segmenter.segment(normalizeText(title))].filter((part) => part.isWordLike).map((part) => part.segment);

const topClassOf = (title: string): string | undefined => inferNiceClasses(wordsOf(title))[0]?.nice;

describe('generic words', () => {
  it.each([
    'slicer',
    'slicers',
    'earbuds',
    'earbud',
    'headphones',
    'stainless',
    'steel',
    'black',
    'navy',
    'xl',
    'xxl',
    '3xl',
    'cm',
    'oz',
    'ml',
    'pcs',
    'pack',
    'cotton',
    'polyester',
    'leather',
    'wireless',
    'bluetooth',
    'usb',
    'women',
    'mens',
    'sneakers',
    'sneaker',
    'handbag',
    'knife',
    'knives',
    'whistle',
    'lanyard',
    'floral',
    'rectangular',
    'unisex',
    '连衣裙',
    '衣裙',
    '鞋',
    '手机壳',
    '男',
    '女',
    '款',
    '新款',
    '不锈钢',
    '黑色',
  ])('%s is generic', (word) => {
    expect(isGenericWord(word)).toBe(true);
  });

  it.each(['2pcs', '500ml', '10inch', '3x', '1080p', '4k', '10x20', '2件', '42', '1st'])(
    'the number form %s is generic',
    (word) => {
      expect(isNumberLike(word)).toBe(true);
      expect(isGenericWord(word)).toBe(true);
    },
  );

  it.each(['s24', 'x100v', 'a7iii'])('the model number %s is not a number form', (word) => {
    expect(isNumberLike(word)).toBe(false);
  });

  it.each(['nike', 'adidas', 'iphone', 'xiaomi', 'samsung', 'stanley', 'huawei', 'lego', 'gucci', 'airpods'])(
    'the coined brand %s is not generic',
    (word) => {
      expect(isGenericWord(word)).toBe(false);
    },
  );

  it.each(['teflon', 'kevlar', 'velcro', 'lycra', 'cordura'])(
    'the trade name %s that the taxonomy lists as a material is not generic but a known trademark word',
    (word) => {
      expect(isGenericWord(word)).toBe(false);
      expect(isKnownTrademarkWord(word)).toBe(true);
    },
  );

  it.each(['hp', 'lg', 'gm'])('the brand abbreviation %s is not generic', (word) => {
    expect(isGenericWord(word)).toBe(false);
  });

  it('looks words up in their normalised form whatever the input case and accents', () => {
    expect(isGenericWord('Stainless')).toBe(true);
    expect(isGenericWord('SLICERS')).toBe(true);
    expect(isDualUse('Apple')).toBe(true);
    expect(isGenericWord('Nike')).toBe(false);
  });
});

describe('stopwords', () => {
  it.each(['the', 'for', 'with', 'and', '的', '和', '适用于', '兼容'])('%s is a stopword', (word) => {
    expect(isStopword(word)).toBe(true);
  });

  it.each(['always', 'next', 'off', '为', 'apple'])('%s is not a stopword (a brand can be that word alone)', (word) => {
    expect(isStopword(word)).toBe(false);
  });
});

describe('dual-use words: brands that are also ordinary words', () => {
  it.each(['apple', 'coach', 'dove', 'gap', 'ring', 'oxford', 'orange', 'windows'])('%s is dual-use', (word) => {
    expect(isDualUse(word)).toBe(true);
  });

  it.each(['apple', 'coach', 'ring', 'orange'])('%s is generic as well', (word) => {
    expect(isGenericWord(word)).toBe(true);
  });

  it.each(['slicer', 'stainless', 'nike', 'iphone', 'the'])('%s is not dual-use', (word) => {
    expect(isDualUse(word)).toBe(false);
  });
});

describe('known trademark words (WordNet trade names)', () => {
  it.each(['ping pong', 'pingpong', 'lego', 'walkman', 'rolodex', 'band aid', 'bandaid', 'zovirax', 'ipod'])(
    '%s is a known trademark word',
    (word) => {
      expect(isKnownTrademarkWord(word)).toBe(true);
    },
  );

  it.each(['table tennis', 'scuba', 'acyclovir', 'trademark', 'generic', 'brand', 'proprietary'])(
    '%s (a common name or a word about trademarks) is not',
    (word) => {
      expect(isKnownTrademarkWord(word)).toBe(false);
    },
  );
});

describe('productClassesOf', () => {
  it.each([
    ['headphones', '09'],
    ['earbuds', '09'],
    ['shoes', '25'],
    ['sneakers', '25'],
    ['handbag', '18'],
    ['knife', '08'],
    ['mugs', '21'],
    ['连衣裙', '25'],
    ['耳机', '09'],
    ['kurtas', '25'],
    ['saree', '25'],
    ['kadhai', '21'],
    ['bangles', '14'],
    ['showpiece', '20'],
    ['blazers', '25'],
    ['windcheater', '25'],
  ])('%s points first to class %s', (word, nice) => {
    expect(productClassesOf(word)[0]?.nice).toBe(nice);
  });

  // A one-word category of the taxonomy ("Jewelry > Rings", "Jewelry > Bracelets", "Lighting > Lamps") says what the
  // word means alone in a listing, over the compounds the Nice terms head with it (napkin rings, piston rings).
  it.each([
    ['ring', '14'],
    ['rings', '14'],
    ['bracelet', '14'],
    ['lamp', '11'],
  ])('%s points first to class %s, with about half the weight or more', (word, nice) => {
    const [first] = productClassesOf(word);

    expect(first?.nice).toBe(nice);
    expect(first!.weight).toBeGreaterThan(0.45);
  });

  it("keeps the compounds' reading of a word beside it: ring also reads as napkin rings (21)", () => {
    expect(productClassesOf('ring').map((weight) => weight.nice)).toContain('21');
  });

  it.each(['wine', 'flower', 'note', 'kitchen', 'phone'])('%s names what other products are for or made of', (word) => {
    expect(factsOfNormalised(word).modifier).toBe(true);
  });

  it.each(['icon', 'necklace', 'kurta', 'black', 'nike'])('%s modifies no product name', (word) => {
    expect(factsOfNormalised(word).modifier).toBe(false);
  });

  it('keeps ambiguity: a word can point to several classes, weights adding up to 1', () => {
    const slicer = productClassesOf('slicer');

    expect(slicer.map((weight) => weight.nice)).toEqual(expect.arrayContaining(['08', '21']));
    expect(slicer.reduce((sum, weight) => sum + weight.weight, 0)).toBeCloseTo(1, 5);
  });

  it('gives singular and plural the same classes', () => {
    expect(productClassesOf('knives')).toEqual(productClassesOf('knife'));
    expect(productClassesOf('slicers')).toEqual(productClassesOf('slicer'));
  });

  it.each(['black', 'kids', 'women', 'accessories', 'nike', 'the'])('%s points to no class', (word) => {
    expect(productClassesOf(word)).toEqual([]);
  });

  it('every class in the data is a two-digit goods class', () => {
    const data = JSON.parse(readFileSync(LEXICON_FILE, 'utf8')) as { productClasses: Record<string, string> };
    const classes = Object.keys(data.productClasses).flatMap((weights) =>
      weights.split(' ').map((entry) => entry.split(':')[0]),
    );

    expect(classes.filter((nice) => !/^(0[1-9]|[12]\d|3[0-4])$/.test(nice ?? ''))).toEqual([]);
  });
});

describe('inferNiceClasses', () => {
  it.each([
    ['Wireless Bluetooth Earbuds Noise Cancelling Headphones', ['09']],
    ["Men's Running Shoes Breathable Mesh Sneakers", ['25']],
    ['Stainless Steel Apple Slicer Corer', ['08', '21']],
    ['Leather Crossbody Handbag for Women', ['18']],
    // The data: Nice files signalling whistles in 09, Shopify files sport whistles in Sporting Goods (28) and
    // tin whistles in musical instruments (15); with "coach" (dual-use) left out, the sport whistle wins.
    ['Coach Whistle with Lanyard', ['28']],
    ['Phone Case for Samsung Galaxy S24', ['09']],
    ['Yoga Mat Non Slip 6mm', ['28']],
    ['Gap Kids Hoodie', ['25']],
  ])('%s -> %s first', (title, expected) => {
    expect(expected).toContain(topClassOf(title));
  });

  it('infers the class of a Chinese title from its segments', () => {
    expect(inferNiceClasses(segmentsOf('女士连衣裙夏季新款'))[0]?.nice).toBe('25');
    expect(inferNiceClasses(segmentsOf('无线蓝牙耳机降噪'))[0]?.nice).toBe('09');
  });

  it('weighs the head noun most: the last product word before "for" / "with"', () => {
    // "bag" before "for" is the product; "shoes" after it is what the bag holds.
    expect(topClassOf('Travel Bag for Shoes')).toBe('18');
    expect(topClassOf('Shoes with Travel Bag')).toBe('25');
  });

  it('uses a dual-use word only when nothing else names the product', () => {
    expect(topClassOf('Apple')).toBe('31');
    expect(inferNiceClasses(wordsOf('Coach Whistle')).map((weight) => weight.nice)).not.toContain('12');
  });

  it('returns weights that add up to 1, sorted strongest first', () => {
    const classes = inferNiceClasses(wordsOf('Stainless Steel Apple Slicer Corer'));
    const weights = classes.map((weight) => weight.weight);

    expect(weights).toEqual([...weights].sort((a, b) => b - a));
    expect(weights.reduce((sum, weight) => sum + weight, 0)).toBeCloseTo(1, 2);
    expect(classes.every((weight) => /^\d\d$/.test(weight.nice))).toBe(true);
  });

  it('returns nothing for a title without product words', () => {
    expect(inferNiceClasses(wordsOf('Nike Adidas 2024'))).toEqual([]);
    expect(inferNiceClasses([])).toEqual([]);
  });

  it('reads skipped words as naming no product, as if their classes were taken away', () => {
    const wordFacts = (title: string) => wordsOf(title).map(factsOfNormalised);
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom('apple', 'slicer', 'ring', 'for', 'case', 'steel', 'kurta', 'coach', 'whistle', 'pro'),
        ),
        fc.nat(8),
        fc.nat(3),
        (words, from, length) => {
          const facts = wordFacts(words.join(' '));
          const stripped = facts.map((f, i) => (i >= from && i < from + length ? { ...f, classes: [] } : f));
          expect(inferNiceClassesOfFacts(facts, { from, to: from + length })).toEqual(
            inferNiceClassesOfFacts(stripped),
          );
        },
      ),
    );
    // "Apple MC414HN/A" is not sold as fruit because it says apple.
    expect(inferNiceClassesOfFacts(wordFacts('apple slicer'), { from: 1, to: 2 })[0]?.nice).toBe('31');
    expect(inferNiceClassesOfFacts(wordFacts('apple slicer'), { from: 0, to: 1 })[0]?.nice).toBe('08');
  });

  it('never throws and always returns valid weights, whatever the words', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string(), fc.constantFrom('for', 'with', 'shoes', 'case', 'apple', '鞋'))),
        (words) => {
          const classes = inferNiceClasses(words);
          return classes.every((weight) => /^\d\d$/.test(weight.nice) && weight.weight > 0 && weight.weight <= 1);
        },
      ),
    );
  });
});

describe('nominative cues', () => {
  const cueIndexOf = (title: string, word: string): boolean => {
    const words = wordsOf(title);
    return nominativeCueAt(words, words.indexOf(word));
  };

  it('"Case Compatible with iPhone 15": iphone is introduced by "compatible with"', () => {
    const words = wordsOf('Case Compatible with iPhone 15');

    expect(nominativeCueAt(words, words.indexOf('iphone'))).toBe(true);
    expect(nominativeCueOf(words, words.indexOf('iphone'))).toBe('compatible with');
  });

  it('knows the word straight after a cue, and only that word', () => {
    const keys = wordsOf('Case Compatible with Galaxy S24 for Men');

    expect(keys.map((_, i) => followsNominativeCue(keys, i))).toEqual([false, false, false, true, false, false, true]);
  });

  it('looks past one determiner after the cue: "for the Kindle Fire", "for your iPhone", not "for men and the kids"', () => {
    const introduced = (title: string) => {
      const keys = wordsOf(title);
      return keys.filter((_, i) => followsNominativeCue(keys, i));
    };

    expect(introduced('Stand for the Kindle Fire')).toEqual(['the', 'kindle']);
    expect(introduced('Case for your iPhone 15')).toEqual(['your', 'iphone']);
    expect(introduced('Charger for All Echo Devices')).toEqual(['all', 'echo']);
    expect(introduced('Stand the Kindle Fire')).toEqual([]);
    expect(introduced('Shirt for men and the kids')).toEqual(['men']);
  });

  it('"for Samsung Galaxy S24": every word up to three after the cue is introduced', () => {
    expect(cueIndexOf('Phone Case for Samsung Galaxy S24', 'samsung')).toBe(true);
    expect(cueIndexOf('Phone Case for Samsung Galaxy S24', 'galaxy')).toBe(true);
    expect(cueIndexOf('Phone Case for Samsung Galaxy S24', 's24')).toBe(true);
  });

  it.each([
    ['Replacement Battery Replacement for Dyson V8', 'dyson', 'replacement for'],
    ['Charger Works with Apple Watch', 'apple', 'works with'],
    ['Screen Protector Fits Kindle Paperwhite', 'kindle', 'fits'],
    ['Band Designed for Fitbit Charge 5', 'fitbit', 'designed for'],
  ])('%s: %s is introduced by "%s"', (title, word, cue) => {
    const words = wordsOf(title);

    expect(nominativeCueOf(words, words.indexOf(word))).toBe(cue);
  });

  it('"iPhone Case": iphone names the product, no cue', () => {
    expect(cueIndexOf('iPhone Case', 'iphone')).toBe(false);
    expect(cueIndexOf('Nike Running Shoes for Men', 'nike')).toBe(false);
  });

  it('names every item of a list the cue opened: "for iPod and iPhone", "for iPad Air or iPhone"', () => {
    expect(cueIndexOf('Charger for iPod and iPhone', 'iphone')).toBe(true);
    expect(cueIndexOf('Charger for iPad Air or iPhone', 'iphone')).toBe(true);
    expect(cueIndexOf('Cable for Kindle, Echo & Ring', 'ring')).toBe(true);
    expect(cueIndexOf('Case for iPhone with Stand and Apple Pencil Holder', 'apple')).toBe(false);
    expect(cueIndexOf('Leather Case and Apple Pencil Holder', 'apple')).toBe(false);
  });

  it('reaches at most three words after the cue and stops at "with"', () => {
    expect(cueIndexOf('Case for iPhone 15 Pro Max Clear', 'max')).toBe(false);
    expect(cueIndexOf('Case for iPhone with Nike Logo', 'nike')).toBe(false);
  });

  it('detects 适用于 and 兼容 in segmented Chinese titles', () => {
    const fits = segmentsOf('适用于苹果iPhone15手机壳');
    const compatible = segmentsOf('兼容华为耳机');

    expect(nominativeCueAt(fits, fits.indexOf('苹果'))).toBe(true);
    expect(nominativeCueAt(compatible, compatible.indexOf('华'))).toBe(true);
    expect(nominativeCueAt(fits, 0)).toBe(false);
  });

  it('lists each cue as normalised words', () => {
    for (const cue of NOMINATIVE_CUES) for (const word of cue) expect(normalizeText(word)).toBe(word);
  });

  it('is false for an index outside the title', () => {
    const words = wordsOf('Case for iPhone');

    expect(nominativeCueAt(words, -1)).toBe(false);
    expect(nominativeCueAt(words, 3)).toBe(false);
    expect(nominativeCueAt(words, 0)).toBe(false);
  });
});

describe('word forms of the builder', () => {
  it.each([
    ['knives', 'knife'],
    ['slicers', 'slicer'],
    ['batteries', 'battery'],
    ['boxes', 'box'],
    ['watches', 'watch'],
    ['cases', 'case'],
  ])('%s <-> %s', (plural, singular) => {
    expect(singularOf(plural)).toBe(singular);
    expect(pluralOf(singular)).toBe(plural);
  });

  it.each(['stainless', 'dress', 'glasses', 'lens', 'canvas'])('%s is not taken for a plural', (word) => {
    expect(singularOf(word)).toBeUndefined();
  });

  it('finds the head noun of Nice terms and Shopify category names', () => {
    expect(niceHeadNoun('drinking bottles for sports')).toBe('bottles');
    expect(niceHeadNoun('disks, magnetic')).toBe('disks');
    expect(niceHeadNoun('table cutlery [knives, forks and spoons]')).toBe('cutlery');
    expect(categoryHeadNouns('Headphones & Headsets')).toEqual(['headphones', 'headsets']);
    expect(categoryHeadNouns('Sport & Safety Whistles')).toEqual(['whistles']);
    expect(categoryHeadNouns('Handbags, Wallets & Cases')).toEqual(['handbags', 'wallets', 'cases']);
  });
});

describe('the committed lexicon.json', () => {
  it('stays small enough to bundle into a Lambda (under 250 KB)', () => {
    expect(statSync(LEXICON_FILE).size).toBeLessThan(250 * 1024);
  });

  const sourcesPresent = existsSync(path.join(DEFAULT_SHARED_DIR, 'data/nice/nice-classification.json'));
  if (!sourcesPresent) {
    it.skip(`equals what builders/build-lexicon.ts builds (skipped: the sources in ${DEFAULT_SHARED_DIR} are absent)`, () => {});
    return;
  }

  it('equals what builders/build-lexicon.ts builds from the sources', () => {
    const rebuilt = serializeLexicon(buildLexicon(DEFAULT_SHARED_DIR));

    expect(readFileSync(LEXICON_FILE, 'utf8')).toBe(rebuilt);
  });
});
