/**
 * Hands the alerts a re-screen recorded for an account to the account's webhook, if it has one: as events of at most
 * MAX_ALERTS_PER_EVENT alerts (./webhook.ts), each dispatched for delivery away from the re-screen. An alert is
 * recorded once (shared/watch/alerts.ts), and only the run that recorded it hands it over: one batch never sends
 * an alert twice.
 */
import type { BatchCompleted, WebhookDispatch, WebhookStore } from '../ports';
import type { WatchAlert } from '../watch/alerts';
import { alertEventsOf } from './webhook';

export type AlertsRecorded = (accountId: string, batch: BatchCompleted, alerts: readonly WatchAlert[]) => Promise<void>;

export function alertWebhooks(deps: {
  webhooks: Pick<WebhookStore, 'get'>;
  dispatch: WebhookDispatch;
  now?: () => Date;
}): AlertsRecorded {
  const now = deps.now ?? (() => new Date());
  return async (accountId, batch, alerts) => {
    if (!alerts.length) return;
    if (!(await deps.webhooks.get(accountId))) return;
    for (const job of alertEventsOf(accountId, batch, alerts, now())) await deps.dispatch.dispatch(job);
  };
}
