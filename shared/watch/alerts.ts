/** An alert: a watched title whose screening result changed when a data batch landed. */
import { createHash } from 'node:crypto';
import type { Risk } from '../screening/screen-titles';

export interface WatchAlert {
  accountId: string;
  /** Time-ordered and derived from (batch, item): the same change is recorded once (alertIdOf). */
  alertId: string;
  itemId: string;
  title: string;
  oldRisk: Risk;
  newRisk: Risk;
  oldTopConflict: string;
  /** The conflicting mark now ("" when none is left). */
  topConflict: string;
  troHit: boolean;
  /** The TRO case behind tro_hit, when the TRO list names one. */
  troCase?: string;
  batchId: string;
  market: string;
  dataAsOf: string;
  createdAt: string;
  acknowledged: boolean;
  /**
   * The outbox mark: set (to the id of the re-screen run that recorded it) when the alert is recorded for an account
   * with a webhook, cleared once the alert is handed over to the webhook's delivery (shared/watch/rescreen.ts). A run
   * of the same batch that finds it still set hands the alert over then. Never set for an account without a webhook.
   */
  pendingHandOver?: string;
  /** When the mark was cleared. */
  handedOverAt?: string;
}

/**
 * `al_` + the batch's data date (YYYYMMDD) + a 20-hex hash of (batch id, item id): alerts of an account sort by the
 * data that raised them, and one batch raises at most one alert per item however often its event is delivered.
 */
export function alertIdOf(batch: { batchId: string; dataAsOf: string }, itemId: string): string {
  const hash = createHash('sha256').update(batch.batchId).update('\u0000').update(itemId).digest('hex').slice(0, 20);
  return `al_${batch.dataAsOf.replace(/-/g, '')}_${hash}`;
}

/** An alert as the API shows it (GET /v1/alerts, and the alerts of a webhook event). */
export function alertView(alert: WatchAlert): Record<string, unknown> {
  return {
    id: alert.alertId,
    item_id: alert.itemId,
    title: alert.title,
    old_risk: alert.oldRisk,
    new_risk: alert.newRisk,
    old_top_conflict: alert.oldTopConflict,
    top_conflict: alert.topConflict,
    tro_hit: alert.troHit,
    ...(alert.troCase ? { tro_case: alert.troCase } : {}),
    market: alert.market,
    data_as_of: alert.dataAsOf,
    created_at: alert.createdAt,
    acknowledged: alert.acknowledged,
  };
}
