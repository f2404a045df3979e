/** Word forms: singulars and plurals by simple English rules, and the words of a text as the engine normalises them. */
import { normalizeText } from '../../shared/marks/lookup-keys';

const IRREGULAR_PLURALS: Record<string, string> = {
  knife: 'knives',
  shelf: 'shelves',
  leaf: 'leaves',
  half: 'halves',
  wolf: 'wolves',
  loaf: 'loaves',
  scarf: 'scarves',
  wife: 'wives',
  life: 'lives',
  calf: 'calves',
  thief: 'thieves',
  hoof: 'hooves',
  man: 'men',
  woman: 'women',
  child: 'children',
  foot: 'feet',
  tooth: 'teeth',
  mouse: 'mice',
  goose: 'geese',
  person: 'people',
  ox: 'oxen',
  lens: 'lenses',
  bus: 'buses',
  gas: 'gases',
  cactus: 'cacti',
  fungus: 'fungi',
};
const IRREGULAR_SINGULARS: Record<string, string> = Object.fromEntries(
  Object.entries(IRREGULAR_PLURALS).map(([singular, plural]) => [plural, singular]),
);
/** Words that end in s and are not plurals, or whose plural is the same word. */
const NOT_PLURAL = new Set(
  `series species news means glasses pants shorts jeans trousers tights leggings scissors pliers tongs binoculars
   goggles headphones earphones chassis canvas atlas iris bias gas lens bus plus us this its yes less
   dress press cross glass grass brass class mass boss gloss moss chess`.split(/\s+/),
);

export const LATIN_WORD = /^[a-z]+$/;

/** The singular of a Latin plural by simple English rules; undefined when the word does not look plural. */
export function singularOf(word: string): string | undefined {
  if (!LATIN_WORD.test(word) || word.length < 4) return undefined;
  if (IRREGULAR_SINGULARS[word]) return IRREGULAR_SINGULARS[word];
  if (NOT_PLURAL.has(word) || /(ss|us|is|ous|ics)$/.test(word)) return undefined;
  if (/[^aeiou]ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ches|shes|sses|xes|zes)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s')) return word.slice(0, -1);
  return undefined;
}

/** The plural of a Latin singular by simple English rules. */
export function pluralOf(word: string): string | undefined {
  if (!LATIN_WORD.test(word) || word.length < 3) return undefined;
  if (IRREGULAR_PLURALS[word]) return IRREGULAR_PLURALS[word];
  if (NOT_PLURAL.has(word)) return undefined;
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(ch|sh|s|x|z)$/.test(word)) return `${word}es`;
  return `${word}s`;
}

export function numberForms(word: string): string[] {
  const forms = [word];
  const singular = singularOf(word);
  const lemma = singular ?? word;
  if (singular) forms.push(singular);
  const plural = pluralOf(lemma);
  if (plural && plural !== word) forms.push(plural);
  return forms;
}

/** The words of a text after the engine's normalisation, plus the joined form of each hyphenated compound. */
export function wordsOf(text: string): string[] {
  const words = normalizeText(text).split(' ').filter(Boolean);
  for (const compound of text.split(/\s+/)) {
    if (!/[-/]/.test(compound)) continue;
    const joinedForm = normalizeText(compound).replace(/ /g, '');
    if (joinedForm.length >= 4) words.push(joinedForm);
  }
  return words;
}

export function listOf(block: string): string[] {
  return block
    .split(/\s+/)
    .map((word) => normalizeText(word))
    .filter(Boolean);
}

/** Digits alone never need listing: the run time recognises numbers and number+unit forms. */
export function worthListing(word: string): boolean {
  return /\p{L}/u.test(word) && (word.length >= 2 || /\p{Script=Han}/u.test(word));
}
