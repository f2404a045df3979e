/**
 * Re-screens watched titles when a data batch completes, and records an alert for each title whose result changed.
 * Input: the completed batch (market, kind, batch id, data date); the stores; a cap of titles per account and a
 * time budget for the whole run.
 * Output: what was re-screened, what changed, the alerts recorded, and whether every account was reached.
 *   1. For each account that watches something: its titles, a page at a time in item-id order.
 *   2. Screen each page (with the account's allowlist); for each title whose risk, conflicting mark or TRO flag
 *      differs from the kept result, put an alert whose id is derived from (batch id, item id) under a condition
 *      (a redelivered batch records nothing twice), then keep the new result.
 *   3. Stop an account at the cap, and the run at the time budget (`complete: false`). A later run of the same batch
 *      starts again from the first title: what was already re-screened shows no change and records nothing.
 *   4. Hand the alerts this run recorded for the account to `alertsRecorded` (its webhook: shared/webhooks), which
 *      only dispatches; its failure is reported to `onAlertsRecordedError` and never fails or stops the re-screen.
 * Re-screens are free: a watched title is charged once, when it is added (shared/metering/price-list.ts).
 */
import type { AllowlistStore, BatchCompleted, WatchStore } from '../ports';
import type { AlertsRecorded } from '../webhooks/alert-webhooks';
import type { ScreeningService } from '../screening/screening-service';
import { mapWithConcurrency } from '../async/concurrency';
import { alertIdOf, type WatchAlert } from './alerts';
import { resultChanged, type WatchItem, watchResultOf } from './watch';

const UPDATES_IN_FLIGHT = 32;

export interface RescreenOptions {
  /** Titles re-screened per account in one run. */
  maxTitlesPerAccount: number;
  /** The run stops starting pages after this many milliseconds. */
  timeBudgetMs: number;
  pageSize?: number;
  now?: () => Date;
  /** The TRO case behind a conflicting mark, when the TRO list names one (any batch: a mark can become a TRO brand). */
  troCaseOf?: (brand: string) => Promise<string | undefined>;
  /** Told the alerts this run recorded, an account at a time (the webhook hand-over). */
  alertsRecorded?: AlertsRecorded;
  onAlertsRecordedError?: (error: unknown, accountId: string) => void;
}

export interface RescreenOutcome {
  accounts: number;
  rescreened: number;
  changed: number;
  alertsRecorded: number;
  /** False when the cap or the time budget left titles not re-screened. */
  complete: boolean;
}

export async function rescreenWatched(
  deps: { store: WatchStore; screening: ScreeningService; allowlists?: AllowlistStore },
  batch: BatchCompleted,
  options: RescreenOptions,
): Promise<RescreenOutcome> {
  const now = options.now ?? (() => new Date());
  const started = Date.now();
  const pageSize = options.pageSize ?? 1000;
  const outcome: RescreenOutcome = { accounts: 0, rescreened: 0, changed: 0, alertsRecorded: 0, complete: true };
  const outOfTime = () => Date.now() - started >= options.timeBudgetMs;

  for await (const accountId of deps.store.accountsWatching()) {
    if (outOfTime()) {
      outcome.complete = false;
      break;
    }
    outcome.accounts += 1;
    const allowlist = (await deps.allowlists?.get(accountId))?.brands;
    const recordedHere: WatchAlert[] = [];
    let after: string | undefined;
    let done = 0;
    for (;;) {
      if (done >= options.maxTitlesPerAccount || outOfTime()) {
        outcome.complete = false;
        break;
      }
      const page = await deps.store.listItems(accountId, {
        limit: Math.min(pageSize, options.maxTitlesPerAccount - done),
        ...(after ? { after } : {}),
      });
      const titles = page.items.filter((i): i is WatchItem & { title: string } => i.kind === 'title' && !!i.title);
      if (titles.length) {
        const screened = await deps.screening.screen(
          titles.map((t) => ({ title: t.title, ...(t.nice !== undefined ? { nice: t.nice } : {}) })),
          allowlist?.length ? { allowlist } : {},
        );
        const at = now().toISOString();
        await mapWithConcurrency(
          titles.map((item, i) => [item, i] as const),
          UPDATES_IN_FLIGHT,
          async ([item, i]) => {
            const result = screened.results[i]!;
            const next = watchResultOf(result, screened.dataAsOf);
            if (resultChanged(item.result, next)) {
              outcome.changed += 1;
              const troCase = next.troHit && options.troCaseOf ? await options.troCaseOf(next.topConflict) : undefined;
              const alert: WatchAlert = {
                accountId,
                alertId: alertIdOf(batch, item.itemId),
                itemId: item.itemId,
                title: item.title,
                oldRisk: item.result!.risk,
                newRisk: next.risk,
                oldTopConflict: item.result!.topConflict,
                topConflict: next.topConflict,
                troHit: next.troHit,
                ...(troCase ? { troCase } : {}),
                batchId: batch.batchId,
                market: batch.market,
                dataAsOf: batch.dataAsOf,
                createdAt: at,
                acknowledged: false,
              };
              if (await deps.store.addAlert(alert)) {
                outcome.alertsRecorded += 1;
                recordedHere.push(alert);
              }
            }
            // The kept result moves on even when unchanged: its data date says how fresh it is.
            await deps.store.updateResult(accountId, item.itemId, next, at);
          },
        );
      }
      done += page.items.length;
      outcome.rescreened += titles.length;
      if (!page.last) break;
      after = page.last;
    }
    if (recordedHere.length && options.alertsRecorded) {
      try {
        await options.alertsRecorded(accountId, batch, recordedHere);
      } catch (error) {
        options.onAlertsRecordedError?.(error, accountId);
      }
    }
  }
  return outcome;
}
