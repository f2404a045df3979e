/**
 * A mark's strength, as the register shows it: how many live registrations of the same text its owner holds, and
 * in how many classes. A famous mark made of ordinary words (STAR
 * WARS, TRANSFORMERS, KINETIC SAND, COACH) reads in a title exactly as an ordinary phrase does, and a model fitted
 * where every word is somebody's mark learns to let such phrases pass; what sets the famous mark apart is not the
 * title but the register: its owner has filed it again and again, across the goods it licenses. An ordinary word's
 * registrations are spread over many small owners, one or two each.
 *
 * A strong mark that stands where a brand stands (the title's first words, after a maker cue "by", or named
 * nominatively "for X"), matched as written, for goods its owner's registrations of it cover (or the item's class
 * unknown or unclear), is 中 at least, whatever the model's probability: the title names the brand that sues. The
 * model still decides 高. Thresholds: a strong mark's owner holds at least STRONG_REGISTRATIONS live registrations of
 * the text covering at least STRONG_CLASSES classes; a mark of one ordinary word needs a famous portfolio
 * (FAMOUS_WORD_REGISTRATIONS in FAMOUS_WORD_CLASSES) and must not describe the item or make a term with its neighbour.
 *
 * A brand's TRO history is strength too: a registered mark of a brand that files Schedule A suits, named as the
 * item's maker, is 中 at least for goods of a class its registrations hold, whatever the size of its portfolio in
 * the data ("Coach Leather Crossbody Handbag" names the plaintiff for a handbag; "Coach whistle" and "Omega 3 fish
 * oil" name goods its registrations do not hold). Its one ordinary word must still stand as a name (no describing
 * word, no term with its neighbour), and spelt a letter off it counts where the word is no ordinary word ("Nikee":
 * the spelling that evades the plaintiff's name). A TRO brand that counts, named as the item's maker, is 高
 * (title-conflicts.ts).
 */
import { isNamePhrase, isUnordinaryWord } from './brand-spans';
import type { Candidate } from './candidates';
import { classRelationOf } from './class-relation';
import { modelCodeAfter } from './device-reference';
import type { RunMatch } from './run-matches';
import type { TitleContext } from './title-context';
import { isCommonPhrase, isDescribingWord } from './word-frequencies';

export const STRONG_REGISTRATIONS = 3;
export const STRONG_CLASSES = 3;
/**
 * One ordinary word ("Ring", "Kindle", "Coach", "Transformers") is a name only when its owner's portfolio is that of
 * a famous mark: twice the registrations and more classes than a strong name needs. An ordinary word's registrations
 * are spread over owners who file it for one line of goods; a house brand made of one ordinary word is filed for
 * every line its owner sells or licenses.
 */
export const FAMOUS_WORD_REGISTRATIONS = 6;
export const FAMOUS_WORD_CLASSES = 5;
/** An inferred item class with at least this share of the title's votes says what the item is. */
const CLEAR_ITEM_CLASS = 0.5;

/** Words before a run that name its maker ("by Coach", "from Lego"). */
const MAKER_CUES: ReadonlySet<string> = new Set(['by', 'from']);

/**
 * Strong in the register: a portfolio of its text across classes. A TRO brand is not strong here for that alone:
 * the TRO list names brands, not their goods, and "Omega 3 fish oil" names no watch (see isTroMark).
 */
export function isStrongMark(match: RunMatch): boolean {
  return match.ownerRegistrations >= STRONG_REGISTRATIONS && match.ownerClasses.length >= STRONG_CLASSES;
}

/**
 * A registration of a brand that files TRO suits: strong for the goods its registrations cover (namesStrongMark
 * checks the item against them). A TRO brand the data holds no registration of (`troOnly`) says no goods, and is
 * left to the model.
 */
function isTroMark(match: RunMatch): boolean {
  return match.tro && !match.troOnly;
}

/**
 * The run's words could only be a name: several words that are no term of ordinary language ("Star Wars", "Kinetic
 * Sand", not "Sterling Silver"), one word that is no ordinary word ("Rubies"), or one ordinary word of a famous
 * owner's portfolio or of a TRO brand that stands as a name (standsAsName), written as whole tokens (not "AC" cut out
 * of "Wireless-AC1900").
 */
function isDistinctiveRun(context: TitleContext, candidate: Candidate, match: RunMatch): boolean {
  if (context.isPartOfToken(candidate) || context.isCutFromHyphenated(candidate)) return false;
  if (candidate.end - candidate.start === 1)
    return (
      isUnordinaryWord(context.words[candidate.start]!) ||
      ((isTroMark(match) || isFamousPortfolio(match)) && standsAsName(context, candidate.start))
    );
  return !isCommonPhrase(context.normalised.slice(candidate.start, candidate.end).join(' '));
}

/**
 * A TRO brand's name spelt a letter off where no word is ("Nikee Air Running Shoes"): the spelling that evades a
 * plaintiff's name, not another word. Every word of the run is no ordinary word (isUnordinaryWord).
 */
function isEvasiveSpelling(context: TitleContext, candidate: Candidate, match: RunMatch): boolean {
  if (!isTroMark(match) || match.distance > 1) return false;
  for (let i = candidate.start; i < candidate.end; i++) if (!isUnordinaryWord(context.words[i]!)) return false;
  return true;
}

/** A famous mark's portfolio: FAMOUS_WORD_REGISTRATIONS live registrations of the text in FAMOUS_WORD_CLASSES. */
function isFamousPortfolio(match: RunMatch): boolean {
  return match.ownerRegistrations >= FAMOUS_WORD_REGISTRATIONS && match.ownerClasses.length >= FAMOUS_WORD_CLASSES;
}

/**
 * The ordinary word at `at` stands as a name: it is no describing word (the lexicon's "Black", "Pearl",
 * "Universal", and WordNet's adjectives "Royal", "Stylish": they describe the item, whoever holds them), and it makes
 * no term of ordinary language with a word beside it ("Ring binder", "Echo chamber").
 */
function standsAsName(context: TitleContext, at: number): boolean {
  const facts = context.words[at]!.facts;
  if (facts.descriptor || facts.stopword || facts.trivial || isDescribingWord(context.normalised[at]!)) return false;
  const words = context.normalised;
  const before = words[at - 1];
  const after = words[at + 1];
  return !(
    (after !== undefined && isCommonPhrase(`${words[at]} ${after}`)) ||
    (before !== undefined && isCommonPhrase(`${before} ${words[at]}`))
  );
}

/**
 * The match is a strong mark named as a brand: as written, where a brand stands or is named (first words, after a
 * maker or nominative cue), and for goods the owner's registrations of it cover or that nothing in the title says.
 * A TRO brand's mark without a strong portfolio (isTroMark) counts only where the title names it as the item's
 * maker (first words, or after "by"), for goods of a class its registrations hold: its TRO history says it sues,
 * not over which goods, and a nominative reading or a related class is left to the model.
 */
export function namesStrongMark(
  context: TitleContext,
  candidate: Candidate,
  match: RunMatch,
  nominative: boolean,
): boolean {
  const strong = isStrongMark(match);
  if (match.kind === 'fuzzy' ? !isEvasiveSpelling(context, candidate, match) : !(strong || isTroMark(match)))
    return false;
  if (!isDistinctiveRun(context, candidate, match)) return false;
  const named = context.isBrandPosition(candidate) || MAKER_CUES.has(context.normalised[candidate.start - 1] ?? '');
  if (!(named || (strong && nominative))) return false;
  const item = context.itemClassesAround(candidate);
  const { relation } = classRelationOf(match.ownerClasses, item);
  if (!strong) return relation === 'same';
  if (relation !== 'other') return true;
  // Goods the owner's registrations do not cover count against the mark only when the item is known to be them:
  // the seller said, or the title's words point one way ("apple slicer": kitchen tools), not at half a dozen
  // classes at once ("Robots In Disguise One Step Changer").
  return !(item.explicit || (item.classes[0]?.weight ?? 0) >= CLEAR_ITEM_CLASS);
}

/**
 * A TRO brand's registered name spelt one letter off as an English word, where the item's maker stands, for goods
 * of the brand's own classes: "Channel Quilted Handbag" for CHANEL. Sellers choose the dictionary spelling because a
 * filter of misspellings passes it; the word is still a word, and the title may mean it, so this is 中 for a reader
 * to decide, never 高 on its own (the model may still say more). A word spelt where no word is ("Nikee") is
 * isEvasiveSpelling's; a word that names goods ("Polo", whose goods the item would be), describes the item, or makes
 * a term of ordinary language with a word beside it is left to the model, and so is any other class of goods
 * ("Couch Cover" is no bag of COACH's) and a word the title names as the start of its maker's longer name.
 */
export function namesTroBrandInAWord(context: TitleContext, candidate: Candidate, match: RunMatch): boolean {
  if (!isTroMark(match) || match.kind !== 'fuzzy' || match.distance !== 1) return false;
  if (candidate.end - candidate.start !== 1) return false;
  const word = context.words[candidate.start]!;
  if (isUnordinaryWord(word) || word.facts.dualUse || word.facts.classes.length > 0) return false;
  if (context.isPartOfToken(candidate) || context.isCutFromHyphenated(candidate)) return false;
  const named = context.isBrandPosition(candidate) || MAKER_CUES.has(context.normalised[candidate.start - 1] ?? '');
  if (!named || !standsAsName(context, candidate.start) || makerNameGoesOn(context.normalised, candidate.start))
    return false;
  return classRelationOf(match.ownerClasses, context.itemClassesAround(candidate)).relation === 'same';
}

/**
 * The title names its maker after "by" or "from" with the word at `at` and the word after it too ("Channel Nine ...
 * by Channel Nine"): the word is the first of the maker's longer name, not a name of its own.
 */
function makerNameGoesOn(words: readonly string[], at: number): boolean {
  const next = words[at + 1];
  if (next === undefined) return false;
  for (let i = 0; i + 2 < words.length; i++)
    if (MAKER_CUES.has(words[i]!) && i + 1 !== at && words[i + 1] === words[at] && words[i + 2] === next) return true;
  return false;
}

/** How many Chinese characters a CN mark's run needs before the rule below reads it as a name. */
const LEAST_CHINESE_NAME_CHARS = 3;

/**
 * A CN mark written in Chinese characters, exactly, at the head of the title, for goods of its classes, of a class
 * that travels with them, or that the title does not make clear ("阿迪达斯三叶草卫衣"). The brand-use model was
 * fitted on labelled titles that hold no Chinese, so what it says of such a run is extrapolation (it moved from 0.88
 * to 0.51 between two fits on the same data), and a Chinese title gives none of the cues it reads (capitals, spaces,
 * word lists). What is left is the register and the brand's place: three or more characters written as the mark
 * registers them, where the maker's name stands, are the mark. Shorter runs ("苹果" is also the fruit) and runs
 * further in stay with the model.
 */
export function namesChineseMark(context: TitleContext, candidate: Candidate, match: RunMatch): boolean {
  if (!match.cn || !candidate.run.cjk || match.kind !== 'exact' || candidate.start !== 0) return false;
  if ([...candidate.run.joined].length < LEAST_CHINESE_NAME_CHARS) return false;
  return classRelationOf(match.niceClasses, context.itemClassesAround(candidate)).relation !== 'other';
}

/**
 * A strong mark named as the item's own brand, which outranks the title's maker for top_conflict ("Rubies Teenage
 * Mutant Ninja Turtles bow staff" is on the licensed character): not named nominatively, and not followed by a model
 * code, which makes it the device a part fits ("Lapguard HP Pavilion dv5-1005ef Laptop Battery" stays on Lapguard).
 */
export function isStrongItemBrand(context: TitleContext, candidate: Candidate, strong: boolean, nominative: boolean) {
  return strong && !nominative && modelCodeAfter(context, candidate) < 0;
}

/**
 * A device's own name of two words or more, named as the device a part is made for ("Apple Watch band 45mm": the
 * APPLE WATCH registration), matched as written to a live registration: 中 at least, however the model reads the
 * words. A part's title names the device to say what it fits, which is a nominative use, a risk on marketplaces that
 * the seller should see; the model, fitted on titles where a brand's own goods follow it, reads "Apple Watch" before
 * "band" as ordinary words. The run must be a name, not a term ("watch band" is no device), and its words besides the
 * device noun must name no goods and describe nothing ("Leather Watch" is a band's material and a watch).
 */
export function namesDeviceByItsName(context: TitleContext, candidate: Candidate, match: RunMatch): boolean {
  if (match.kind !== 'exact' || !match.isLive || candidate.end - candidate.start < 2) return false;
  if (!isDistinctiveRun(context, candidate, match)) return false;
  for (let i = candidate.start; i < candidate.end - 1; i++) {
    const facts = context.words[i]!.facts;
    if (facts.descriptor || facts.describing || facts.stopword) return false;
    // A product word or an ordinary word of goods, unless brands are also named by it ("Apple", "Blackberry").
    if ((facts.generic || facts.classes.length > 0) && !facts.dualUse) return false;
  }
  return true;
}

/** Words (and words that are no stopword) a registered name needs to be read as a name wherever the title writes it. */
export const LONG_NAME_WORDS = 3;
const LONG_NAME_CONTENT_WORDS = 2;

/**
 * A registered name of three words or more, written in the title exactly as registered, live ("Rubies Teenage Mutant
 * Ninja Turtles bow staff", "Jake and the Neverland Pirates puzzle"): 中 at least, wherever the title writes it. The
 * words must read only as a name (isNamePhrase: no term of ordinary language, a word that names no goods and
 * describes nothing), so "Stainless Steel Water Bottle" or "Made in China" never count. Three such words in the
 * registered order are no accident of ordinary language: the title names the mark, as its brand, as a licensed
 * character beside its maker, or as the thing an accessory fits, and each is a risk a seller should see. The model,
 * fitted where each labelled brand is one or two words and a name after the maker is rare, reads such a run by its
 * ordinary words (the character beside its maker 0.38). Goods the registration does not cover count against it only
 * when the item is known to be them, as for strong marks.
 */
export function namesLongName(context: TitleContext, candidate: Candidate, match: RunMatch): boolean {
  if (match.kind !== 'exact' || !match.isLive || match.cn || candidate.run.cjk) return false;
  if (candidate.end - candidate.start < LONG_NAME_WORDS) return false;
  let content = 0;
  for (let i = candidate.start; i < candidate.end; i++) if (!context.words[i]!.facts.stopword) content++;
  if (content < LONG_NAME_CONTENT_WORDS) return false;
  if (context.isPartOfToken(candidate) || context.isCutFromHyphenated(candidate)) return false;
  if (!isNamePhrase(context.words, candidate.start, candidate.end)) return false;
  const item = context.itemClassesAround(candidate);
  if (classRelationOf(match.niceClasses, item).relation !== 'other') return true;
  return !(item.explicit || (item.classes[0]?.weight ?? 0) >= CLEAR_ITEM_CLASS);
}
