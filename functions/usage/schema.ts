/** GET /v1/usage: the query string (every field optional; the range defaults to the last 30 days). */
import * as z from 'zod';

export const MAX_USAGE_PAGE = 1000;
export const DEFAULT_USAGE_PAGE = 100;

const instant = z
  .string()
  .max(40)
  .regex(
    /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/,
    'must be a date (YYYY-MM-DD) or an ISO 8601 instant such as 2026-11-24T08:00:00Z',
  );

export const usageQuerySchema = z.object({
  /** Start of the range, included: a date (UTC midnight) or an instant. Default: 30 days before `to`. */
  from: instant
    .optional()
    .describe(
      'Start of the range, included: a date (YYYY-MM-DD, UTC) or an ISO 8601 instant. Default: 30 days before `to`.',
    ),
  to: instant
    .optional()
    .describe(
      'End of the range: a date (YYYY-MM-DD, that whole UTC day included) or an ISO 8601 instant (excluded). Default: now. At most 93 days after `from`.',
    ),
  limit: z
    .number({ error: 'must be a whole number from 1 to 1000' })
    .int('must be a whole number from 1 to 1000')
    .min(1, 'must be at least 1')
    .max(MAX_USAGE_PAGE, `must be at most ${MAX_USAGE_PAGE}`)
    .default(DEFAULT_USAGE_PAGE)
    .describe('Records per page, newest first.'),
  cursor: z.string().min(1).max(1000).optional().describe('next_cursor of the previous page, unchanged.'),
  scope: z
    .enum(['account', 'key'])
    .default('account')
    .describe('account: every key of the account; key: only the key making this call.'),
});

export type UsageQueryInput = z.infer<typeof usageQuerySchema>;

export const USAGE_QUERY_FIELDS = {
  from: 'string',
  to: 'string',
  limit: 'integer',
  cursor: 'string',
  scope: 'string',
} as const;
