/** GET /v1/watch: one page of the account's watched items, in id order. */
import * as z from 'zod';

export const MAX_WATCH_PAGE = 1000;

export const getWatchQuerySchema = z.object({
  limit: z
    .number({ error: 'must be a whole number from 1 to 1000' })
    .int('must be a whole number from 1 to 1000')
    .min(1, 'must be at least 1')
    .max(MAX_WATCH_PAGE, `must be at most ${MAX_WATCH_PAGE}`)
    .default(100)
    .describe('Items per page, in id order.'),
  cursor: z.string().min(1).max(1000).optional().describe('next_cursor of the previous page, unchanged.'),
});

export type GetWatchQuery = z.infer<typeof getWatchQuerySchema>;

export const GET_WATCH_QUERY_FIELDS = { limit: 'integer', cursor: 'string' } as const;
