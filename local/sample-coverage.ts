/**
 * Which well-known brands the local sample corpus lacks. The sample holds a few thousand US marks, not the register,
 * so a title naming a brand it lacks answers 低 because the brand is absent, not because the title is safe. `npm
 * start` says so with figures: how many of the established brands in data/lexicon/amazon-brand-list/brands.txt the
 * sample holds (the sample was drawn around that list), and which names of data/sample/well-known-names.txt
 * (characters, franchises, toys the public knows) neither a live mark of the store (by its exact lookup key) nor the
 * TRO list names.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { joined, normalizeText } from '../shared/marks/lookup-keys';
import type { MarkStore, TroStore } from '../shared/ports';

export const BRAND_LIST = path.join(__dirname, '../data/lexicon/amazon-brand-list/brands.txt');
export const WELL_KNOWN_NAMES = path.join(__dirname, '../data/sample/well-known-names.txt');

/** Keys per lookup: the store batches them itself; this only bounds one call's memory. */
const CHUNK = 500;

export interface SampleCoverage {
  /** Brands of the list (distinct exact keys). */
  listed: number;
  /** The list's brands no mark and no TRO brand names, in list order. */
  absent: string[];
}

export async function sampleCoverage(
  stores: { marks: Pick<MarkStore, 'lookup'>; tro: Pick<TroStore, 'all'> },
  listFile = BRAND_LIST,
): Promise<SampleCoverage> {
  const byKey = new Map<string, string>();
  for (const line of readFileSync(listFile, 'utf8').split('\n')) {
    const brand = line.trim();
    const key = brand ? joined(normalizeText(brand)) : '';
    if (key && !byKey.has(key)) byKey.set(key, brand);
  }
  const present = new Set<string>();
  for (const tro of await stores.tro.all()) present.add(joined(normalizeText(tro.brand)));
  const keys = [...byKey.keys()];
  for (let at = 0; at < keys.length; at += CHUNK) {
    const found = await stores.marks.lookup(
      'US',
      keys.slice(at, at + CHUNK).map((key) => `e:${key}`),
    );
    for (const [lookupKey, marks] of found) if (marks.some((m) => m.isLive)) present.add(lookupKey.slice(2));
  }
  return { listed: byKey.size, absent: keys.filter((key) => !present.has(key)).map((key) => byKey.get(key)!) };
}
