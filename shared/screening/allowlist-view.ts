/** What GET and PUT /v1/allowlist answer. */
import type { Allowlist } from '../ports';
import { MAX_ALLOWLIST_BRANDS } from './allowlist';

export interface AllowlistView {
  brands: string[];
  count: number;
  max_brands: number;
  updated_at: string | null;
}

export function allowlistView(list: Allowlist | undefined): AllowlistView {
  const brands = list?.brands ?? [];
  return { brands, count: brands.length, max_brands: MAX_ALLOWLIST_BRANDS, updated_at: list?.updatedAt ?? null };
}
