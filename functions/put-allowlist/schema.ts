/** PUT /v1/allowlist: the account's whole list of own brands (replaces the list; [] clears it). */
import * as z from 'zod';
import { InvalidRequestError, TooManyItemsError } from '../../shared/errors';
import { brandKey, MAX_ALLOWLIST_BRANDS, MAX_BRAND_CHARS } from '../../shared/screening/allowlist';

const brandSchema = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, 'must not be empty')
  .max(MAX_BRAND_CHARS, `must be at most ${MAX_BRAND_CHARS} characters`)
  .refine((b) => brandKey(b) !== '', 'must contain a letter or a digit');

export const putAllowlistRequestSchema = z.object({
  brands: z
    .array(brandSchema, {
      error: (issue) => (issue.input === undefined ? 'is required' : 'must be an array of brand names'),
    })
    .max(MAX_ALLOWLIST_BRANDS, `must hold at most ${MAX_ALLOWLIST_BRANDS} brands`)
    .describe(
      'Brands the account owns or is authorised to sell, as registered (e.g. "Anker"). Matched on the whole mark, case, accents, spaces and punctuation aside.',
    ),
});

export type PutAllowlistRequest = z.infer<typeof putAllowlistRequestSchema>;

/** 413 before per-entry validation, as for batch-screen items; a non-array is named plainly. */
export function precheckPutAllowlist(raw: Record<string, unknown>): void {
  const brands = raw.brands;
  if (Array.isArray(brands) && brands.length > MAX_ALLOWLIST_BRANDS)
    throw new TooManyItemsError(MAX_ALLOWLIST_BRANDS, brands.length, { en: 'brands', zh: '个品牌' });
  if (brands !== undefined && !Array.isArray(brands))
    throw new InvalidRequestError([{ field: 'brands', message: 'must be an array of brand names' }]);
}

/** One spelling per brand (the first given), in the order given. */
export function distinctBrands(brands: readonly string[]): string[] {
  const seen = new Set<string>();
  return brands.filter((b) => {
    const key = brandKey(b);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
