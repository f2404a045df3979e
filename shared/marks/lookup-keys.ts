/**
 * Lookup keys: how a mark is filed and how a title's words find it. Ingest files every mark under its keys;
 * screening computes the same keys for the words and n-grams of a title, fetches those keys in one batch, and
 * verifies each candidate with an edit distance. Both sides call these functions, so they cannot drift apart.
 *
 *   e:<joined>     the normalised text with spaces removed ("Coca-Cola" and "coca cola" are both e:cocacola)
 *   d:<text>/<sk>  the one-edit neighbourhood of a Latin text of 4 to 9 letters, with its phonetic skeleton: the
 *                  text itself and each of its one-letter deletions ("nike" is d:nike/nk; "nikee" is d:nikee/nk,
 *                  d:ikee/nk, d:nkee/nk, d:niee/nk, d:nike/nk; the two share d:nike/nk). Two texts share a d: key
 *                  when one edit (an adjacent transposition included) takes one to the other and they sound alike,
 *                  so a run of 5 to 8 letters (one misspelling allowed: editBudget) reads the marks it matches and
 *                  hardly any others. Records that are not dead only (lookupKeysOfRecord)
 *   p:<skeleton>   a phonetic consonant skeleton of the joined Latin text, for misspellings of longer names (two
 *                  edits allowed from 9 letters: "Addidass" and "Adidas" are both p:ads); only for texts of 7
 *                  letters and more, which a run of 9 may be two edits from; records that are not dead only
 *   o:<owner>      the owner's name without its corporate form ("NIKE, INC." and "Nike Inc" are both o:nike), so
 *                  that a plaintiff named in a court case finds the marks it owns (shared/data-jobs/tro-docket-job.ts)
 *
 * Screening looks up e:, d: and p: keys only: a title's words never find a mark through its owner's name. Whichever
 * fuzzy key found a mark, the match is the same: the run's text within editBudget edits of the mark's (run-matches.ts)
 * and the same phonetic skeleton (both kinds of key hold it).
 */
import type { MarkRecord } from './mark-record';

const MARK_SYMBOLS = /[™®©℠℗]/g;
/**
 * Soft hyphen, zero-width spaces and joiners, the directional controls (see BIDI_CONTROL), word joiner, BOM:
 * invisible, and used to dodge filters.
 */
export const INVISIBLE = /[\u00AD\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/g;
/**
 * The directional formatting characters of the Unicode Bidirectional Algorithm (UAX #9): the embeddings and
 * overrides LRE, RLE, PDF, LRO, RLO (U+202A-202E), the isolates LRI, RLI, FSI, PDI (U+2066-2069) and the marks LRM,
 * RLM (U+200E, U+200F) and ALM (U+061C).
 */
export const BIDI_CONTROL = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;
const COMBINING_MARKS = /\p{M}+/gu;
const APOSTROPHES = /['’`´]/g;
const NOT_WORD = /[^\p{L}\p{N}]+/gu;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const LATIN_OR_DIGIT = /^[a-z0-9]+$/;

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const ASCII_NOT_WORD = /[^a-z0-9]+/g;

/** NFKC, case-folded, marks and punctuation out, accents off Latin letters, one space between words. */
export function normalizeText(text: string): string {
  // Most titles are plain ASCII, for which the Unicode passes below change nothing: the same result, faster.
  if (PRINTABLE_ASCII.test(text)) {
    return text.toLowerCase().replace(/['`]/g, '').replace(ASCII_NOT_WORD, ' ').trim();
  }
  // The symbols go first: NFKC would turn ™ into the letters "TM".
  return (BIDI_CONTROL.test(text) ? inDisplayOrder(text) : text)
    .replace(INVISIBLE, '')
    .replace(MARK_SYMBOLS, ' ')
    .normalize('NFKC')
    .toLowerCase()
    .normalize('NFKD')
    .replace(COMBINING_MARKS, '')
    .normalize('NFC')
    .replace(APOSTROPHES, '')
    .replace(NOT_WORD, ' ')
    .trim()
    .replace(/ +/g, ' ');
}

/** A stretch of text as shown, and whether it is shown otherwise than written (reversed by an override). */
export interface DisplaySegment {
  text: string;
  reversed: boolean;
}

const LRE = 0x202a;
const RLE = 0x202b;
const PDF = 0x202c;
const LRO = 0x202d;
const RLO = 0x202e;
const LRI = 0x2066;
const RLI = 0x2067;
const FSI = 0x2068;
const PDI = 0x2069;
/**
 * What ends a paragraph (line feed, carriage return, the information separators, NEL, PS), and with it every
 * embedding, override and isolate still open.
 */
const isParagraphEnd = (code: number) =>
  code === 0x0a || code === 0x0d || (code >= 0x1c && code <= 0x1e) || code === 0x85 || code === 0x2029;

/** An embedding, override or isolate (kind: its opening character) and what it holds, or the whole text (kind 0). */
interface BidiSpan {
  kind: number;
  items: (string | BidiSpan)[];
}

const isIsolate = (kind: number) => kind === LRI || kind === RLI || kind === FSI;
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

function bidiSpans(text: string): BidiSpan {
  const whole: BidiSpan = { kind: 0, items: [] };
  const open: BidiSpan[] = [whole];
  let run = '';
  const flush = () => {
    if (run) open[open.length - 1]!.items.push(run);
    run = '';
  };
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code === LRE || code === RLE || code === LRO || code === RLO || isIsolate(code)) {
      flush();
      const span: BidiSpan = { kind: code, items: [] };
      open[open.length - 1]!.items.push(span);
      open.push(span);
    } else if (code === PDF) {
      // A PDF closes the last embedding or override, never an isolate (nor one opened outside it).
      flush();
      if (open.length > 1 && !isIsolate(open[open.length - 1]!.kind)) open.pop();
    } else if (code === PDI) {
      // A PDI closes the last isolate, and whatever was opened inside it.
      flush();
      let at = open.length - 1;
      while (at > 0 && !isIsolate(open[at]!.kind)) at--;
      if (at > 0) open.length = at;
    } else if (BIDI_CONTROL.test(char)) {
      // LRM, RLM, ALM: nothing to show.
    } else {
      if (isParagraphEnd(code)) {
        flush();
        open.length = 1;
      }
      run += char;
    }
  }
  flush();
  return whole;
}

function reverseGraphemes(text: string): string {
  const out: string[] = [];
  for (const { segment } of graphemes.segment(text)) out.push(segment);
  return out.reverse().join('');
}

function showSpan(span: BidiSpan, out: DisplaySegment[]): void {
  const override = span.kind === RLO;
  const items = override ? [...span.items].reverse() : span.items;
  for (const item of items) {
    if (typeof item !== 'string') {
      showSpan(item, out);
      continue;
    }
    const shown = override ? reverseGraphemes(item) : item;
    const reversed = shown !== item;
    const last = out[out.length - 1];
    if (last?.reversed === reversed) last.text += shown;
    else out.push({ text: shown, reversed });
  }
}

/**
 * The text in the order a viewer shows it, without its directional controls (BIDI_CONTROL). What a right-to-left
 * override (RLO) holds, up to its PDF or the end of the paragraph, is shown right to left: written backwards, it
 * shows forwards ("\u202EekiN" shows "Nike", "Buy \u202EekiN\u202C shoes" shows "Buy Nike shoes"), so it is reversed
 * (by grapheme; an embedding or isolate inside it moves as one piece). Embeddings and isolates without an override
 * show Latin letters and digits in the order written, and are only taken out; so are LRO and the marks.
 */
export function displaySegments(text: string): DisplaySegment[] {
  const out: DisplaySegment[] = [];
  showSpan(bidiSpans(text), out);
  return out;
}

/** displaySegments as one string. */
export function inDisplayOrder(text: string): string {
  return displaySegments(text)
    .map((segment) => segment.text)
    .join('');
}

export function joined(normalized: string): string {
  return normalized.replace(/ /g, '');
}

export function hasCjk(text: string): boolean {
  return CJK.test(text);
}

const PHONETIC_RULES: [RegExp, string][] = [
  [/ph/g, 'f'],
  [/[cs]h/g, 'x'],
  [/ck/g, 'k'],
  [/c(?=[eiy])/g, 's'],
  [/c/g, 'k'],
  [/q/g, 'k'],
  [/x/g, 'ks'],
  [/z/g, 's'],
  [/dg/g, 'j'],
  [/^kn/, 'n'],
  [/^wr/, 'r'],
  [/gh/g, 'g'],
  [/y/g, 'i'],
];

/**
 * The consonant skeleton of a Latin word after a few sound rules: doubled letters collapsed, vowels and `h` after
 * the first letter dropped. Only for words of at least 4 letters whose skeleton keeps at least 2 sounds.
 */
export function phoneticSkeleton(latin: string): string | undefined {
  if (latin.length < 4 || !LATIN_OR_DIGIT.test(latin)) return undefined;
  let s = latin.replace(/(.)\1+/g, '$1');
  for (const [pattern, replacement] of PHONETIC_RULES) s = s.replace(pattern, replacement);
  // 'x' stands for the sh sound here; it is a consonant like any other from now on.
  const first = s[0]!;
  const rest = s.slice(1).replace(/[aeiouh]/g, '');
  const skeleton = (first + rest).replace(/(.)\1+/g, '$1');
  return skeleton.length >= 2 ? skeleton : undefined;
}

export function exactKey(text: string): string | undefined {
  const key = joined(normalizeText(text));
  return key ? `e:${key}` : undefined;
}

const PHONETIC_PREFIX = 'p:';
const NEAR_PREFIX = 'd:';

export function phoneticKey(text: string): string | undefined {
  const skeleton = phoneticSkeleton(joined(normalizeText(text)));
  return skeleton ? `${PHONETIC_PREFIX}${skeleton}` : undefined;
}

/** Edits a misspelling may have: none for short words (too many real words are one letter apart). */
export function editBudget(length: number): number {
  return length < 5 ? 0 : length < 9 ? 1 : 2;
}

/** The one-letter deletions of a text, each once ("books": ooks, boks, book). */
function deletions(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i++) {
    // Deleting either letter of a doubled pair gives the same text.
    if (i > 0 && text.charCodeAt(i) === text.charCodeAt(i - 1)) continue;
    out.push(text.slice(0, i) + text.slice(i + 1));
  }
  return out;
}

/**
 * The d: keys a run of title words looks up for its misspellings: its own text and each one-letter deletion, with
 * its skeleton, for a run allowed exactly one edit (5 to 8 letters) that has a phonetic skeleton; none otherwise.
 */
export function nearKeysOfRun(joinedText: string): string[] {
  const skeleton = editBudget(joinedText.length) === 1 ? phoneticSkeleton(joinedText) : undefined;
  if (!skeleton) return [];
  return [joinedText, ...deletions(joinedText)].map((text) => `${NEAR_PREFIX}${text}/${skeleton}`);
}

/**
 * The d: keys a mark's joined text is filed under: what a run of 5 to 8 letters one edit away, with the same
 * skeleton, looks up. A text of 4 letters is found by a run's deletion (its own text), one of 9 by a run's own text
 * (its deletions), one of 5 to 8 by either. Only for a text with a phonetic skeleton: a fuzzy match needs the run's
 * skeleton to be the mark's, and with the skeleton in the key a run never reads a neighbour that sounds otherwise.
 */
export function nearKeysOfMark(joinedText: string): string[] {
  const length = joinedText.length;
  const skeleton = length >= 4 && length <= 9 ? phoneticSkeleton(joinedText) : undefined;
  if (!skeleton) return [];
  const texts =
    length === 4 ? [joinedText] : length === 9 ? deletions(joinedText) : [joinedText, ...deletions(joinedText)];
  return texts.map((text) => `${NEAR_PREFIX}${text}/${skeleton}`);
}

/** A run of 9 letters may be two edits from a mark of 7: shorter marks need no p: key. */
const SHORTEST_PHONETIC_MARK = 7;

/**
 * Corporate forms dropped from the end of an owner's name, as the words normalizeText leaves of them ("L.L.C." is
 * "l l c", "S.A." is "s a"). Dropped again and again: "Spin Master Co., Ltd." is "spin master".
 */
const CORPORATE_FORMS: readonly string[] = [
  'inc',
  'incorporated',
  'llc',
  'l l c',
  'llp',
  'l l p',
  'lp',
  'l p',
  'ltd',
  'limited',
  'co',
  'company',
  'corp',
  'corporation',
  'plc',
  'gmbh',
  'kg',
  'ag',
  'sa',
  's a',
  'sas',
  'sarl',
  'spa',
  's p a',
  'srl',
  's r l',
  'bv',
  'b v',
  'nv',
  'n v',
  'pty',
  'pte',
  'kk',
  'k k',
  'kabushiki kaisha',
  'ltda',
  'oy',
  'ab',
];
const CORPORATE_FORM_ENDINGS = CORPORATE_FORMS.map((form) => ` ${form}`);
/** The same in Chinese and Japanese names, written without spaces: 有限公司, 株式会社 (also in front). */
const CJK_CORPORATE_SUFFIX = /(股份有限公司|有限责任公司|有限公司|株式会社|公司)$/u;
const CJK_CORPORATE_PREFIX = /^株式会社/u;

/**
 * An owner's name as the owner index files it: normalizeText (case, accents, width, punctuation), then without a
 * leading "the", and without trailing corporate forms and the "and" / "&" before them, repeatedly, as long as a word
 * is left ("NIKE, INC." is "nike", "The Coca-Cola Company" is "coca cola", "Spin Master Ltd." is "spin master").
 * Empty when nothing is left.
 */
export function normalizeOwner(owner: string): string {
  let name = normalizeText(owner);
  if (name.startsWith('the ') && name.length > 4) name = name.slice(4);
  for (let changed = true; changed; ) {
    changed = false;
    for (const ending of CORPORATE_FORM_ENDINGS) {
      if (name.endsWith(ending) && name.length > ending.length) {
        name = name.slice(0, -ending.length).replace(/ and$/, '');
        changed = true;
      }
    }
    const words = name.split(' ');
    const last = words[words.length - 1]!;
    const bare = last.replace(CJK_CORPORATE_SUFFIX, '').replace(CJK_CORPORATE_PREFIX, '');
    if (bare !== last && bare) {
      words[words.length - 1] = bare;
      name = words.join(' ');
      changed = true;
    }
  }
  return name;
}

/**
 * A short tag of an owner's name: the same for every spelling normalizeOwner takes to one name ("NIKE, INC." and
 * "Nike Inc"), six or seven base-36 characters (FNV-1a, 32 bits); undefined when nothing is left of the name. Two
 * owners share a tag about once in four billion pairs, and a shared tag only makes two portfolios count as one.
 */
export function ownerTagOf(owner: string): string | undefined {
  const name = normalizeOwner(owner);
  if (!name) return undefined;
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(36);
}

/** The owner-index key of an owner's name (`o:<normalizeOwner>`), or undefined when nothing is left of it. */
export function ownerKeyOf(owner: string): string | undefined {
  const name = normalizeOwner(owner);
  return name ? `o:${name}` : undefined;
}

/**
 * The keys a mark is filed under: its whole text, and for a mark that mixes scripts ("星河织造 XINGHE WEAVE")
 * each script's part on its own; its transliteration; the phonetic key of every Latin form (for a mark of 7 letters
 * or more); the one-edit neighbourhood of its text (for 4 to 9 Latin letters); and its owner's key.
 */
export function lookupKeysOfMark(markText: string, transliteration?: string, owner?: string): string[] {
  const keys = new Set<string>();
  const forms = [markText];
  const normalized = normalizeText(markText);
  if (hasCjk(normalized)) {
    const words = normalized.split(' ');
    forms.push(words.filter((w) => hasCjk(w)).join(' '), words.filter((w) => !hasCjk(w)).join(' '));
  }
  if (transliteration) forms.push(transliteration);
  const markJoined = joined(normalized);
  for (const form of forms) {
    const exact = exactKey(form);
    if (exact) keys.add(exact);
    const phonetic = markJoined.length >= SHORTEST_PHONETIC_MARK ? phoneticKey(form) : undefined;
    if (phonetic) keys.add(phonetic);
  }
  for (const near of nearKeysOfMark(markJoined)) keys.add(near);
  const ownerKey = owner === undefined ? undefined : ownerKeyOf(owner);
  if (ownerKey) keys.add(ownerKey);
  return [...keys];
}

/** A key only screening's misspellings read (d: or p:). */
export const isFuzzyKey = (key: string) => key.startsWith(NEAR_PREFIX) || key.startsWith(PHONETIC_PREFIX);

/**
 * The keys a stored record is filed under: those of lookupKeysOfMark, except that a dead record is not filed under
 * its fuzzy keys (d: and p:). Only screening reads those, and a dead registration raises no risk there (it is dropped as
 * a key is fetched); in a register of real size nearly half the records are dead, and the sounds-alike keys hold
 * most of what screening reads. Its exact, script and owner keys stay, for the lookups that want every record.
 */
export function lookupKeysOfRecord(
  record: Pick<MarkRecord, 'markText' | 'transliteration' | 'owner' | 'statusCategory'>,
): string[] {
  const keys = lookupKeysOfMark(record.markText, record.transliteration, record.owner);
  return record.statusCategory === 'dead' ? keys.filter((key) => !isFuzzyKey(key)) : keys;
}

/** Two lists of keys hold the same keys, whatever their order (a stored mark filed as its record says now). */
export function sameKeys(stored: readonly string[] | undefined, now: readonly string[]): boolean {
  if (!stored || stored.length !== now.length) return false;
  const held = new Set(stored);
  return now.every((key) => held.has(key));
}

/** Rows of editDistance, reused from call to call (screening compares a run with every text of a key). */
let rowBefore = new Int32Array(64);
let rowPrevious = new Int32Array(64);
let rowCurrent = new Int32Array(64);

/** Damerau-Levenshtein distance (adjacent transpositions count one), bounded: returns max + 1 once it exceeds max. */
export function editDistance(a: string, b: string, max = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows = a.length + 1;
  const cols = b.length + 1;
  if (rowCurrent.length < cols) {
    rowBefore = new Int32Array(cols * 2);
    rowPrevious = new Int32Array(cols * 2);
    rowCurrent = new Int32Array(cols * 2);
  }
  let previous2 = rowBefore;
  let previous = rowPrevious;
  let current = rowCurrent;
  for (let j = 0; j < cols; j++) previous[j] = j;
  for (let i = 1; i < rows; i++) {
    current[0] = i;
    let rowMin = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j < cols; j++) {
      const cost = ai === b.charCodeAt(j - 1) ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1))
        value = Math.min(value, previous2[j - 2]! + 1);
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    const spare = previous2;
    previous2 = previous;
    previous = current;
    current = spare;
  }
  return previous[cols - 1]!;
}
