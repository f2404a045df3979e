/** PUT /v1/watch: listing titles (up to 10,000) and logos by image reference (up to 1,000) to watch. */
import * as z from 'zod';
import { InvalidRequestError, TooManyItemsError } from '../../shared/errors';
import { niceClassSchema } from '../../shared/schemas/nice-class';
import { MAX_WATCH_ID_CHARS, MAX_WATCH_LOGOS_PER_CALL, MAX_WATCH_TITLES_PER_CALL } from '../../shared/watch/watch';
import { MAX_TITLE_CHARS } from '../batch-screen/schema';

export const watchIdSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  .min(1, 'must not be empty')
  .max(MAX_WATCH_ID_CHARS, `must be at most ${MAX_WATCH_ID_CHARS} characters`)
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
  .describe("The seller's own id for the item (e.g. a SKU): adding an id again replaces its item.");

const titleSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  .refine((t) => t.trim().length > 0, 'must not be empty')
  .refine((t) => [...t].length <= MAX_TITLE_CHARS, `must be at most ${MAX_TITLE_CHARS} characters`);

const imageUrlSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  .max(2048, 'must be at most 2048 characters')
  .refine((u) => /^https?:\/\//i.test(u) && URL.canParse(u), 'must be an http or https URL');

export const putWatchRequestSchema = z
  .object({
    items: z
      .array(z.object({ id: watchIdSchema, title: titleSchema, nice: niceClassSchema.optional() }), {
        error: 'must be an array of {"id": "...", "title": "..."} objects',
      })
      .default([]),
    logos: z
      .array(z.object({ id: watchIdSchema, image_url: imageUrlSchema }), {
        error: 'must be an array of {"id": "...", "image_url": "..."} objects',
      })
      .default([])
      .describe('Logos by image reference: stored and listed; not yet re-screened when data changes.'),
  })
  .refine((r) => r.items.length + r.logos.length > 0, {
    message: 'must hold at least one item or logo',
    path: ['items'],
  })
  .refine((r) => new Set([...r.items, ...r.logos].map((i) => i.id)).size === r.items.length + r.logos.length, {
    message: 'ids must be distinct within one call',
    path: ['items'],
  });

export type PutWatchRequest = z.infer<typeof putWatchRequestSchema>;

/** 413 before any per-item validation, as for batch-screen. */
export function precheckPutWatch(raw: Record<string, unknown>): void {
  for (const [field, max] of [
    ['items', MAX_WATCH_TITLES_PER_CALL],
    ['logos', MAX_WATCH_LOGOS_PER_CALL],
  ] as const) {
    const list = raw[field];
    if (Array.isArray(list) && list.length > max) throw new TooManyItemsError(max, list.length);
    if (list !== undefined && !Array.isArray(list))
      throw new InvalidRequestError([{ field, message: 'must be an array of objects' }]);
  }
}
