/** POST /v1/batch-screen: the request (SPEC 4.1) and its limits (1 to 1,000 items, titles up to 500 characters). */
import * as z from 'zod';
import { InvalidRequestError, TooManyItemsError } from '../../shared/errors';
import { niceClassSchema } from '../../shared/schemas/nice-class';

export const MAX_ITEMS = 1000;
export const MAX_TITLE_CHARS = 500;

const titleSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  .refine((t) => t.trim().length > 0, 'must not be empty')
  .refine((t) => [...t].length <= MAX_TITLE_CHARS, `must be at most ${MAX_TITLE_CHARS} characters`);

export const batchScreenRequestSchema = z.object({
  items: z
    .array(
      z.object({ title: titleSchema, nice: niceClassSchema.optional() }, { error: 'must be an object with a title' }),
      {
        error: (issue) => (issue.input === undefined ? 'is required' : 'must be an array of {"title": "..."} objects'),
      },
    )
    .min(1, 'must hold at least one item'),
  /** Adds brand_words and conflicts to each result. */
  detail: z.boolean().default(false),
});

export type BatchScreenRequest = z.infer<typeof batchScreenRequestSchema>;

/** 413 before any per-item validation, so that an oversized batch is told to split rather than listed item by item. */
export function precheckBatchScreen(raw: Record<string, unknown>): void {
  const items = raw.items;
  if (Array.isArray(items) && items.length > MAX_ITEMS) throw new TooManyItemsError(MAX_ITEMS, items.length);
  if (items !== undefined && !Array.isArray(items)) {
    throw new InvalidRequestError([{ field: 'items', message: 'must be an array of {"title": "..."} objects' }]);
  }
}
