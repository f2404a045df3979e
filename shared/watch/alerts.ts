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
}

/**
 * `al_` + the batch's data date (YYYYMMDD) + a 20-hex hash of (batch id, item id): alerts of an account sort by the
 * data that raised them, and one batch raises at most one alert per item however often its event is delivered.
 */
export function alertIdOf(batch: { batchId: string; dataAsOf: string }, itemId: string): string {
  const hash = createHash('sha256').update(batch.batchId).update('\u0000').update(itemId).digest('hex').slice(0, 20);
  return `al_${batch.dataAsOf.replace(/-/g, '')}_${hash}`;
}
