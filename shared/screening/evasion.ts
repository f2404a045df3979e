/**
 * Spellings meant to slip a brand past filters, read back as the brand: letters that look Latin ("Nikе" with a
 * Cyrillic е, "Nıke" with a dotless ı, folded in title-words.ts by Unicode's confusables; a word written backwards
 * inside a right-to-left override, read in the order shown, also in title-words.ts), digits for letters ("N1ke", "L0uis"), and letters set apart
 * by dots or spaces ("N.i.k.e", "G U C C I"). Each gives an extra candidate over the same words, so the plain
 * reading ("Galz4ever" as written) is still looked up too.
 */
import { Run, type Candidate } from './candidates';
import { latinReadingOf } from './confusables';
import type { TitleWord } from './title-words';

const NOT_ASCII = /[^\p{ASCII}]/u;
const ASCII_LETTER = /[A-Za-z]/;
const DIGITS = /^[0-9]+$/;
/** A letter of a script that is not Latin, nor Chinese, Japanese or Korean: Cyrillic, Greek, Armenian, Cherokee... */
const OTHER_SCRIPT_LETTER =
  /^(?![\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}])\p{L}$/u;

/**
 * The token read in Latin letters when it mixes Latin letters with look-alikes (Unicode's confusables, confusables.ts:
 * "Nikе" with a Cyrillic е, "Nıke" with a dotless ı), or is three or more look-alikes that read as letters;
 * undefined otherwise. A token with a letter of another script that looks like no Latin letter stays as written (a
 * Russian or Greek word), and so does one of ASCII only: digits and symbols never fold ("1080p", "5W-30").
 */
export function foldLookAlikes(token: string): string | undefined {
  if (!NOT_ASCII.test(token)) return undefined;
  let out = '';
  let folded = 0;
  let letters = 0;
  for (const char of token) {
    if (char < '\x80') {
      out += char;
      continue;
    }
    const latin = latinReadingOf(char);
    if (latin !== undefined) {
      out += latin;
      folded++;
      if (!DIGITS.test(latin)) letters++;
    } else {
      if (OTHER_SCRIPT_LETTER.test(char)) return undefined;
      out += char;
    }
  }
  if (folded === 0) return undefined;
  return ASCII_LETTER.test(token) || letters >= 3 ? out : undefined;
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
