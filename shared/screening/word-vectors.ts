/**
 * What general English text says of a title's words (data/screening/word-vectors.json, built by
 * builders/build-word-vectors.ts from GloVe vectors of Wikipedia and news text): how common a word is there (its
 * rank among the 50,000 commonest words), and how near in use two words are (the cosine of their vectors). The
 * brand-use model reads both: "Eagle" in "Eagle Feather Earrings" is an everyday word beside a word of its own
 * kind, "Alisha" in "Alisha Solid Women's Cycling Shorts" is neither.
 */
import data from '../../data/screening/word-vectors.json';

const { words: WORDS, dimensions: DIMENSIONS } = data as { words: number; dimensions: number };

const INDEX: ReadonlyMap<string, number> = new Map(
  (data as { vocabulary: string }).vocabulary.split(' ').map((word, i) => [word, i]),
);

/** The vectors, each scaled to length 1 (as stored, up to rounding), one after another. */
const VECTORS: Float32Array = (() => {
  const bytes = new Int8Array(Buffer.from((data as { vectors: string }).vectors, 'base64'));
  const out = new Float32Array(bytes.length);
  for (let r = 0; r < WORDS; r++) {
    let norm = 0;
    for (let k = 0; k < DIMENSIONS; k++) norm += bytes[r * DIMENSIONS + k]! ** 2;
    const scale = 1 / (Math.sqrt(norm) || 1);
    for (let k = 0; k < DIMENSIONS; k++) out[r * DIMENSIONS + k] = bytes[r * DIMENSIONS + k]! * scale;
  }
  return out;
})();

/** How many words the table holds: a word outside it ranks below all of them. */
export const GENERAL_WORDS = WORDS;

/** The (normalised) word's rank in general text, 0 for the commonest; -1 when it is not among the table's words. */
export function generalRankOf(word: string): number {
  return INDEX.get(word) ?? -1;
}

/** The cosine of two ranked words' vectors (-1 to 1): how alike the contexts they are used in. */
export function similarityOfRanks(a: number, b: number): number {
  let dot = 0;
  const i = a * DIMENSIONS;
  const j = b * DIMENSIONS;
  for (let k = 0; k < DIMENSIONS; k++) dot += VECTORS[i + k]! * VECTORS[j + k]!;
  return dot;
}
