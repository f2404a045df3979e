/**
 * The lists of common terms the screening trainer makes titles and marks of, as builders/build-common-phrases.ts
 * writes them from WordNet, the Nice goods and the Shopify taxonomy (normalised, one term a line).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

function readTerms(file: string): string[] {
  return readFileSync(path.join(__dirname, file), 'utf8').split('\n').filter(Boolean);
}

/** Terms holding a dual-use word of the lexicon ("surge protector", "omega 3"). */
export function dualUseTerms(): string[] {
  return readTerms('common-phrases-with-dual-use-words.txt');
}

/**
 * Terms of goods holding a word no word list of the engine knows ("pci express", "micro usb"). The trainer also
 * registers each as a mark (termMarkBatch, screening-dataset.ts): any term can be a registered mark, and the labelled
 * titles show too few such marks for the model to learn that a term used as a term names no maker.
 */
export function unlistedTerms(): string[] {
  return readTerms('common-phrases-with-unlisted-words.txt');
}
