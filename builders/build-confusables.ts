/**
 * Builds data/screening/confusables.json: the look-alike letters of Unicode's confusables data (UTS #39, Unicode
 * Security Mechanisms, confusables.txt) whose prototype reads as Latin letters or digits, each with that reading.
 * Screening folds a title's look-alike letters with it (shared/screening/confusables.ts): "Nıke" with a dotless ı,
 * "Nikе" with a Cyrillic е. Run: npx tsx builders/build-confusables.ts <confusables.txt>
 *
 * Unicode publishes the file at https://www.unicode.org/Public/security/17.0.0/confusables.txt; the copy read is the
 * one in Unicode's unicode-org/unicodetools repository (unicodetools/data/security/17.0.0/confusables.txt), see
 * data/screening/SOURCE.txt.
 *
 * Kept: a source that is a letter (a title's tokens are letters, digits and marks; digits and symbols are left out,
 * so that "1080p" or "5W-30" never fold: confusables.txt reads 0 as O and 1 as l), not ASCII, whose prototype is
 * ASCII letters or digits after NFKC and lower case. The reading is the source's own NFKC form when that is ASCII
 * letters or digits (a full-width Ｎ is N), else the prototype after NFKC; the prototype of every letter that looks
 * like a capital I is l (confusables.txt files I with l), so a capital letter reads I there (Cyrillic І, Greek Ι).
 * Latin ligatures that NFKC leaves as they are ("æ" ae, "œ" oe) are left out: a spelling, not a disguise.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const OUT = path.join(__dirname, '../data/screening/confusables.json');
const ASCII_ALNUM = /^[A-Za-z0-9]+$/;
const LETTER = /^\p{L}$/u;
const CAPITAL = /^[\p{Lu}\p{Lt}]$/u;
const LATIN = /^\p{Script=Latin}$/u;

function codePoints(hex: string): string {
  return String.fromCodePoint(
    ...hex
      .trim()
      .split(/\s+/)
      .map((h) => Number.parseInt(h, 16)),
  );
}

/** The Latin reading of a source character, or undefined when it is kept out (see the file's comment). */
function latinReading(source: string, prototype: string): string | undefined {
  if (!LETTER.test(source) || source.codePointAt(0)! < 0x80) return undefined;
  const target = prototype.normalize('NFKC');
  if (!ASCII_ALNUM.test(target.toLowerCase())) return undefined;
  const own = source.normalize('NFKC');
  if (ASCII_ALNUM.test(own)) return own;
  // A Latin ligature ("æ", "œ") is a way to spell the letters, not a disguise of them.
  if (LATIN.test(source) && target.length > 1) return undefined;
  return CAPITAL.test(source) ? target.replace(/l/g, 'I') : target;
}

function main(): void {
  const file = process.argv[2];
  if (!file) throw new Error('usage: npx tsx builders/build-confusables.ts <confusables.txt>');
  const bytes = readFileSync(file);
  const text = bytes.toString('utf8');
  const version = /^# Version: (\S+)/m.exec(text)?.[1];
  const date = /^# Date: (.+)$/m.exec(text)?.[1]?.trim();
  if (!version || !date || !/^# confusables\.txt/.test(text)) throw new Error(`${file} is not confusables.txt`);
  const readings = new Map<string, string>();
  let lines = 0;
  for (const line of text.split('\n')) {
    const fields = /^([0-9A-F ]+);\s*([0-9A-F ]+);\s*MA\s*#/.exec(line);
    if (!fields) continue;
    lines++;
    const source = codePoints(fields[1]!);
    const reading = latinReading(source, codePoints(fields[2]!));
    if (reading !== undefined) readings.set(source, reading);
  }
  const sorted = [...readings].sort(([a], [b]) => a.codePointAt(0)! - b.codePointAt(0)!);
  const data = {
    about:
      'Letters that look like Latin letters or digits, each with its Latin reading: from Unicode confusables.txt (UTS #39), letters only, not ASCII, prototype ASCII letters or digits. Built by builders/build-confusables.ts; see SOURCE.txt.',
    source: `confusables.txt, Unicode Security Mechanisms for UTS #39, version ${version}, ${date}, sha256 ${createHash('sha256').update(bytes).digest('hex')}`,
    version,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    readings: Object.fromEntries(sorted),
  };
  writeFileSync(OUT, `${JSON.stringify(data, null, 1)}\n`);
  console.log(`${lines} mappings, ${sorted.length} letters kept -> ${path.relative(process.cwd(), OUT)}`);
}

main();
