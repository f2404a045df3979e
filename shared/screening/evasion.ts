/**
 * Spellings meant to slip a brand past filters, read back as the brand: Cyrillic or Greek letters that look Latin
 * ("Nikе" with a Cyrillic е, folded in title-words.ts), digits for letters ("N1ke", "L0uis"), and letters set apart
 * by dots or spaces ("N.i.k.e", "G U C C I"). Each gives an extra candidate over the same words, so the plain
 * reading ("Galz4ever" as written) is still looked up too.
 */
import { Run, type Candidate } from './candidates';
import type { TitleWord } from './title-words';

const LOOK_ALIKES: Record<string, string> = {
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  і: 'i',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  ӏ: 'l',
  ԛ: 'q',
  ԝ: 'w',
  А: 'A',
  В: 'B',
  Е: 'E',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  Х: 'X',
  І: 'I',
  Ј: 'J',
  Ѕ: 'S',
  α: 'a',
  β: 'b',
  ε: 'e',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  γ: 'y',
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Ζ: 'Z',
  Η: 'H',
  Ι: 'I',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Υ: 'Y',
  Χ: 'X',
};
const CYRILLIC_OR_GREEK = /[\u0370-\u03ff\u0400-\u04ff\u0500-\u052f]/u;
const LATIN_LETTER = /[A-Za-z]/;

/**
 * The token read in Latin letters when it mixes Latin letters with Cyrillic or Greek look-alikes, or is three or
 * more letters that are all look-alikes; undefined otherwise (a Russian or Greek word stays as written).
 */
export function foldLookAlikes(token: string): string | undefined {
  if (!CYRILLIC_OR_GREEK.test(token)) return undefined;
  let out = '';
  let folded = 0;
  let other = 0;
  for (const char of token) {
    const latin = LOOK_ALIKES[char];
    if (latin !== undefined) {
      out += latin;
      folded++;
    } else {
      if (CYRILLIC_OR_GREEK.test(char)) other++;
      out += char;
    }
  }
  if (folded === 0 || other > 0) return undefined;
  return LATIN_LETTER.test(token) || folded >= 3 ? out : undefined;
}

const DIGIT_FOR_LETTER: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't' };
const MAX_SPACED_LETTERS = 12;

/** Runs read back from evasive spellings, kept like the RunTable's so that what was found for them stays on them. */
const runs = new Map<string, Run>();
const MAX_RUNS = 50_000;

function runOf(joined: string, words: number): Run {
  const id = `${words}:${joined}`;
  let run = runs.get(id);
  if (run === undefined) {
    run = new Run(joined, false, words, true);
    if (runs.size >= MAX_RUNS) runs.clear();
    runs.set(id, run);
  }
  return run;
}

/**
 * Extra candidates of a title's words: a token of letters with one or two digits between them ("N1ke", "L0uis")
 * read with the digits as letters, and three or more single letters in a row ("N.i.k.e", "G U C C I") read as one
 * word. Candidates the title has already (`existing`, from the RunTable) are not repeated.
 */
export function evasionCandidates(words: readonly TitleWord[], existing: readonly Candidate[]): Candidate[] {
  const out: Candidate[] = [];
  const add = (start: number, end: number, joined: string) => {
    if (joined.length < 3 || existing.some((c) => c.start === start && c.end === end && c.run.joined === joined))
      return;
    out.push({ start, end, run: runOf(joined, end - start) });
  };
  for (let start = 0; start < words.length; ) {
    let end = start + 1;
    while (end <= words.length - 1 && words[end - 1]!.continued) end++;
    const folded = digitsAsLetters(words, start, end);
    if (folded) {
      // With the words after it too: "L0uis Vuitton".
      let joined = folded;
      for (let next = end; next <= Math.min(words.length, end + 2); next++) {
        if (next > end) joined += words[next - 1]!.norm;
        add(start, next, joined);
      }
    }
    start = end;
  }
  for (let start = 0; start < words.length; ) {
    let end = start;
    while (end < words.length && end - start < MAX_SPACED_LETTERS && isSingleLetter(words[end]!)) end++;
    if (end - start >= 3) {
      let joined = '';
      for (let i = start; i < end; i++) joined += words[i]!.norm;
      add(start, end, joined);
    }
    start = Math.max(end, start + 1);
  }
  return out;
}

function isSingleLetter(word: TitleWord): boolean {
  return !word.cjk && word.norm.length === 1 && word.norm >= 'a' && word.norm <= 'z';
}

/** "n", "1", "ke" -> "nike": letters on both sides of each run of one or two digits, every digit one that reads as a letter. */
function digitsAsLetters(words: readonly TitleWord[], start: number, end: number): string | undefined {
  if (end - start < 3) return undefined;
  let out = '';
  let digits = 0;
  let letters = 0;
  for (let i = start; i < end; i++) {
    const norm = words[i]!.norm;
    if (/^\d+$/.test(norm)) {
      if (i === start || i === end - 1 || norm.length > 2) return undefined;
      for (const d of norm) {
        const letter = DIGIT_FOR_LETTER[d];
        if (letter === undefined) return undefined;
        out += letter;
      }
      digits += norm.length;
    } else if (/^[a-z]+$/.test(norm)) {
      out += norm;
      letters += norm.length;
    } else return undefined;
  }
  return digits <= 2 && letters >= 3 ? out : undefined;
}

/** Three or more single letters in a row, or a word written with look-alike letters. */
export function isEvasionSpelling(words: readonly TitleWord[], candidate: Candidate): boolean {
  let singles = true;
  for (let i = candidate.start; i < candidate.end; i++) {
    if (words[i]!.lookAlike) return true;
    singles &&= isSingleLetter(words[i]!);
  }
  return singles && candidate.end - candidate.start >= 3;
}
