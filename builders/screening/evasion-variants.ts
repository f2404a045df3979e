/**
 * Evasive spellings of a labelled brand, made from training titles so that the model sees what sellers do to slip
 * a brand past filters: a Cyrillic look-alike letter, digits for letters, letters set apart by dots or spaces.
 * Deterministic: the n-th title gets the (n mod 4)-th way.
 */
const CYRILLIC: Record<string, string> = { a: 'а', e: 'е', o: 'о', c: 'с', p: 'р', x: 'х', y: 'у', i: 'і' };
const DIGITS: Record<string, string> = { o: '0', i: '1', e: '3', a: '4', s: '5' };

export function evasiveSpelling(brand: string, n: number): string | undefined {
  if (!/^[A-Za-z]{4,10}$/.test(brand)) return undefined;
  const way = n % 4;
  const inner = [...brand].map((c, i) => ({ c, i })).filter(({ i }) => i > 0 && i < brand.length - 1);
  if (way === 0 || way === 1) {
    const table = way === 0 ? CYRILLIC : DIGITS;
    const at = inner.find(({ c }) => table[c.toLowerCase()] !== undefined);
    if (!at) return undefined;
    return brand.slice(0, at.i) + table[at.c.toLowerCase()] + brand.slice(at.i + 1);
  }
  if (way === 2) return [...brand].join('.');
  return [...brand.toUpperCase()].join(' ');
}

/**
 * A misspelling of a one-word brand of five letters or more, one edit away: a letter doubled, dropped, or two
 * neighbours swapped (the (n mod 3)-th way); undefined for other brands.
 */
export function misspelling(brand: string, n: number): string | undefined {
  if (!/^[A-Za-z]{5,12}$/.test(brand)) return undefined;
  const at = 1 + (n % (brand.length - 2));
  switch (n % 3) {
    case 0:
      return brand.slice(0, at) + brand[at] + brand.slice(at);
    case 1:
      return brand.slice(0, at) + brand.slice(at + 1);
    default:
      return brand[at] === brand[at + 1]
        ? undefined
        : brand.slice(0, at) + brand[at + 1] + brand[at] + brand.slice(at + 2);
  }
}
