/**
 * An account's own brands (the allowlist): marks it owns or is authorised to sell, which screening must not raise
 * on that account's calls. The judgement keeps a conflict with one of them apart (title-conflicts.ts): it never
 * decides the risk, the TRO hit or the top conflict, and `detail` lists it with `allowlisted: true`. A brand covers
 * a mark when the mark's text, normalised like every mark (case, accents, punctuation and spacing aside), is the
 * brand: "Sound-Core" covers SOUNDCORE; "Apple" does not cover APPLE JACKS.
 */
import { joined, normalizeText } from '../marks/lookup-keys';

export const MAX_ALLOWLIST_BRANDS = 500;
export const MAX_BRAND_CHARS = 100;

/** The key two spellings of one brand share: "Sound-Core", "soundcore" and "SOUNDCORE®" are one brand. */
export function brandKey(text: string): string {
  return joined(normalizeText(text));
}

export function allowlistKeys(brands: readonly string[]): ReadonlySet<string> {
  return new Set(brands.map(brandKey).filter((k) => k !== ''));
}
