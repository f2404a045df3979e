/**
 * What general English text says of title words (shared/screening/word-vectors.ts, data/screening/word-vectors.json):
 * ranks in order of frequency, cosines of the stored vectors, and the projection the builder uses
 * (builders/build-word-vectors.ts). The features the brand-use model reads of them: brand-use-features.test.ts.
 */
import { DIMENSIONS, eigenvectors, WORDS } from '../../../builders/build-word-vectors';
import { GENERAL_WORDS, generalRankOf, similarityOfRanks } from '../../../shared/screening/word-vectors';
import data from '../../../data/screening/word-vectors.json';

function similarity(a: string, b: string): number {
  return similarityOfRanks(generalRankOf(a), generalRankOf(b));
}

describe('the committed word vectors', () => {
  it('hold the builder’s count of words and numbers, one byte each', () => {
    expect(data.words).toBe(WORDS);
    expect(data.dimensions).toBe(DIMENSIONS);
    expect(GENERAL_WORDS).toBe(WORDS);
    expect(Buffer.from(data.vectors, 'base64').length).toBe(WORDS * DIMENSIONS);
    expect(new Set(data.vocabulary.split(' ')).size).toBe(WORDS);
  });

  it('rank words by how common they are in general text; a coined name is not among them', () => {
    expect(generalRankOf('the')).toBe(0);
    expect(generalRankOf('royal')).toBeLessThan(generalRankOf('eagle'));
    expect(generalRankOf('eagle')).toBeGreaterThan(0);
    expect(generalRankOf('karatcraft')).toBe(-1);
    expect(generalRankOf('alisha')).toBe(-1);
  });

  it('give a word a cosine of 1 with itself, and words of one kind a higher one than unrelated words', () => {
    expect(similarity('eagle', 'eagle')).toBeCloseTo(1, 3);
    expect(similarity('eagle', 'feather')).toBeGreaterThan(similarity('royal', 'cotton') + 0.2);
    expect(similarity('dove', 'grey')).toBeGreaterThan(similarity('pilot', 'gel') + 0.2);
    for (const [a, b] of [
      ['eagle', 'feather'],
      ['pilot', 'gel'],
    ] as const) {
      expect(similarity(a, b)).toBeGreaterThanOrEqual(-1);
      expect(similarity(a, b)).toBeLessThanOrEqual(1);
    }
  });
});

describe('eigenvectors (the builder’s projection)', () => {
  it('finds the axes of a symmetric matrix, strongest first', () => {
    // [[2, 1], [1, 2]]: eigenvalues 3 (axis (1, 1)) and 1 (axis (1, -1)).
    const { values, vectors } = eigenvectors(Float64Array.from([2, 1, 1, 2]), 2);
    expect(values[0]).toBeCloseTo(3, 9);
    expect(values[1]).toBeCloseTo(1, 9);
    expect(Math.abs(vectors[0]![0]!)).toBeCloseTo(Math.SQRT1_2, 9);
    expect(vectors[0]![0]! * vectors[0]![1]!).toBeGreaterThan(0);
    expect(vectors[1]![0]! * vectors[1]![1]!).toBeLessThan(0);
  });
});
