/**
 * Distinctiveness as the brand-use model reads it: in how many titles a word stands as a plain word
 * (builders/screening/plain-word-counts.ts), the committed table (data/screening/title-word-frequencies.json) and
 * the switch the check across marketplaces uses to count without one set.
 */
import { allTitles } from '../../../builders/screening/labelled-titles';
import { countPlainWords } from '../../../builders/screening/plain-word-counts';
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
