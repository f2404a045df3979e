/** GET /v1/alerts: the account's alerts (watched titles whose result changed with new data), a page at a time. Free. */
import * as z from 'zod';
import { dependencies } from '../../shared/composition/metering';
import { watchStore } from '../../shared/composition/watch';
import { InvalidRequestError } from '../../shared/errors';
import { buildApiHandler, lazyHandler } from '../../shared/http/api-handler';
import type { Operation } from '../../shared/http/types';
import type { WatchStore } from '../../shared/ports';
import { alertView } from '../../shared/watch/alerts';

export const getAlertsQuerySchema = z.object({
  limit: z
    .number({ error: 'must be a whole number from 1 to 1000' })
    .int('must be a whole number from 1 to 1000')
    .min(1, 'must be at least 1')
    .max(1000, 'must be at most 1000')
    .default(100)
    .describe('Alerts per page, oldest data first.'),
  cursor: z.string().min(1).max(1000).optional().describe('next_cursor of the previous page, unchanged.'),
  since: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)')
    .optional()
    .describe('Only alerts raised by data of this date (YYYY-MM-DD) or later.'),
  acknowledged: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .optional()
    .describe('true: only acknowledged alerts; false: only those not yet acknowledged; absent: both.'),
});

export type GetAlertsQuery = z.infer<typeof getAlertsQuerySchema>;

export interface AlertsPage {
  alerts: Record<string, unknown>[];
  count: number;
  next_cursor: string | null;
}

const encodeCursor = (alertId: string) => Buffer.from(JSON.stringify(['a', alertId])).toString('base64url');

function decodeCursor(cursor: string): string {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed[0] === 'a' && typeof parsed[1] === 'string') return parsed[1];
  } catch {}
  throw new InvalidRequestError([{ field: 'cursor', message: 'must be a next_cursor this route returned' }]);
}

export function getAlertsOperation(store: WatchStore): Operation<GetAlertsQuery, AlertsPage> {
  return {
    name: 'get-alerts',
    method: 'GET',
    minTier: 'free',
    schema: getAlertsQuerySchema,
    queryFields: { limit: 'integer', cursor: 'string', since: 'string', acknowledged: 'string' },
    run: async (input, context) => {
      const after = input.cursor ? decodeCursor(input.cursor) : undefined;
      const page = await store.pageAlerts(context.accountId, {
        limit: input.limit,
        ...(after ? { after } : {}),
        ...(input.since ? { since: input.since } : {}),
        ...(input.acknowledged ? { acknowledged: input.acknowledged === 'true' } : {}),
      });
      return {
        alerts: page.alerts.map(alertView),
        count: page.alerts.length,
        next_cursor: page.last ? encodeCursor(page.last) : null,
      };
    },
  };
}

export const handler = lazyHandler(() => buildApiHandler(getAlertsOperation(watchStore()), dependencies()));
