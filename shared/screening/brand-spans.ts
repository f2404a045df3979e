/**
 * Which runs of a title are worth a look in the register. In a register of real size nearly every word is somebody's
 * mark (INK, MEMORY, CUSHIONS, STYLISH), so looking up every run of every title makes the work per title, the reads
 * and the matches to judge grow with the register, and puts an ordinary word's registration in front of the judge in
 * every title. A run is looked up only where the title's own language proposes a brand, or where it names a mark held
 * in memory as strong:
 *  - a word of the run is no ordinary word: not a product, descriptive, stop or number word, nor an English word
 *    ("Zorblaxa", "Nikee", "iPhone", "cli-226": coined names, misspellings and codes);
 *  - the run stands where a title's brand stands: first, second, or first after words that only describe
 *    ("Certified Refurbished Ring Doorbell");
 *  - it follows a maker or nominative cue ("by Coach", "for Apple", "compatible with Ring"), or is joined by "and",
 *    "or", "&" to a run that does ("for iPod and iPhone");
 *  - it names a TRO brand or a word the lexicon knows as a trademark: those are in memory, and their owners sue.
 * Everything else (an ordinary word in the middle of a title: "laptop memory kit", "abstract cushions cover") is not
 * looked up, so its registrations cost nothing and raise nothing. The proposals depend on the title alone: the
 * keys a title costs do not grow with the register.
 */
import type { Candidate } from './candidates';
import { followsNominativeCue, nominativeCueOfNormalised } from './lexicon';
import type { TitleWord } from './title-words';
import type { TroIndex } from './tro-index';
import { isCommonPhrase, isEnglishWord } from './word-frequencies';

const MAKER_CUES: ReadonlySet<string> = new Set(['by', 'from']);
const JOINERS: ReadonlySet<string> = new Set(['and', 'or', '&']);

/** A word that could only be a brand's: none of the lexicon's kinds and no English word. */
export function isUnordinaryWord(word: TitleWord): boolean {
  const facts = word.facts;
  return !(
    facts.generic ||
    facts.dualUse ||
    facts.stopword ||
    facts.descriptor ||
    facts.trivial ||
    isEnglishWord(word.norm)
  );
}

const HAS_DIGIT = /\d/;

/**
 * Words `start` to `end` (exclusive) could only be read together as a name: two words or more of letters (two or
 * more each, no digits: not "TE-D820R" read as "te", "d820r"), no term of ordinary language ("Star Wars", "League of
 * Legends", "Kylo Ren", not "Stainless Steel"), holding a word that names no goods and describes nothing (not
 * "Cotton Kurta", "Black Leather"), and not a person's name ("Victor Hugo"). Registered as written, such a run is a
 * name wherever the title puts it: the labels call it a brand use (builders/screening/screening-dataset.ts), and
 * its words say whose the item is, not what it is (TitleContext.setNames).
 */
export function isNamePhrase(words: readonly TitleWord[], start: number, end: number): boolean {
  if (end - start < 2 || words[start]!.facts.givenName || words[start - 1]?.facts.givenName) return false;
  let nameWord = false;
  let joined = '';
  for (let i = start; i < end; i++) {
    const word = words[i]!;
    if (word.cjk || (word.norm.length < 2 && !word.facts.stopword) || HAS_DIGIT.test(word.norm)) return false;
    const facts = word.facts;
    nameWord ||= !(facts.generic || facts.describing || facts.descriptor || facts.stopword || facts.trivial);
    joined = i === start ? word.norm : `${joined} ${word.norm}`;
  }
  return nameWord && !isCommonPhrase(joined);
}

export class BrandSpans {
  private readonly norms: string[];
  /** The index of the first word after the words that only describe. */
  private readonly lead: number;

  constructor(
    private readonly words: readonly TitleWord[],
    private readonly tro: TroIndex | undefined,
  ) {
    this.norms = words.map((w) => w.norm);
    let lead = 0;
    while (lead < words.length && words[lead]!.facts.descriptor) lead++;
    this.lead = lead;
  }

  /** Whether the run is worth a lookup (see the file's comment). */
  proposes(candidate: Candidate): boolean {
    const { start, end, run } = candidate;
    if (start <= 1 || start === this.lead || run.cjk) return true;
    if (this.followsCue(start) || this.joinedToCuedRun(start)) return true;
    for (let i = start; i < end; i++) {
      const word = this.words[i]!;
      if (word.facts.knownTrademark || isUnordinaryWord(word)) return true;
    }
    return this.tro?.names(run.joined) !== undefined;
  }

  private followsCue(index: number): boolean {
    return MAKER_CUES.has(this.norms[index - 1]!) || followsNominativeCue(this.norms, index);
  }

  /** "for iPod and iPhone": the next item of a list a cue opened (lexicon.ts nominativeCueOfNormalised). */
  private joinedToCuedRun(index: number): boolean {
    return JOINERS.has(this.norms[index - 1] ?? '') && nominativeCueOfNormalised(this.norms, index) !== undefined;
  }
}
