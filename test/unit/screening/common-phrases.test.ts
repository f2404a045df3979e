/**
 * The common terms screening reads (data/screening/common-phrases.json, builders/build-common-phrases.ts) and the
 * two features made of them: a run inside a term with its neighbours ("surge" in "surge protector"), and a run that
 * is itself a term ("vanilla extract").
 */
import { readFileSync } from 'node:fs';
import {
  buildCommonPhrases,
  commonPhraseSourcesPresent,
  OUT,
  WITH_DUAL_USE,
  WITH_UNLISTED,
} from '../../../builders/build-common-phrases';
import { unlistedTerms } from '../../../builders/screening/common-terms';
import { FEATURE_NAMES } from '../../../shared/screening/brand-use-features';
import { isCommonPhrase, isDescribingWord } from '../../../shared/screening/word-frequencies';
import { seededRandom } from '../../../builders/synthetic-uspto/random';
import { createFailureClassScreening, type InMemoryScreening } from '../../support/in-memory-screening';

describe('isCommonPhrase', () => {
  it.each(['surge protector', 'usb c', 'omega 3', 'hair clip', 'hair clips', 'royal blue', 'fish oil', 'pci express'])(
    '%s is a common term',
    (phrase) => {
      expect(isCommonPhrase(phrase)).toBe(true);
    },
  );

  // Nor a taxonomy value that names a brand: consoles, platforms, processor series and operating systems are names.
  it.each([
    'crown blue',
    'apple watch',
    'hello kitty',
    'nike air',
    'gucci belt',
    'playstation 5',
    'xbox one',
    'atari 2600',
    'adobe creative',
    'intel core',
    'chrome os',
  ])('%s is not', (phrase) => {
    expect(isCommonPhrase(phrase)).toBe(false);
  });

  it('answers yes for few word pairs it does not hold (a Bloom filter of about 21 bits a term)', () => {
    const random = seededRandom(7);
    const word = () =>
      Array.from({ length: 3 + Math.floor(random() * 6) }, () =>
        String.fromCharCode(97 + Math.floor(random() * 26)),
      ).join('');
    let yes = 0;
    for (let i = 0; i < 20_000; i++) if (isCommonPhrase(`${word()} ${word()}`)) yes++;

    // Expected about 3 (1.5 in 10,000); random letters make a real term almost never.
    expect(yes).toBeLessThanOrEqual(12);
  });
});

describe('the common-term features', () => {
  let corpus: InMemoryScreening;
  beforeAll(async () => {
    corpus = await createFailureClassScreening('common-phrases-test');
  }, 60_000);

  const featuresOf = async (title: string, mark: string) => {
    const [examples] = await corpus.screening.screener.examples([{ title }]);
    const example = examples!.find((e) => e.match.mark === mark);
    if (!example) throw new Error(`${mark} is not matched in "${title}"`);
    const at = (name: string) => example.features[FEATURE_NAMES.indexOf(name as (typeof FEATURE_NAMES)[number])];
    return { inPhrase: at('in_common_phrase'), runPhrase: at('run_common_phrase') };
  };

  it('marks a run that makes a term with the words beside it', async () => {
    expect(await featuresOf('surge protector power strip with 6 outlets', 'Surge')).toEqual({
      inPhrase: 1,
      runPhrase: 0,
    });
    expect(await featuresOf('Omega 3 Fish Oil 1000mg Softgels', 'Omega')).toEqual({ inPhrase: 1, runPhrase: 0 });
  });

  it('marks a run that is itself a term', async () => {
    expect(await featuresOf('Pure Vanilla Extract 4 oz', 'Vanilla Extract')).toEqual({ inPhrase: 0, runPhrase: 1 });
  });

  it('marks neither where the words around a mark make no term', async () => {
    expect(await featuresOf('Gucci Leather Belt for Men', 'Gucci')).toEqual({ inPhrase: 0, runPhrase: 0 });
  });
});

describe('the committed common-phrases.json', () => {
  if (!commonPhraseSourcesPresent()) {
    it.skip('equals what builders/build-common-phrases.ts builds (skipped: WordNet or ../shared is absent)', () => {});
    return;
  }

  it('equals what builders/build-common-phrases.ts builds from the sources', () => {
    const built = buildCommonPhrases();

    expect(readFileSync(OUT, 'utf8')).toBe(built.json);
    expect(readFileSync(WITH_DUAL_USE, 'utf8')).toBe(built.withDualUse);
    expect(readFileSync(WITH_UNLISTED, 'utf8')).toBe(built.withUnlisted);
  });
});

describe('the terms of goods holding an unlisted word', () => {
  it('holds technical terms whose words no word list knows, each a common term', () => {
    const terms = unlistedTerms();

    expect(terms).toEqual(expect.arrayContaining(['pci express', 'nand flash', 'sata iii', 'micro sata']));
    expect(terms.every((term) => isCommonPhrase(term))).toBe(true);
    // Every word in dictionaries or the lexicon: no such term is listed.
    expect(terms).not.toContain('hair clip');
  });
});

describe('describing words (data/screening/describing-words.json)', () => {
  it.each(['royal', 'stylish', 'deluxe', 'golden', 'black'])('"%s" is mainly an adjective', (word) => {
    expect(isDescribingWord(word)).toBe(true);
  });

  it.each(['ring', 'coach', 'echo', 'kindle', 'transformers', 'fossil'])('"%s" is not', (word) => {
    expect(isDescribingWord(word)).toBe(false);
  });
});
