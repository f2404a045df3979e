/**
 * Letters that look like Latin letters or digits, read as those: Unicode's confusables data (UTS #39,
 * confusables.txt) as data/screening/confusables.json keeps it (built by builders/build-confusables.ts): letters
 * only, not ASCII, whose prototype is ASCII letters or digits. "ı" (dotless i) reads i, Cyrillic "е" e, Greek "Ο" O,
 * Cyrillic "З" 3, "æ" ae.
 */
import confusables from '../../data/screening/confusables.json';

const READINGS: ReadonlyMap<string, string> = new Map(
  Object.entries((confusables as { readings: Record<string, string> }).readings),
);

/** The version of confusables.txt the table was built from ("17.0.0"). */
export const CONFUSABLES_VERSION: string = (confusables as { version: string }).version;

const ASCII_ALNUM = /^[A-Za-z0-9]+$/;

/**
 * The Latin reading of one character (a code point) that is not ASCII: its own; for a compatibility form that NFKC
 * makes ASCII letters or digits (full-width "Ｋ", which confusables.txt does not list), that; for a letter with
 * accents, that of its base letter ("ё" reads e, as "е" does). Undefined when it looks like no Latin letter or digit.
 */
export function latinReadingOf(char: string): string | undefined {
  const reading = READINGS.get(char);
  if (reading !== undefined) return reading;
  const compatible = char.normalize('NFKC');
  if (compatible !== char && ASCII_ALNUM.test(compatible)) return compatible;
  const base = char.normalize('NFD');
  return base === char ? undefined : READINGS.get(String.fromCodePoint(base.codePointAt(0)!));
}
