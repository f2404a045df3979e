/** POST /v1/image-search: the request (SPEC 4.2): exactly one image source, country US or CN, limit 1 to 50. */
import * as z from 'zod';
import { CountryNotSupportedError } from '../../shared/errors';
import { ImageSourceConflictError, ImageSourceMissingError } from '../../shared/imaging/image-errors';
import { niceClassSchema } from '../../shared/schemas/nice-class';

export const COUNTRIES = ['US', 'CN'] as const;
export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 50;
/** Far beyond any real image address; a longer one is refused before the charge rather than sent to DNS. */
export const MAX_URL_CHARS = 8192;

export const imageSearchRequestSchema = z.object({
  image_b64: z.string().min(1, 'must not be empty').optional(),
  url: z
    .string()
    .min(1, 'must not be empty')
    .max(MAX_URL_CHARS, `must be at most ${MAX_URL_CHARS} characters`)
    .optional(),
  country: z.enum(COUNTRIES).default('US'),
  nice: niceClassSchema.optional(),
  limit: z
    .number({ error: 'must be a whole number from 1 to 50' })
    .int('must be a whole number from 1 to 50')
    .min(1, 'must be at least 1')
    .max(MAX_LIMIT, `must be at most ${MAX_LIMIT}`)
    .default(DEFAULT_LIMIT),
  /** Adds to each result where in the picture its mark was found (`region`). */
  detail: z.boolean().default(false),
});

export type ImageSearchRequest = z.infer<typeof imageSearchRequestSchema>;

/** Checks with codes of their own. `country` is case-sensitive, as the spec lists it: "us" is refused too. */
export function precheckImageSearch(raw: Record<string, unknown>): void {
  if (raw.country !== undefined && !(COUNTRIES as readonly unknown[]).includes(raw.country)) {
    throw new CountryNotSupportedError(raw.country);
  }
  const hasImage = raw.image_b64 !== undefined && raw.image_b64 !== null;
  const hasUrl = raw.url !== undefined && raw.url !== null;
  if (hasImage && hasUrl) throw new ImageSourceConflictError();
  if (!hasImage && !hasUrl) throw new ImageSourceMissingError();
}

export const IMAGE_SEARCH_QUERY_FIELDS = {
  country: 'string',
  nice: 'string',
  limit: 'integer',
  url: 'string',
} as const;
