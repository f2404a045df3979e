/**
 * What a title says around a candidate: its case (Title Case, all capitals, all lower case), the classes its
 * product words point to, whether a word stands where makers' names stand, starts a model code, or is one word of a
 * person's name. Worked out only for titles that have a match, and each title-wide fact only once.
 */
import type { Candidate } from './candidates';
import type { ItemClasses } from './class-relation';
import { inferNiceClassesOfFacts, isNumberLike, type WordFacts } from './lexicon';
import type { TitleWord } from './title-words';

export interface ScreeningItem {
  title: string;
  /** Two-digit Nice class, when the seller gives one. */
  nice?: string;
}

/** Characters of a token of letters and digits from which it reads as a model code ("MC414HN"), not a size ("4K"). */
const MODEL_CODE_MIN_CHARS = 5;

export class TitleContext {
  private norms: string[] | undefined;
  private classes: ItemClasses | undefined;
  private caseFacts: { titleCase: boolean; shouting: boolean; lower: boolean } | undefined;
  /** itemClassesAround of the last span asked for: a candidate's several marks ask for the same span in a row. */
  private around: { start: number; end: number; classes: ItemClasses } | undefined;

  /**
   * Words of the other names the title holds (nameSpans): what the item is is read from the words around them.
   * Empty unless set.
   */
  private names: readonly Candidate[] = NO_NAMES;

  constructor(
    readonly item: ScreeningItem,
    readonly words: readonly TitleWord[],
  ) {}

  /**
   * The title's runs that are names (registered as written, several words that make no term of ordinary language,
   * not all of them goods or descriptions: "Star Wars", "Kylo Ren", not "Cotton Kurta"). Their words say whose the
   * item is, not what it is: "star" in "Star Wars Lego set" names no fireworks (class 13), and LEGO's class 28 is
   * not "another item's" for it.
   */
  setNames(names: readonly Candidate[]): void {
    this.names = names;
    this.classes = undefined;
    this.around = undefined;
  }

  get normalised(): string[] {
    this.norms ??= this.words.map((w) => w.norm);
    return this.norms;
  }

  /**
   * Title Case: three or more Latin words, 70% of them capitalised, or all in capitals; `lower`: no capital at all.
   * In such titles capitals say little about any one word.
   */
  get casing(): { titleCase: boolean; shouting: boolean; lower: boolean } {
    if (this.caseFacts === undefined) {
      let latin = 0;
      let capitalised = 0;
      let shouting = true;
      let lower = true;
      for (const word of this.words) {
        if (word.cjk) continue;
        latin++;
        if (word.capitalised) capitalised++;
        shouting &&= word.text === word.text.toUpperCase();
        lower &&= word.text === word.text.toLowerCase();
      }
      shouting &&= latin > 0 && !lower;
      this.caseFacts = { titleCase: latin >= 3 && (capitalised >= 0.7 * latin || shouting), shouting, lower };
    }
    return this.caseFacts;
  }

  get itemClasses(): ItemClasses {
    this.classes ??= this.item.nice
      ? { classes: [{ nice: this.item.nice, weight: 1 }], explicit: true }
      : { classes: inferNiceClassesOfFacts(this.factsOutside(undefined)).slice(0, 3), explicit: false };
    return this.classes;
  }

  /** The words' facts, with the words of the names other than `candidate` read as naming no product. */
  private factsOutside(candidate: Candidate | undefined): WordFacts[] {
    const facts = this.words.map(factsOf);
    for (const name of this.names) {
      if (candidate && name.start < candidate.end && candidate.start < name.end) continue;
      for (let i = name.start; i < name.end; i++) facts[i] = namingNoProduct(facts[i]!);
    }
    return facts;
  }

  /**
   * The item's classes as the words around the candidate infer them: a word whose meaning is in question is no
   * evidence of what the item is ("Apple MC414HN/A" is not sold as fruit because it says apple).
   */
  itemClassesAround(candidate: Candidate): ItemClasses {
    if (this.item.nice) return this.itemClasses;
    let own = false;
    for (let i = candidate.start; i < candidate.end && !own; i++) own = this.words[i]!.facts.classes.length > 0;
    let inName = false;
    for (const name of this.names) inName ||= name.start < candidate.end && candidate.start < name.end;
    if (!own && !inName) return this.itemClasses;
    const { start, end } = candidate;
    if (this.around?.start === start && this.around.end === end) return this.around.classes;
    const facts = this.factsOutside(candidate);
    const classes: ItemClasses = {
      classes: inferNiceClassesOfFacts(facts, { from: start, to: end }).slice(0, 3),
      explicit: false,
    };
    this.around = { start, end, classes };
    return classes;
  }

  /** The first words, or the first word after words that only describe ("Certified Refurbished Ring Doorbell"). */
  isBrandPosition(candidate: Candidate): boolean {
    if (candidate.start <= 1) return true;
    let lead = 0;
    while (lead < candidate.start && this.words[lead]!.facts.descriptor) lead++;
    return candidate.start === lead;
  }

  /** First in the title, with a product word or a model code somewhere after it ("Pilot Ball Pen", "Apple MC414HN/A"). */
  isMakerSlot(candidate: Candidate): boolean {
    if (candidate.start !== 0) return false;
    for (let i = candidate.end; i < this.words.length; i++) {
      const facts = this.words[i]!.facts;
      if ((facts.classes.length > 0 && !facts.dualUse) || this.isModelCodeAt(i)) return true;
    }
    return false;
  }

  /**
   * A token of letters and digits starts at `index`, long enough to be a model code, and no size ("500ml", "10x20").
   * Parts joined by hyphens are one token ("EW-73C", "CR-7026458", "BLEP-D10"); a hyphenated token of letters only
   * ("T-Shirt", "Wi-Fi") has no digit and is none.
   */
  isModelCodeAt(index: number): boolean {
    const token = this.codeTokenAt(index);
    return token !== undefined && token.length >= MODEL_CODE_MIN_CHARS && !isNumberLike(token);
  }

  /**
   * The token of letters and digits (both) that starts at `index`, its parts joined ("EW-73C" -> ew73c), or
   * undefined when none starts there (a word inside a token, a CJK word, letters or digits alone).
   */
  codeTokenAt(index: number): string | undefined {
    const words = this.words;
    if (index > 0 && (words[index - 1]!.continued || words[index - 1]!.hyphen)) return undefined;
    let letters = false;
    let digits = false;
    let token = '';
    for (let i = index; i < words.length; i++) {
      const word = words[i]!;
      if (word.cjk) return undefined;
      if (/^\d/.test(word.norm)) digits = true;
      else letters = true;
      token += word.norm;
      if (!word.continued && !word.hyphen) break;
    }
    return letters && digits ? token : undefined;
  }

  /** The candidate is cut out of a longer token of letters and digits ("3m" in "cmso4gx3m1a1333c9"). */
  isPartOfToken(candidate: Candidate): boolean {
    return (
      (candidate.start > 0 && this.words[candidate.start - 1]!.continued) || this.words[candidate.end - 1]!.continued
    );
  }

  /** The candidate starts or ends inside words joined by hyphens ("White T" in "White T-Shirt", "MMF" in "250mm-f"). */
  isCutFromHyphenated(candidate: Candidate): boolean {
    return (candidate.start > 0 && this.words[candidate.start - 1]!.hyphen) || this.words[candidate.end - 1]!.hyphen;
  }

  /**
   * The candidate is words joined by "&" with no space ("K&N", "H&M", "Lock&Lock"): one name, not the letters or
   * words it is made of.
   */
  isAmpersandName(candidate: Candidate): boolean {
    if (candidate.end - candidate.start < 2) return false;
    for (let i = candidate.start; i < candidate.end - 1; i++) if (!this.words[i]!.ampersand) return false;
    return true;
  }

  /** The candidate is a whole token of letters and digits of two or more parts ("3D", "V7", "Galz4ever"). */
  isWholeMixedToken(candidate: Candidate): boolean {
    if (candidate.end - candidate.start < 2 || this.isPartOfToken(candidate)) return false;
    for (let i = candidate.start; i < candidate.end - 1; i++) if (!this.words[i]!.continued) return false;
    return true;
  }

  /**
   * The word at `index` is one of two that read as a person's name: a given name and a word that is no ordinary
   * word ("Victor Hugo"), written alike; a model code after a given name is no surname ("Carlos CR-7026458 Watch").
   */
  isInPersonName(index: number): boolean {
    return this.readsAsPersonName(index - 1) || this.readsAsPersonName(index);
  }

  private readsAsPersonName(given: number): boolean {
    const first = this.words[given];
    const second = this.words[given + 1];
    if (first === undefined || second === undefined) return false;
    return (
      first.facts.givenName &&
      first.capitalised === second.capitalised &&
      !second.cjk &&
      !second.facts.generic &&
      !second.facts.stopword &&
      !second.facts.trivial &&
      !this.isModelCodeAt(given + 1)
    );
  }
}

function factsOf(word: TitleWord): WordFacts {
  return word.facts;
}

const NO_NAMES: readonly Candidate[] = Object.freeze([]);
const namingNoProductOf = new WeakMap<WordFacts, WordFacts>();

/** A word's facts as a word of a name: it names no product. */
function namingNoProduct(facts: WordFacts): WordFacts {
  if (facts.classes.length === 0) return facts;
  let out = namingNoProductOf.get(facts);
  if (out === undefined) {
    out = Object.freeze({ ...facts, classes: [] });
    namingNoProductOf.set(facts, out);
  }
  return out;
}
