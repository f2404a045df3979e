/**
 * The labels and the rule-made titles the brand-use model is trained on (builders/screening): a mark named after
 * "for" or "compatible with" is a brand use even in ordinary words, unless "and" joins it to more of the same; the
 * made titles keep their labels' sense.
 */
import type { LabelledTitle } from '../../../builders/screening/labelled-titles';
import {
  joinedVariants,
  lowerCaseVariants,
  modifierExampleKept,
  modifierVariants,
  makerCueVariants,
  nominativeVariants,
  personNameVariants,
  quantityVariants,
  termExampleKept,
  termVariants,
} from '../../../builders/screening/rule-variants';
import { dualUseTerms, unlistedTerms } from '../../../builders/screening/common-terms';
import { labelOf, termMarkBatch } from '../../../builders/screening/screening-dataset';
import { inferNiceClassesOfFacts } from '../../../shared/screening/lexicon';
import { wordsOfTitle } from '../../../shared/screening/title-words';
import { isCommonPhrase } from '../../../shared/screening/word-frequencies';
import { FEATURE_COUNT, FEATURE_NAMES } from '../../../shared/screening/brand-use-features';
import { isGivenName } from '../../../shared/screening/lexicon';
import { createFailureClassScreening, type InMemoryScreening } from '../../support/in-memory-screening';

let corpus: InMemoryScreening;
beforeAll(async () => {
  corpus = await createFailureClassScreening('training-labels-test');
}, 60_000);

const titled = (title: string, brand = ''): LabelledTitle => ({
  set: 'flipkart-dev',
  id: title,
  title,
  brand,
  group: brand.toLowerCase(),
  brandKeys: brand ? [brand.toLowerCase().replace(/[^a-z0-9]/g, '')] : [],
});

/** The label of each mark matched in the title, by mark. */
async function labels(title: string, brand = ''): Promise<Map<string, number>> {
  const [examples] = await corpus.screening.screener.examples([{ title }]);
  return new Map(examples!.map((e) => [e.match.mark, labelOf(e, titled(title, brand))]));
}

describe('labelOf', () => {
  it('counts a mark in ordinary words named after "compatible with" as a brand use', async () => {
    expect((await labels('Sport Band Compatible with Apple Watch Band 41mm')).get('Apple Watch')).toBe(1);
  });

  it('does not count the same words with no cue, nor what "and" joins after the cue', async () => {
    expect((await labels('Apple Watch Band 41mm Sport Silicone')).get('Apple Watch')).toBe(0);
    expect((await labels('Slicer for Apple and Pear')).get('Apple')).toBe(0);
  });

  it('does not count a mark whose words are a common term, coined-looking or not, unless it is the brand', async () => {
    expect((await labels('pci express gigabit network card')).get('PCI Express')).toBe(0);
    expect((await labels('Network Card for PCI Express Slot')).get('PCI Express')).toBe(0);
    expect((await labels('pci express gigabit network card', 'PCI Express')).get('PCI Express')).toBe(1);
  });

  it("counts a registered name of dictionary words beside the title's brand as a brand use: a licensed name", async () => {
    const found = await labels('Hasbro Star Wars Clone Wars Vehicle Playset', 'Hasbro');
    const starWars = [...found.entries()].filter(([mark]) => mark.toLowerCase() === 'star wars');

    expect(starWars.length).toBeGreaterThan(0);
    expect(starWars.every(([, label]) => label === 1)).toBe(true);
  });

  it("counts the title's own brand whatever its words", async () => {
    expect((await labels('Apple Watch Band 41mm Sport Silicone', 'Apple Watch')).get('Apple Watch')).toBe(1);
  });
});

describe('rule-made training titles', () => {
  const branded = [
    titled('Alisha Solid Women Cycling Shorts', 'Alisha'),
    titled('Crown Printed Cotton Kurta', 'Crown'),
    titled('Zorblex Steel Bottle', 'Zorblex'),
    titled('Crown Blue Cotton Kurta', 'Crown'),
  ];
  const removed = [titled('Diamond Ring Sterling Silver Set'), titled('Plant Container Ring Set')];

  it('names the brand after a nominative cue and keeps the label', () => {
    const made = nominativeVariants(branded);

    expect(made.map((t) => t.title)).toEqual([
      'Solid Women Cycling Shorts for Alisha',
      'Compatible with Crown Blue Cotton Kurta',
    ]);
    expect(made.every((t) => t.brandKeys.length === 1)).toBe(true);
  });

  it('names the brand last after "by", in every sixth title, and keeps the label', () => {
    const made = makerCueVariants([...branded, ...branded]);

    expect(made.map((t) => t.title)).toEqual(['Printed Cotton Kurta by Crown', 'Blue Cotton Kurta by Crown']);
    expect(made.every((t) => t.brandKeys.length === 1)).toBe(true);
  });

  it("puts a given name before another title's coined brand, with no brand of its own", () => {
    const made = personNameVariants(removed, branded);

    expect(made).toHaveLength(1);
    const [given, surname] = made[0]!.title.split(' ');
    expect(isGivenName(given!)).toBe(true);
    expect(['Alisha', 'Zorblex']).toContain(surname);
    expect(made[0]!.brandKeys).toEqual([]);
  });

  it('writes a dual-use word alone with a quantity, and after "for" joined by "and" to a product word', () => {
    expect(quantityVariants(removed).map((t) => t.title)).toEqual(['Diamond 1 kg']);
    expect(joinedVariants(removed).map((t) => t.title)).toEqual(['Plant Container Set for Ring and Container']);
  });

  /**
   * The modifier titles of four: the first and fourth get one (every third title with a plain product word); the
   * second brings the modifier ("apple"), the third none.
   */
  const modifierTitlesWith = (fourth: string) =>
    modifierVariants([
      titled('Stainless Steel Kitchen Slicer'),
      titled('Red Apple Fruit Basket'),
      titled('Cotton Kurta'),
      titled(fourth),
    ]);

  it('puts a dual-use word of another kind before a product word, in lower case, with no brand', () => {
    // The fourth starts with a dual-use word, not a plain product word: the modifier goes before its last one.
    const made = modifierTitlesWith('Ring Plant Container');

    // Slicer (08, 21) and container (20, 21) get "apple" (31), never "steel" (06, 08) nor "ring" (06, 21).
    expect(made.map((t) => t.title)).toEqual(['stainless steel kitchen apple slicer', 'ring plant apple container']);
    expect(made.every((t) => t.brandKeys.length === 0 && t.id.endsWith(':modifier'))).toBe(true);
  });

  it("puts every second one before a title's first product word, cased as the title", () => {
    const made = modifierTitlesWith('Slicer and Corer with 8 Blades');

    expect(made.map((t) => t.title)).toEqual([
      'stainless steel kitchen apple slicer',
      'Apple Slicer and Corer with 8 Blades',
    ]);
  });

  it("trains on a modifier title's match only when the mark's class is not the item's", () => {
    const classOther = FEATURE_NAMES.indexOf('class_other');
    const withOther = (value: number) => {
      const features = new Float64Array(FEATURE_COUNT);
      features[classOther] = value;
      return { features };
    };

    expect(modifierExampleKept(withOther(1), classOther)).toBe(true);
    expect(modifierExampleKept(withOther(0), classOther)).toBe(false);
  });

  it('puts a common term holding a dual-use word first, before the last product word or last, cased as the title', () => {
    const titles = Array.from({ length: 9 }, (_, i) => titled(i % 2 ? 'Cotton Kurta Set' : 'COTTON KURTA SET'));
    const made = termVariants(titles);

    expect(made).toHaveLength(3);
    const [first, middle, last] = made.map((t) => t.title);
    expect(first).toMatch(/^[A-Z0-9 ]+ COTTON KURTA SET$/);
    // Before the title's last product word: inside the title, two or three capitalised words more.
    expect(middle).toMatch(/^Cotton .+ Set$/);
    expect(middle!.split(' ').length).toBeGreaterThanOrEqual(5);
    expect(last).toMatch(/^COTTON KURTA SET [A-Z0-9 ]+$/);
    expect(made.every((t) => t.brandKeys.length === 0 && t.id.endsWith(':term'))).toBe(true);
  });

  it("takes a term of the title's kind of goods, and in turn one with a dual-use and one with an unlisted word", () => {
    const own = ['Ethernet', 'Cable'];
    const made = termVariants(Array.from({ length: 18 }, () => titled(own.join(' '))));
    // The term: the made title's words less the title's own.
    const terms = made.map((t) =>
      t.title
        .split(' ')
        .filter((w) => !own.includes(w))
        .join(' ')
        .toLowerCase(),
    );
    const classesOf = (text: string) =>
      inferNiceClassesOfFacts(wordsOfTitle(text).map((w) => w.facts)).map((c) => c.nice);
    const titleClasses = classesOf(own.join(' '));

    expect(made).toHaveLength(6);
    expect(terms.every((term) => isCommonPhrase(term))).toBe(true);
    // A cable is of classes 09 and 12: every term drawn for it shares one of them.
    expect(terms.every((term) => classesOf(term).some((c) => titleClasses.includes(c)))).toBe(true);
    expect(terms.slice(0, 3).every((term) => dualUseTerms().includes(term))).toBe(true);
    expect(terms.slice(3).every((term) => unlistedTerms().includes(term))).toBe(true);
  });

  it("trains on a term title's match only when its words stand inside a common term", () => {
    const inTerm = [FEATURE_NAMES.indexOf('in_common_phrase'), FEATURE_NAMES.indexOf('run_common_phrase')];
    const withFeature = (index: number | undefined) => {
      const features = new Float64Array(FEATURE_COUNT);
      if (index !== undefined) features[index] = 1;
      return { features };
    };

    expect(termExampleKept(withFeature(inTerm[0]), inTerm)).toBe(true);
    expect(termExampleKept(withFeature(inTerm[1]), inTerm)).toBe(true);
    expect(termExampleKept(withFeature(undefined), inTerm)).toBe(false);
  });

  it('registers each term of goods with an unlisted word as a live word mark, classes from its words', () => {
    const marks = termMarkBatch()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { serial: string; mark: string; nice: string[]; is_live: boolean });

    expect(marks.length).toBeGreaterThan(1000);
    expect(marks.find((m) => m.mark === 'Nand Flash')).toMatchObject({
      is_live: true,
      serial: expect.stringMatching(/^TM-/),
    });
    expect(new Set(marks.map((m) => m.serial)).size).toBe(marks.length);
  });

  it('writes every fourth title not already in lower case in lower case, keeping its brand', () => {
    const made = lowerCaseVariants([...branded, titled('already lower case'), ...branded]);

    // The title already in lower case is not counted: the fourth after the first is the first again.
    expect(made.map((t) => t.title)).toEqual([
      'alisha solid women cycling shorts',
      'alisha solid women cycling shorts',
    ]);
    expect(made.map((t) => t.brand)).toEqual(['Alisha', 'Alisha']);
  });
});
