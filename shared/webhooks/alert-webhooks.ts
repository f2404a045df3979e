/**
 * Hands the alerts a re-screen recorded for an account to the account's webhook, if it has one: as events of at most
 * MAX_ALERTS_PER_EVENT alerts (./webhook.ts), each dispatched for delivery away from the re-screen.
 * Input: the account, the batch, its alerts still marked for hand-over, and `handedOver` (clears their marks).
 * Output: nothing; throws at the first event it could not dispatch (that event and the rest keep their marks).
 *   1. No webhook any more (removed since the alerts were recorded): nothing to hand them to; their marks are
 *      cleared (they stay on GET /v1/alerts).
 *   2. Each event in alert-id order: dispatched, then its alerts' marks cleared at once.
 * At least once: a run that stops between a dispatch and the clearing of its marks leaves the event's alerts marked,
 * and the next run of the batch hands them over again as the same event (its id comes from account, batch and alert
 * ids), which the deliverer drops as a duplicate (./deliver-event.ts).
 */
import type { BatchCompleted, WebhookDispatch, WebhookStore } from '../ports';
import type { WatchAlert } from '../watch/alerts';
import { alertEventsWithAlertsOf, MAX_ALERTS_PER_EVENT } from './webhook';

/** Told the alerts of one event once it is dispatched (the re-screen clears their hand-over marks). */
export type HandedOver = (alerts: readonly WatchAlert[]) => Promise<void>;

/** Where a re-screen hands its alerts (shared/watch/rescreen.ts). */
export interface AlertHandOver {
  /** Whether the account's alerts are to be handed over at all: it has a webhook now. */
  wanted(accountId: string): Promise<boolean>;
  handOver(
    accountId: string,
    batch: BatchCompleted,
    alerts: readonly WatchAlert[],
    handedOver: HandedOver,
  ): Promise<void>;
}

export function alertWebhooks(deps: {
  webhooks: Pick<WebhookStore, 'get'>;
  dispatch: WebhookDispatch;
  now?: () => Date;
}): AlertHandOver {
  const now = deps.now ?? (() => new Date());
  return {
    wanted: async (accountId) => (await deps.webhooks.get(accountId)) !== undefined,
    handOver: async (accountId, batch, alerts, handedOver) => {
      if (!alerts.length) return;
      if (!(await deps.webhooks.get(accountId))) {
        for (let start = 0; start < alerts.length; start += MAX_ALERTS_PER_EVENT)
          await handedOver(alerts.slice(start, start + MAX_ALERTS_PER_EVENT));
        return;
      }
      for (const event of alertEventsWithAlertsOf(accountId, batch, alerts, now())) {
        await deps.dispatch.dispatch(event.job);
        await handedOver(event.alerts);
      }
    },
  };
}
