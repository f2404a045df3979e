/**
 * How the marks filed under one lookup key are laid out in the `mark-keys` table (see dynamodb-mark-store.ts).
 *
 * Sharded keys. A key shared by more marks than one item holds (a short phonetic skeleton of the full register can
 * gather thousands of live marks; an item is capped at 400 KB) is split over its base item and overflow items:
 *
 *   base      { lookupKey: 'US#p:bt', summaries: '<first part>', parts: 3, gen: 7 }
 *   overflow  { lookupKey: 'US#p:bt#7.1', summaries: '<second part>' }, { lookupKey: 'US#p:bt#7.2', ... }
 *
 * Every other key stays one item of `lookupKey` and `summaries`, so screening's single BatchGetItem round remains
 * the common case; only the sharded keys it finds cost a second round. Lookup keys never contain `#` (they are
 * built from letters and digits), so an overflow key cannot be mistaken for a lookup key.
 *
 * A change to a sharded key is written copy-on-write: the new parts go under the next generation's keys
 * (`#8.1` ...), which nothing reads yet; then the base item is put, which switches readers to them in one atomic
 * write; then the previous generation's parts are deleted. Parts are never overwritten while a base refers to
 * them, so a reader sees the key either wholly before or wholly after the change, and a crash at any point leaves
 * the base referring to a complete set of parts. A reader whose second round misses a part (the writer switched
 * and deleted between its two rounds) reads the key again from its base. What a crash can leave behind is only
 * parts nothing refers to, of the generation before or after the base's; the next write of the key (a re-run of the
 * batch writes it again, since its mark records were not written) looks for those and deletes them. A key that
 * shrinks back to one item keeps `gen` until its next change, and one that empties is first left as an empty base
 * with `gen`, deleted once its parts are. The price of this is paid by sharded keys alone: a change to one rewrites
 * all its items and deletes the previous ones, and each write of one first looks for leftovers.
 */
import type { DrawingKind, Market, MarkRecord, StatusCategory } from '../../marks/mark-record';
import { ownerTagOf } from '../../marks/lookup-keys';
import type { KnownAbsent, MarkSummary } from '../../ports';

/** The summaries of a key item are kept under DynamoDB's 400 KB item limit with room for its other attributes. */
export const KEY_ITEM_BUDGET_BYTES = 350_000;
/**
 * Items one key may spread over, its base included. A summary takes about 55 bytes, so an item holds some 6,000
 * marks and a key up to about 100,000 (and a lookup of it reads up to 16 x 350 KB). Past it, dead marks are left out
 * of the key first, then those of unknown status, then pending ones; live registrations never are: a key whose live
 * marks alone need more items is refused with KeyItemTooLargeError.
 */
export const MAX_KEY_ITEM_PARTS = 16;

export interface KeyItemLimits {
  budgetBytes: number;
  maxParts: number;
}

/** Thrown rather than writing a key item DynamoDB would refuse, or leaving out a live mark. */
export class KeyItemTooLargeError extends Error {
  constructor(
    readonly lookupKey: string,
    readonly liveMarks: number,
    limits: KeyItemLimits,
  ) {
    super(
      `lookup key ${lookupKey} holds ${liveMarks} live marks, more than ${limits.maxParts} key items of ${limits.budgetBytes} bytes can hold`,
    );
    this.name = 'KeyItemTooLargeError';
  }
}

/**
 * One mark inside a key item: [mark text, Nice classes, status category, drawing kind, owner tag?]. The owner tag
 * (lookup-keys.ts ownerTagOf) is left out when the record names no owner; items written before it was added have
 * four elements and read the same way.
 */
export type PackedSummary = [string, string[], StatusCategory, DrawingKind, string?];

/**
 * A key item; `marks` is the earlier nested form ({serial: {m, n, s, d}}), read but no longer written.
 * `parts` (2 or more, on a sharded key's base) counts the items holding the key, the base included; `gen` names
 * the generation of its overflow items.
 */
export interface KeyItem {
  lookupKey: string;
  summaries?: string;
  marks?: Record<string, { m: string; n: string[]; s: StatusCategory; d: DrawingKind }>;
  parts?: number;
  gen?: number;
}

export type KeyWrite =
  | { PutRequest: { Item: Record<string, unknown> } }
  | { DeleteRequest: { Key: { lookupKey: string } } };

/** The writes of a slice of keys, in the order that keeps every base item referring to a complete set of parts. */
export interface KeyWritePhases {
  /** Items no base refers to: the next generation's parts, and parts an interrupted write left behind. */
  unreferenced: KeyWrite[];
  bases: KeyWrite[];
  /** Parts of the generation the new bases replaced. */
  retired: KeyWrite[];
  /** Emptied bases of sharded keys, deleted once their parts are gone. */
  emptied: KeyWrite[];
}

export function pack(record: MarkRecord): PackedSummary {
  const owner = record.owner === undefined ? undefined : ownerTagOf(record.owner);
  const packed: PackedSummary = [record.markText, record.niceClasses, record.statusCategory, record.drawingKind];
  if (owner !== undefined) packed.push(owner);
  return packed;
}

/** The marks of a key item by serial, whichever form it was written in. */
function summariesOf(item: KeyItem): Map<string, PackedSummary> {
  if (item.summaries !== undefined)
    return new Map(Object.entries(JSON.parse(item.summaries) as Record<string, PackedSummary>));
  return new Map(Object.entries(item.marks ?? {}).map(([serial, p]) => [serial, [p.m, p.n, p.s, p.d]]));
}

/** The marks of a key held by its base item and overflow items. */
export function summariesOfKey(items: readonly KeyItem[]): Map<string, PackedSummary> {
  const [base, ...parts] = items;
  const summaries = base ? summariesOf(base) : new Map<string, PackedSummary>();
  for (const part of parts) for (const [serial, summary] of summariesOf(part)) summaries.set(serial, summary);
  return summaries;
}

export function unpack(
  serial: string,
  [markText, niceClasses, statusCategory, drawingKind, owner]: PackedSummary,
): MarkSummary {
  const isLive = statusCategory === 'registered';
  return owner === undefined
    ? { serial, markText, niceClasses, isLive, statusCategory, drawingKind }
    : { serial, markText, niceClasses, isLive, statusCategory, drawingKind, owner };
}

export function overflowKey(lookupKey: string, gen: number, part: number): string {
  return `${lookupKey}#${gen}.${part}`;
}

export function isSharded(item: KeyItem): boolean {
  return (item.parts ?? 1) > 1;
}

export function overflowKeysOf(base: KeyItem): string[] {
  return Array.from({ length: (base.parts ?? 1) - 1 }, (_, i) => overflowKey(base.lookupKey, base.gen ?? 0, i + 1));
}

/**
 * What a write does to one key: the serials it loses, and the marks it gains or whose summary changes (in order: a
 * later summary of a serial wins). `absent`: the key had no item when the change began (the market's sealed filter
 * said so), so it is not read.
 */
export interface KeyChange {
  absent: boolean;
  leaving: readonly string[];
  joining: readonly (readonly [string, PackedSummary])[];
}

/** A touched key: its items as read, and its summaries as they are to be stored, one string per item. */
export interface KeyPlan {
  lookupKey: string;
  items: KeyItem[];
  layout: string[];
}

export function addKeyWrites(
  phases: KeyWritePhases,
  { lookupKey, items, layout }: KeyPlan,
  leftovers: readonly string[],
): void {
  const put = (Item: Record<string, unknown>): KeyWrite => ({ PutRequest: { Item } });
  const remove = (key: string): KeyWrite => ({ DeleteRequest: { Key: { lookupKey: key } } });
  const base = items[0];
  const gen = base?.gen ?? 0;
  const oldParts = items.slice(1).map((item) => item.lookupKey);
  const written = new Set<string>();
  const unchanged = layout.length === items.length && layout.every((summaries, i) => summaries === items[i]!.summaries);
  if (!unchanged) {
    if (layout.length > 1) {
      layout.slice(1).forEach((summaries, i) => {
        const key = overflowKey(lookupKey, gen + 1, i + 1);
        written.add(key);
        phases.unreferenced.push(put({ lookupKey: key, summaries }));
      });
      phases.bases.push(put({ lookupKey, summaries: layout[0], parts: layout.length, gen: gen + 1 }));
    } else if (layout.length === 1) {
      // A base that had parts keeps a generation until the next write of the key has seen them gone.
      phases.bases.push(put({ lookupKey, summaries: layout[0], ...(oldParts.length > 0 ? { gen: gen + 1 } : {}) }));
    } else if (oldParts.length > 0) {
      phases.bases.push(put({ lookupKey, summaries: '{}', gen: gen + 1 }));
      phases.emptied.push(remove(lookupKey));
    } else if (base) {
      phases.bases.push(remove(lookupKey));
    }
    phases.retired.push(...oldParts.map(remove));
  }
  phases.unreferenced.push(...leftovers.filter((key) => !written.has(key)).map(remove));
}

/** `<market>#<key>`, absent by the market's sealed key filter. */
export function isKnownAbsentKey(absent: KnownAbsent, lookupKey: string): boolean {
  const hash = lookupKey.indexOf('#');
  return absent.key(lookupKey.slice(0, hash) as Market, lookupKey.slice(hash + 1));
}

export function pushTo<T>(map: Map<string, T[]>, key: string, value: T): void {
  const values = map.get(key);
  if (values) values.push(value);
  else map.set(key, [value]);
}

/**
 * The summaries of a key as the JSON objects of its items, each within `budgetBytes`, in serial order; none when
 * the key has no marks. Past `maxParts` items, dead marks are left out first, then those of unknown status, then
 * pending ones; when the live registrations alone need more, KeyItemTooLargeError.
 */
export function packedParts(
  lookupKey: string,
  summaries: ReadonlyMap<string, PackedSummary>,
  limits: KeyItemLimits = { budgetBytes: KEY_ITEM_BUDGET_BYTES, maxParts: MAX_KEY_ITEM_PARTS },
): string[] {
  const serials = [...summaries.keys()].sort();
  let entries = serials.map((serial) => {
    const summary = summaries.get(serial)!;
    return { status: summary[2], json: `${JSON.stringify(serial)}:${JSON.stringify(summary)}` };
  });
  for (const drop of [undefined, 'dead', 'unknown', 'pending'] as const) {
    if (drop) entries = entries.filter((entry) => entry.status !== drop);
    const parts = splitWithinBudget(
      entries.map((entry) => entry.json),
      limits.budgetBytes,
    );
    if (parts.length <= limits.maxParts) return parts;
  }
  throw new KeyItemTooLargeError(lookupKey, entries.length, limits);
}

function splitWithinBudget(entries: readonly string[], budgetBytes: number): string[] {
  const parts: string[] = [];
  let part: string[] = [];
  let bytes = 2; // the braces
  for (const entry of entries) {
    const size = Buffer.byteLength(entry);
    if (part.length > 0 && bytes + 1 + size > budgetBytes) {
      parts.push(`{${part.join(',')}}`);
      part = [];
      bytes = 2;
    }
    bytes += (part.length > 0 ? 1 : 0) + size;
    part.push(entry);
  }
  if (part.length > 0) parts.push(`{${part.join(',')}}`);
  return parts;
}
