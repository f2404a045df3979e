/**
 * An account's own brands (the allowlist): marks it owns or is authorised to sell, which screening must not raise
 * on that account's calls. Applied to finished results, after the judgement, so that the judgement itself never
 * depends on who asks.
 *
 * Input: a result computed with detail (its standing conflicts), and the account's brands.
 * Output: the same result without the allowlisted conflicts: risk, tro_hit, top_conflict and brand_words from
 * what is left; with detail, the allowlisted conflicts are listed after the others with `allowlisted: true`.
 *   1. A conflict is allowlisted when its mark's text, normalised like every mark (case, accents, punctuation and
 *      spacing aside), is one of the brands. Exact: "Apple" does not cover "APPLE JACKS".
 *   2. The risk of what is left is the risk riskOf gives those conflicts, never above the risk first given.
 */
import { joined, normalizeText } from '../marks/lookup-keys';
import { riskOf, type Risk } from './risk';
import type { ConflictDetail, ScreeningResult } from './screen-titles';

export const MAX_ALLOWLIST_BRANDS = 500;
export const MAX_BRAND_CHARS = 100;

export type AllowlistedConflict = ConflictDetail & { allowlisted?: true };

/** The key two spellings of one brand share: "Sound-Core", "soundcore" and "SOUNDCORE®" are one brand. */
export function brandKey(text: string): string {
  return joined(normalizeText(text));
}

export function allowlistKeys(brands: readonly string[]): ReadonlySet<string> {
  return new Set(brands.map(brandKey).filter((k) => k !== ''));
}

const RISK_ORDER: readonly Risk[] = ['低', '中', '高'];

/** The wording the judgement gives a nominative ("compatible with X") conflict; it caps such a conflict at 中. */
const NOMINATIVE_REASON = /nominative use/;

export function applyAllowlist(result: ScreeningResult, allowed: ReadonlySet<string>, keepDetail: boolean): ScreeningResult {
  const conflicts = result.conflicts ?? [];
  const allowlisted = conflicts.filter((c) => allowed.has(brandKey(c.mark)));
  if (allowlisted.length === 0) return keepDetail ? result : summaryOf(result);

  const standing = conflicts.filter((c) => !allowed.has(brandKey(c.mark)));
  const levelOfRemaining = riskOf(standing.map((c) => ({ score: c.score, tro: c.tro, nominative: NOMINATIVE_REASON.test(c.reason) })));
  const risk = RISK_ORDER[Math.min(RISK_ORDER.indexOf(levelOfRemaining), RISK_ORDER.indexOf(result.risk))]!;
  const out: ScreeningResult = {
    name: result.name,
    risk,
    tro_hit: result.tro_hit && standing.some((c) => c.tro),
    top_conflict: risk === '低' ? '' : (standing[0]?.mark ?? ''),
  };
  if (!keepDetail) return out;
  out.brand_words = [...new Set(standing.flatMap((c) => c.words))];
  out.conflicts = [...standing, ...allowlisted.map((c): AllowlistedConflict => ({ ...c, allowlisted: true }))];
  return out;
}

function summaryOf(result: ScreeningResult): ScreeningResult {
  return { name: result.name, risk: result.risk, tro_hit: result.tro_hit, top_conflict: result.top_conflict };
}
