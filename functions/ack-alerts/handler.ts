/** POST /v1/alerts/ack: marks alerts acknowledged, by id (up to 1,000 a call). Free, every tier. */
import * as z from 'zod';
import { dependencies } from '../../shared/composition/metering';
import { watchStore } from '../../shared/composition/watch';
import { buildApiHandler, lazyHandler } from '../../shared/http/api-handler';
import type { Operation } from '../../shared/http/types';
import type { WatchStore } from '../../shared/ports';

export const ackAlertsRequestSchema = z.object({
  ids: z
    .array(z.string({ error: 'must be a string' }).min(1).max(200), {
      error: (issue) => (issue.input === undefined ? 'is required' : 'must be an array of alert ids'),
    })
    .min(1, 'must hold at least one id')
    .max(1000, 'must hold at most 1000 ids')
    .describe('Ids of alerts (GET /v1/alerts) to mark acknowledged; acknowledging one again changes nothing.'),
});

export type AckAlertsRequest = z.infer<typeof ackAlertsRequestSchema>;

export interface AckAlertsResponse {
  acknowledged: string[];
  not_found: string[];
}

export function ackAlertsOperation(
  store: WatchStore,
  now: () => Date = () => new Date(),
): Operation<AckAlertsRequest, AckAlertsResponse> {
  return {
    name: 'ack-alerts',
    method: 'POST',
    minTier: 'free',
    schema: ackAlertsRequestSchema,
    run: async (input, context) => {
      const ids = [...new Set(input.ids)];
      const done = await store.acknowledgeAlerts(context.accountId, ids, now().toISOString());
      const found = new Set(done);
      return { acknowledged: done, not_found: ids.filter((id) => !found.has(id)) };
    },
  };
}

export const handler = lazyHandler(() =>
  buildApiHandler(ackAlertsOperation(watchStore(), dependencies().now), dependencies()),
);
