/**
 * How a mark's Nice classes stand to the item's: the item's own class (`same`), a class whose goods travel with it
 * (`related`: a phone and its software, a bag and clothing), another class, or `unknown` when the mark has no class
 * on record or nothing says what the item is. A fact for the brand-use model, not a weight.
 */
export type ClassRelation = 'same' | 'related' | 'other' | 'unknown';

export interface ItemClasses {
  /** Two-digit classes with weights (the strongest 1); empty when nothing is known. */
  classes: readonly { nice: string; weight: number }[];
  /** Given by the seller rather than inferred from the title. */
  explicit: boolean;
}

/** Classes whose goods travel together. */
const RELATED: readonly (readonly string[])[] = [
  ['09', '42'],
  ['09', '38'],
  ['09', '28'],
  ['18', '25'],
  ['14', '25'],
  ['14', '18'],
  ['03', '05'],
  ['03', '21'],
  ['03', '08'],
  ['29', '30'],
  ['30', '32'],
  ['32', '33'],
  ['29', '31'],
  ['25', '28'],
  ['20', '21'],
  ['08', '21'],
  ['11', '21'],
  ['16', '41'],
  ['24', '25'],
  ['24', '20'],
  ['26', '25'],
  ['10', '05'],
  ['12', '07'],
  ['07', '08'],
  ['35', '42'],
  ['41', '28'],
];
const RELATED_TO: ReadonlyMap<string, ReadonlySet<string>> = (() => {
  const map = new Map<string, Set<string>>();
  for (const [a, b] of RELATED) {
    map.set(a!, (map.get(a!) ?? new Set()).add(b!));
    map.set(b!, (map.get(b!) ?? new Set()).add(a!));
  }
  return map;
})();

function isRelated(markClasses: readonly string[], nice: string): boolean {
  const related = RELATED_TO.get(nice);
  if (!related) return false;
  for (const m of markClasses) if (related.has(m)) return true;
  return false;
}

/**
 * An inferred item class weaker than this is a side reading of one word ("cotton" in a T-shirt title also votes for
 * cotton wool, class 5), not what the item is: it relates no mark to the item.
 */
const LEAST_ITEM_CLASS_WEIGHT = 0.2;

/** How much a class of the item counts: 1 when the seller gave it, its weight when inferred, 0 for a side reading. */
function readingWeight(item: ItemClasses, weight: number): number {
  if (item.explicit) return 1;
  return weight < LEAST_ITEM_CLASS_WEIGHT ? 0 : weight;
}

/** The classes the item is read as: the seller's, else those inferred at LEAST_ITEM_CLASS_WEIGHT or more. */
export function readingClassesOf(item: ItemClasses): string[] {
  return item.classes.filter(({ weight }) => readingWeight(item, weight) > 0).map(({ nice }) => nice);
}

/**
 * A class as a bit of a two-word mask (classes 1-30 in the low word, 31-45 in the high one), so that a mark's
 * classes are compared with the item's without a string search: this runs for every match of every title.
 */
function classNumber(nice: string): number {
  if (nice.length !== 2) return -1;
  const tens = nice.charCodeAt(0) - 48;
  const units = nice.charCodeAt(1) - 48;
  if (tens < 0 || tens > 9 || units < 0 || units > 9) return -1;
  const n = tens * 10 + units;
  return n >= 1 && n <= 45 ? n : -1;
}

const lowBit = (n: number) => (n >= 1 && n <= 30 ? 1 << n : 0);
const highBit = (n: number) => (n > 30 ? 1 << (n - 30) : 0);

/** By class number: the bits of the classes whose goods travel with it (RELATED). */
const RELATED_LOW = new Int32Array(46);
const RELATED_HIGH = new Int32Array(46);
for (const [a, b] of RELATED) {
  for (const [from, to] of [
    [a!, b!],
    [b!, a!],
  ]) {
    const f = classNumber(from!);
    const t = classNumber(to!);
    RELATED_LOW[f] = RELATED_LOW[f]! | lowBit(t);
    RELATED_HIGH[f] = RELATED_HIGH[f]! | highBit(t);
  }
}

const UNKNOWN: { relation: ClassRelation; strength: number } = Object.freeze({ relation: 'unknown', strength: 0 });
const OTHER: { relation: ClassRelation; strength: number } = Object.freeze({ relation: 'other', strength: 0 });

/** The closest relation, and how strongly the item points at the class that gives it (1 when the seller said). */
export function classRelationOf(
  markClasses: readonly string[],
  item: ItemClasses,
): { relation: ClassRelation; strength: number } {
  if (markClasses.length === 0 || item.classes.length === 0) return UNKNOWN;
  let low = 0;
  let high = 0;
  let unusual = false;
  for (let i = 0; i < markClasses.length; i++) {
    const n = classNumber(markClasses[i]!);
    if (n < 0) unusual = true;
    low |= lowBit(n);
    high |= highBit(n);
  }
  let related = 0;
  let same = 0;
  for (const { nice, weight } of item.classes) {
    const w = readingWeight(item, weight);
    if (w === 0) continue;
    const n = classNumber(nice);
    if (n < 0 || unusual) {
      // A class written otherwise than as two digits: compared as written.
      if (markClasses.includes(nice)) same = Math.max(same, w);
      else if (isRelated(markClasses, nice)) related = Math.max(related, w);
    } else if ((low & lowBit(n)) !== 0 || (high & highBit(n)) !== 0) same = Math.max(same, w);
    else if ((low & RELATED_LOW[n]!) !== 0 || (high & RELATED_HIGH[n]!) !== 0) related = Math.max(related, w);
  }
  if (same > 0) return { relation: 'same', strength: same };
  if (related > 0) return { relation: 'related', strength: related };
  return OTHER;
}
