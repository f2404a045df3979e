/**
 * How strong a conflict is, from four things a trademark examiner would weigh, each in [0, 1]:
 *   match     exact 1, transliteration 0.9, a misspelling within the edit budget 0.75 (only where the item
 *             sells the brand's kind of goods, or the brand files TRO suits)
 *   status    registered 1, pending 0.6, unknown 0.4, dead 0.1
 *   class     the item's class 1, a related class 0.6, unknown 0.7, another class 0.3
 *   wording   a coined word 1; a word that is also a dictionary word 0.3, or 0.65 where brands stand (among the
 *             first two words; 0.5 there in lower case; the same for a run of ordinary words that is a mark), and for
 *             such words a related class counts as another class, and an unknown class weighs 0.5 (0.3 when a
 *             word describes the product: "Solid", "Glass", or is a product or ordinary word anywhere but the maker's
 *             place: first, capitalised, before the product's words, "Pilot Ball Pen"); a generic product word 0.15
 *   person    one word of a person's full name ("Victor Hugo"), outside the brand's own class and not a TRO brand:
 *             x 0.3
 * score = match x status x class x wording (x person).
 *   高: a TRO brand with score >= 0.25, or any conflict >= 0.6 that is not nominative use
 *   中: any conflict >= 0.25 (nominative "compatible with X" of a non-TRO brand lands here at most)
 *   低: nothing left
 */
export type MatchKind = 'exact' | 'transliteration' | 'fuzzy';
export type Risk = '高' | '中' | '低';

export const CONFLICT_FLOOR = 0.25;
export const HIGH_SCORE = 0.6;

export const MATCH_WEIGHT: Record<MatchKind, number> = { exact: 1, transliteration: 0.9, fuzzy: 0.75 };
export const STATUS_WEIGHT: Record<'registered' | 'pending' | 'unknown' | 'dead', number> = { registered: 1, pending: 0.6, unknown: 0.4, dead: 0.1 };

/** Classes whose goods travel together (a phone and its software, a bag and clothing ...). */
const RELATED: readonly (readonly string[])[] = [
  ['09', '42'], ['09', '38'], ['09', '28'], ['18', '25'], ['14', '25'], ['14', '18'], ['03', '05'], ['03', '21'], ['03', '08'],
  ['29', '30'], ['30', '32'], ['32', '33'], ['29', '31'], ['25', '28'], ['20', '21'], ['08', '21'], ['11', '21'], ['16', '41'],
  ['24', '25'], ['24', '20'], ['26', '25'], ['10', '05'], ['12', '07'], ['07', '08'], ['35', '42'], ['41', '28'],
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

export interface ItemClasses {
  /** Two-digit classes with weights (the strongest 1); empty when nothing is known. */
  classes: { nice: string; weight: number }[];
  /** Given by the seller rather than inferred from the title. */
  explicit: boolean;
}

export function classRelevance(markClasses: readonly string[], item: ItemClasses): { weight: number; relation: 'same' | 'related' | 'other' | 'unknown' } {
  if (markClasses.length === 0 || item.classes.length === 0) return { weight: 0.7, relation: 'unknown' };
  let best: { weight: number; relation: 'same' | 'related' | 'other' | 'unknown' } = { weight: 0.3, relation: 'other' };
  for (const { nice, weight } of item.classes) {
    const w = item.explicit ? 1 : weight;
    if (markClasses.includes(nice)) {
      const same = 0.6 + 0.4 * w;
      if (same > best.weight) best = { weight: same, relation: 'same' };
    } else if (isRelated(markClasses, nice)) {
      const related = 0.45 + 0.15 * w;
      if (related > best.weight) best = { weight: related, relation: 'related' };
    }
  }
  return best;
}

export function riskOf(conflicts: readonly { score: number; tro: boolean; nominative: boolean }[]): Risk {
  if (conflicts.some((c) => (c.tro && c.score >= CONFLICT_FLOOR) || (c.score >= HIGH_SCORE && !c.nominative))) return '高';
  if (conflicts.some((c) => c.score >= CONFLICT_FLOOR)) return '中';
  return '低';
}
