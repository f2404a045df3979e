/**
 * Distinctiveness as the brand-use model reads it: in how many titles a word stands as a plain word
 * (builders/screening/plain-word-counts.ts), the committed table (data/screening/title-word-frequencies.json) and
 * the switch the check across marketplaces uses to count without one set, and the screening of each brand's titles
 * without that brand's own titles in the counts.
 */
import { allTitles, type LabelledTitle } from '../../../builders/screening/labelled-titles';
import { countPlainWords, countPlainWordsOf, screenByBrandGroup } from '../../../builders/screening/plain-word-counts';
import { distinctivenessOf, plainWordCount, usePlainWordCounts } from '../../../shared/screening/word-frequencies';

describe('countPlainWords', () => {
  it('counts each word once a title, never first, never where a cue introduces it', () => {
    const counts = countPlainWords([
      'Alisha Solid Solid Cycling Shorts',
      'Stand for the Amazon Kindle Fire',
      'Amazon Echo Dot',
      'Charger for Kindle with Solid Grip',
    ]);

    expect(counts.get('solid')).toBe(2);
    expect(counts.get('alisha')).toBeUndefined();
    expect(counts.get('amazon')).toBeUndefined();
    expect(counts.get('kindle')).toBeUndefined();
    expect(counts.get('the')).toBeUndefined();
    expect(counts.get('echo')).toBe(1);
    expect(counts.get('grip')).toBe(1);
  });
});

describe('the committed plain-word table', () => {
  const rebuilt = countPlainWords(allTitles());

  it('is what builders/build-title-frequencies.ts counts from the labelled titles', () => {
    for (const [word, count] of rebuilt) expect([word, plainWordCount(word)]).toEqual([word, count]);
    for (const word of ['alisha', 'zzqx']) expect(plainWordCount(word)).toBe(rebuilt.get(word) ?? 0);
  });

  it('can be swapped for counts without one set, and back', () => {
    const solid = distinctivenessOf('solid').count;
    try {
      usePlainWordCounts(new Map([['solid', 3]]));
      expect(distinctivenessOf('solid').count).toBe(3);
      expect(distinctivenessOf('cotton').count).toBe(0);
    } finally {
      usePlainWordCounts(rebuilt);
    }
    expect(distinctivenessOf('solid').count).toBe(solid);
  });
});

describe('screenByBrandGroup', () => {
  const titled = (group: string, title: string): LabelledTitle => ({
    set: 'flipkart-dev',
    id: title,
    title,
    brand: group,
    group,
    brandKeys: [group],
  });
  const titles = [
    titled('helix', 'Helix Lattice Gold Ring'),
    titled('helix', 'Helix Twist Lattice Pendant'),
    titled('orra', 'Orra Lattice Gold Ring'),
  ];

  afterAll(() => {
    usePlainWordCounts(countPlainWords(allTitles()));
  });

  it("screens each group's titles without that group's own counts, answering in the titles' order", async () => {
    countPlainWordsOf(titles);
    const removed = [
      { ...titled('helix', 'Lattice Gold Ring'), id: 'a:removed' },
      { ...titled('orra', 'Lattice Gold Ring'), id: 'b:removed' },
      { ...titled('helix', 'Twist Lattice Pendant'), id: 'c:removed' },
    ];
    const seen = await screenByBrandGroup(removed, async (chunk) =>
      chunk.map((t) => ({ id: t.id, lattice: plainWordCount('lattice'), twist: plainWordCount('twist') })),
    );

    expect(seen).toEqual([
      { id: 'a:removed', lattice: 1, twist: 0 },
      { id: 'b:removed', lattice: 2, twist: 1 },
      { id: 'c:removed', lattice: 1, twist: 0 },
    ]);
    expect(plainWordCount('lattice')).toBe(3);
  });

  it('leaves nothing out of a title with no group (a hand-made case)', async () => {
    countPlainWordsOf(titles);
    const handMade: { title: string; group?: string }[] = [{ title: 'Lattice Ring' }];
    const [count] = await screenByBrandGroup(handMade, async (chunk) => chunk.map(() => plainWordCount('lattice')));

    expect(count).toBe(3);
  });
});
