/**
 * Training titles made from the labelled train titles by stated rules, for uses of a mark the labelled titles
 * rarely show. Each rule is general (it names no brand and no word of the hard cases); the made titles are
 * labelled by labelOf like any other (builders/screening/screening-dataset.ts). Deterministic: the n-th title of a
 * list gets the (n mod k)-th way.
 *
 *  nominative   a branded title with its brand moved after "for" or "compatible with" ("Solid Cotton Kurta for
 *               Crown", "Compatible with Crown Solid Cotton Kurta"): it still names its brand, a brand use (中 at
 *               most, title-conflicts.ts), whether the brand is a coined word or an ordinary one.
 *  maker cue    a branded title with its brand moved to the end after "by" ("Solid Cotton Kurta by Crown"): the
 *               title still names its maker, a brand use, whether the brand is a coined word or an ordinary one. The labelled titles nearly all name their brand first, and without these a brand named
 *               last, even after "by", read as the ordinary word it may be.
 *  person name  a brand-removed title with a person's name, a common given name and a one-word coined brand of
 *               another train title ("Les Miserables Paperback by Victor Alisha"): the word is a surname there,
 *               no brand use.
 *  quantity     a dual-use word a brand-removed title uses as an ordinary word, alone with a quantity ("Ring 2
 *               pcs", "Apple 1 kg"): the word names the item, no brand use.
 *  joined       a dual-use word a brand-removed title uses as an ordinary word, after "for" and joined by "and" to
 *               a product word of the title ("Plant Container Set for Ring and Container"): a list of things the
 *               item is for, no brand named (labelOf: what "and" joins after a cue is no nominative use).
 *  modifier     a dual-use word of another brand-removed title that names a thing (its lexicon classes) of another
 *               kind than a product word of this one, put before that product word: before the last one, all in
 *               lower case ("stainless steel apple slicer": a slicer for apples), or before the first word when
 *               the title starts with one, cased as the title ("Apple Slicer ..."): an ordinary word saying what the item is
 *               for, no brand use of a mark outside the item's class. Only its matches in a class other than the
 *               item's are trained on (modifierExampleKept): in the mark's own class the same words may be a brand.
 *  lower case   every fourth branded and brand-removed title written all in lower case, as many sellers write:
 *               the labelled lower-case titles are nearly all software listings, brand first, so without these a
 *               lower-case title's first words read as a maker's name. Labels as the original's.
 *  term         a common term of two or three words holding a dual-use word (WordNet, the Nice goods, the Shopify
 *               taxonomy: builders/build-common-phrases.ts) or a word no word list knows (a term of goods, which the
 *               trainer also registers as a mark: "PCI Express"), put first, before the last product word or last in a
 *               brand-removed title, written as the title is ("Surge Protector Solid Cotton Kurta"): the word is part
 *               of the term, no brand use. Only matches inside a term are trained on (termExampleKept): the rest
 *               of the title is its brand-removed original, already trained on.
 */
import lexiconData from '../../data/lexicon/lexicon.json';
import { isEnglishWord } from '../../shared/screening/word-frequencies';
import { inferNiceClassesOfFacts } from '../../shared/screening/lexicon';
import { wordsOfTitle } from '../../shared/screening/title-words';
import type { CandidateExample } from '../../shared/screening/screen-titles';
import { dualUseTerms, unlistedTerms } from './common-terms';
import type { LabelledTitle } from './labelled-titles';
import { namesBrand, withoutBrand } from './screening-dataset';

const GIVEN_NAMES: readonly string[] = (lexiconData as { givenNames: string }).givenNames.split(' ').filter(Boolean);
const QUANTITIES = ['1 kg', '500ml', '2 pcs', '250 g', '1 L', '100g', '12 inch', '3 Pack'];

const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** Written as the title is: all capitals, all lower case, or with capitals. */
function casedLike(title: string, text: string): string {
  if (title === title.toUpperCase()) return text.toUpperCase();
  if (title === title.toLowerCase()) return text.toLowerCase();
  return text;
}

/**
 * Made titles of one in `every` branded titles (from the `offset`-th on) whose brand is written in Latin letters and
 * named in the title (not Amazon's own marks): `make` writes each from the title without its brand and its turn
 * (0, 1, 2 ... among those taken).
 */
function brandMoved(
  branded: readonly LabelledTitle[],
  every: number,
  offset: number,
  kind: string,
  make: (t: LabelledTitle, rest: string, turn: number) => string,
): LabelledTitle[] {
  const out: LabelledTitle[] = [];
  let n = 0;
  for (const t of branded) {
    if (t.set === 'markup-amazon' || !/^[\p{Script=Latin}\d][\p{Script=Latin}\d .&'-]*$/u.test(t.brand)) continue;
    if (n++ % every !== offset) continue;
    const rest = withoutBrand(t.title, t.brand);
    if (!rest || !namesBrand(t.title, t.brand)) continue;
    out.push({ ...t, id: `${t.id}:${kind}`, title: make(t, rest, (n - 1 - offset) / every) });
  }
  return out;
}

/** Every third branded title with its brand named nominatively. */
export function nominativeVariants(branded: readonly LabelledTitle[]): LabelledTitle[] {
  return brandMoved(branded, 3, 0, 'nominative', (t, rest, way) =>
    way % 3 === 0
      ? `${rest} ${casedLike(t.title, 'for')} ${t.brand}`
      : way % 3 === 1
        ? `${casedLike(t.title, 'Compatible with')} ${t.brand} ${rest}`
        : `${rest} ${casedLike(t.title, 'compatible with')} ${t.brand}`,
  );
}

/** Every sixth branded title (none of those nominativeVariants takes) with its brand last, after "by". */
export function makerCueVariants(branded: readonly LabelledTitle[]): LabelledTitle[] {
  return brandMoved(branded, 6, 1, 'maker', (t, rest) => `${rest} ${casedLike(t.title, 'by')} ${t.brand}`);
}

/** One-word coined brands of the titles: letters only, no English or lexicon word. */
function coinedOneWordBrands(branded: readonly LabelledTitle[]): string[] {
  const out = new Set<string>();
  for (const t of branded) {
    if (!/^[A-Za-z]{4,12}$/.test(t.brand)) continue;
    const [word] = wordsOfTitle(t.brand);
    const facts = word?.facts;
    if (!facts || facts.generic || facts.dualUse || facts.givenName || isEnglishWord(word.norm)) continue;
    out.add(capitalise(t.brand.toLowerCase()));
  }
  return [...out].sort();
}

/** Every fifth brand-removed title with a person's name before or after it ("by Given Surname"). */
export function personNameVariants(
  removed: readonly LabelledTitle[],
  branded: readonly LabelledTitle[],
): LabelledTitle[] {
  const surnames = coinedOneWordBrands(branded);
  const out: LabelledTitle[] = [];
  if (surnames.length === 0) return out;
  removed.forEach((t, n) => {
    if (n % 5 !== 0) return;
    const k = n / 5;
    const name = `${capitalise(GIVEN_NAMES[(k * 7) % GIVEN_NAMES.length]!)} ${surnames[(k * 13) % surnames.length]}`;
    const title = k % 2 === 0 ? `${name} ${t.title}` : `${t.title} ${casedLike(t.title, 'by')} ${name}`;
    out.push({ ...t, id: `${t.id}:person`, title: casedLike(t.title, title) });
  });
  return out;
}

/** Every second brand-removed title with a dual-use word (not cut from a token): that word with a quantity. */
export function quantityVariants(removed: readonly LabelledTitle[]): LabelledTitle[] {
  const out: LabelledTitle[] = [];
  let n = 0;
  for (const t of removed) {
    const words = wordsOfTitle(t.title);
    const word = words.find(
      (w, i) => w.facts.dualUse && !w.continued && !w.hyphen && !words[i - 1]?.continued && !words[i - 1]?.hyphen,
    );
    if (!word || n++ % 2 !== 0) continue;
    const quantity = QUANTITIES[((n - 1) / 2) % QUANTITIES.length]!;
    out.push({ ...t, id: `${t.id}:quantity`, title: `${word.text} ${casedLike(t.title, quantity)}` });
  }
  return out;
}

/** Every second brand-removed title with a dual-use word and a product word: "... for <word> and <product word>". */
export function joinedVariants(removed: readonly LabelledTitle[]): LabelledTitle[] {
  const out: LabelledTitle[] = [];
  let n = 0;
  for (const t of removed) {
    const words = wordsOfTitle(t.title);
    const at = words.findIndex(
      (w, i) => w.facts.dualUse && !w.continued && !w.hyphen && !words[i - 1]?.continued && !words[i - 1]?.hyphen,
    );
    const product = [...words].reverse().find((w) => w.facts.classes.length > 0 && !w.facts.dualUse && !w.continued);
    if (at < 0 || !product || n++ % 2 !== 0) continue;
    const rest = words
      .filter((_, i) => i !== at)
      .map((w) => w.text)
      .join(' ');
    const title = `${rest} ${casedLike(t.title, 'for')} ${words[at]!.text} ${casedLike(t.title, 'and')} ${product.text}`;
    out.push({ ...t, id: `${t.id}:joined`, title });
  }
  return out;
}

/** A dual-use word that says what a thing is for or made of, and the classes of the things it names. */
function modifierWords(removed: readonly LabelledTitle[]): { text: string; classes: ReadonlySet<string> }[] {
  const out = new Map<string, ReadonlySet<string>>();
  for (const t of removed)
    for (const w of wordsOfTitle(t.title)) {
      const f = w.facts;
      if (!f.dualUse || !f.modifier || f.classes.length === 0 || !/^[a-z]{3,}$/.test(w.norm)) continue;
      out.set(w.norm, new Set(f.classes.map((c) => c.nice)));
    }
  return [...out.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([text, classes]) => ({ text, classes }));
}

/**
 * Every third brand-removed title with a product word (not dual-use): a dual-use modifier word of another kind put
 * before a product word. Two ways in turn: before its last such word, the title written in lower case as many
 * sellers write (the labelled titles are nearly all capitalised, so a lower-case title is otherwise rarely seen in
 * training); or, when the title starts with such a word, before that first word, written as the title is ("Apple
 * Slicer ...", "apple slicer ..."): where a maker's name would stand.
 */
export function modifierVariants(removed: readonly LabelledTitle[]): LabelledTitle[] {
  const modifiers = modifierWords(removed);
  const out: LabelledTitle[] = [];
  if (modifiers.length === 0) return out;
  const isPlainProductWord = (w: ReturnType<typeof wordsOfTitle>[number]) =>
    w.facts.classes.length > 0 && !w.facts.dualUse && !w.continued && !w.hyphen && /^\p{L}+$/u.test(w.text);
  let n = 0;
  for (const t of removed) {
    const words = wordsOfTitle(t.title);
    const last = words.findLastIndex(isPlainProductWord);
    if (last < 0 || n++ % 3 !== 0) continue;
    const k = (n - 1) / 3;
    const first = k % 2 === 1 && words[0] !== undefined && isPlainProductWord(words[0]);
    const at = first ? 0 : last;
    const product = new Set(words[at]!.facts.classes.map((c) => c.nice));
    const pick = [...modifiers.keys()]
      .map((i) => modifiers[(k * 7 + i) % modifiers.length]!)
      .find((m) => ![...m.classes].some((c) => product.has(c)) && !words.some((w) => w.norm === m.text));
    if (!pick) continue;
    const modifier = first ? casedLike(t.title, capitalise(pick.text)) : pick.text;
    const text = words.map((w, i) => (i === at ? `${modifier} ${w.text}` : w.text)).join(' ');
    out.push({ ...t, id: `${t.id}:modifier`, title: first ? text : text.toLowerCase() });
  }
  return out;
}

/** A modifier-variant match is trained on only when the mark's classes are other than the item's. */
export function modifierExampleKept(example: Pick<CandidateExample, 'features'>, classOther: number): boolean {
  return example.features[classOther] === 1;
}

/** Words written as the title writes its words: all capitals, lower case, or each word capitalised. */
function termCasedLike(title: string, term: string): string {
  if (title === title.toUpperCase()) return term.toUpperCase();
  if (title === title.toLowerCase()) return term;
  return term.split(' ').map(capitalise).join(' ');
}

/** The classes a text's product words point to (lexicon.ts), as a set. */
function kindsOf(text: string): Set<string> {
  return new Set(inferNiceClassesOfFacts(wordsOfTitle(text).map((w) => w.facts)).map((c) => c.nice));
}

/** How far down a list of terms to look for one of the title's kind before taking the first. */
const SAME_KIND_LOOKAHEAD = 50;

/**
 * Every third brand-removed title with a common term, first, mid-title or last: in turn three with a term holding a
 * dual-use word, three with a term holding an unlisted word (a term mark's words, unlistedTerms). The term is of
 * the title's kind of goods where the list has one near the drawn place ("surge protector" in a title of electrical
 * goods), as real titles name the terms of their own trade: there a term's mark is often in the item's class.
 */
export function termVariants(removed: readonly LabelledTitle[]): LabelledTitle[] {
  const lists = [dualUseTerms(), unlistedTerms()].map((terms) => terms.map((term) => ({ term, kinds: kindsOf(term) })));
  const out: LabelledTitle[] = [];
  removed.forEach((t, n) => {
    if (n % 3 !== 0) return;
    const k = n / 3;
    const terms = lists[Math.floor(k / 3) % 2]!;
    if (terms.length === 0) return;
    const titleKinds = kindsOf(t.title);
    const from = (k * 7919) % terms.length;
    let pick = terms[from]!;
    for (let i = 0; i < SAME_KIND_LOOKAHEAD; i++) {
      const candidate = terms[(from + i) % terms.length]!;
      if ([...candidate.kinds].some((c) => titleKinds.has(c))) {
        pick = candidate;
        break;
      }
    }
    const term = termCasedLike(t.title, pick.term);
    const words = wordsOfTitle(t.title);
    const at = words.findLastIndex((w) => w.facts.classes.length > 0 && !w.continued && !w.hyphen);
    const way = k % 3 === 1 && at < 0 ? 0 : k % 3;
    const title =
      way === 0
        ? `${term} ${t.title}`
        : way === 1
          ? words.map((w, i) => (i === at ? `${term} ${w.text}` : w.text)).join(' ')
          : `${t.title} ${term}`;
    out.push({ ...t, id: `${t.id}:term`, title });
  });
  return out;
}

/** A term-variant match is trained on only when its words stand inside a common term. */
export function termExampleKept(example: Pick<CandidateExample, 'features'>, inTerm: readonly number[]): boolean {
  return inTerm.some((i) => example.features[i] === 1);
}

/** Every fourth title (branded or brand-removed, not already in lower case) written all in lower case. */
export function lowerCaseVariants(titles: readonly LabelledTitle[]): LabelledTitle[] {
  const out: LabelledTitle[] = [];
  let n = 0;
  for (const t of titles) {
    if (t.title === t.title.toLowerCase() || n++ % 4 !== 0) continue;
    out.push({ ...t, id: `${t.id}:lower`, title: t.title.toLowerCase() });
  }
  return out;
}
