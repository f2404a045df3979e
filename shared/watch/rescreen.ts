/**
 * Re-screens watched titles when a data batch completes, and records an alert for each title whose result changed.
 * Input: the completed batch (market, kind, batch id, data date); the stores; a cap of titles per account and a
 * time budget for the whole run.
 * Output: what was re-screened, what changed, the alerts recorded and handed over, and whether every account was
 * reached.
 *   1. For each account that watches something: whether its alerts are handed over (`handOver.wanted`: it has a
 *      webhook), then its titles, a page at a time in item-id order.
 *   2. Screen each page (with the account's allowlist); for each title whose risk, conflicting mark or TRO flag
 *      differs from the kept result, put an alert whose id is derived from (batch id, item id) under a condition
 *      (a redelivered batch records nothing twice), then keep the new result. An alert to be handed over is recorded
 *      with the outbox mark `pendingHandOver` (this run's id).
 *   3. Stop an account at the cap, and the run at the time budget (`complete: false`). A later run of the same batch
 *      starts again from the first title: what was already re-screened shows no change and records nothing.
 *   4. Hand over the account's alerts of this batch that still carry the mark: this run's, and any an earlier run of
 *      the batch recorded but did not hand over (it crashed, or its hand-over failed). Each run's alerts go as that
 *      run would have sent them, in events whose ids come from account, batch and alert ids; each event's marks are
 *      cleared once it is dispatched. So the hand-over is at least once, and a repeat is the same event, which the
 *      deliverer drops. A failure is reported to `onHandOverError`, never fails or stops the re-screen, and leaves
 *      the marks for the batch's next run (EventBridge and Lambda retry a failed run).
 * An account without a webhook when its alerts are recorded gets no mark: nothing waits, and nothing is read for it
 * again; the alerts are on GET /v1/alerts. One whose webhook goes while alerts are marked has their marks cleared
 * at the hand-over (there is nothing to hand them to). Marks are read only for the batch being run (the account's
 * alerts of its data date), so a mark left by a batch that is never run again costs later batches nothing.
 * Re-screens are free: a watched title is charged once, when it is added (shared/metering/price-list.ts).
 */
import { randomBytes } from 'node:crypto';
import type { AllowlistStore, BatchCompleted, WatchStore } from '../ports';
import type { AlertHandOver } from '../webhooks/alert-webhooks';
import type { ScreeningService } from '../screening/screening-service';
import { mapWithConcurrency } from '../async/concurrency';
import { alertIdOf, type WatchAlert } from './alerts';
import { resultChanged, type WatchItem, type WatchResult, watchResultOf } from './watch';

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
  /** Where recorded alerts are handed, an account at a time (its webhook: shared/webhooks/alert-webhooks.ts). */
  handOver?: AlertHandOver;
  onHandOverError?: (error: unknown, accountId: string) => void;
}

export interface RescreenOutcome {
  accounts: number;
  rescreened: number;
  changed: number;
  alertsRecorded: number;
  /** Alerts whose hand-over mark this run cleared: its own, and any an earlier run of the batch left marked. */
  alertsHandedOver: number;
  /** False when the cap or the time budget left titles not re-screened. */
  complete: boolean;
}

interface RescreenDeps {
  store: WatchStore;
  screening: ScreeningService;
  allowlists?: AllowlistStore;
}

/** One run: what every account's step reads and adds to. */
interface Run {
  deps: RescreenDeps;
  batch: BatchCompleted;
  options: RescreenOptions;
  now: () => Date;
  /** Marks the alerts this run records for hand-over; runs' alerts are handed over apart (see step 4). */
  runId: string;
  outcome: RescreenOutcome;
  outOfTime: () => boolean;
}

type WatchedTitle = WatchItem & { title: string };

export async function rescreenWatched(
  deps: RescreenDeps,
  batch: BatchCompleted,
  options: RescreenOptions,
): Promise<RescreenOutcome> {
  const now = options.now ?? (() => new Date());
  const started = Date.now();
  const run: Run = {
    deps,
    batch,
    options,
    now,
    runId: `${now().toISOString()}#${randomBytes(4).toString('hex')}`,
    outcome: { accounts: 0, rescreened: 0, changed: 0, alertsRecorded: 0, alertsHandedOver: 0, complete: true },
    outOfTime: () => Date.now() - started >= options.timeBudgetMs,
  };
  for await (const accountId of deps.store.accountsWatching()) {
    if (run.outOfTime()) {
      run.outcome.complete = false;
      break;
    }
    run.outcome.accounts += 1;
    await rescreenAccount(run, accountId);
  }
  return run.outcome;
}

async function rescreenAccount(run: Run, accountId: string): Promise<void> {
  const { deps, options, outcome } = run;
  const handsOver = await handsOverFor(run, accountId);
  const allowlist = (await deps.allowlists?.get(accountId))?.brands;
  const pageSize = options.pageSize ?? 1000;
  let after: string | undefined;
  let done = 0;
  for (;;) {
    if (done >= options.maxTitlesPerAccount || run.outOfTime()) {
      outcome.complete = false;
      break;
    }
    const page = await deps.store.listItems(accountId, {
      limit: Math.min(pageSize, options.maxTitlesPerAccount - done),
      ...(after ? { after } : {}),
    });
    const titles = page.items.filter((i): i is WatchedTitle => i.kind === 'title' && !!i.title);
    if (titles.length) await rescreenPage(run, accountId, titles, { allowlist, handsOver });
    done += page.items.length;
    outcome.rescreened += titles.length;
    if (!page.last) break;
    after = page.last;
  }
  if (handsOver) await handOverMarked(run, accountId);
}

/** Whether the account's alerts are marked and handed over; in doubt (the webhook could not be read), they are. */
async function handsOverFor(run: Run, accountId: string): Promise<boolean> {
  if (!run.options.handOver) return false;
  try {
    return await run.options.handOver.wanted(accountId);
  } catch (error) {
    run.options.onHandOverError?.(error, accountId);
    return true;
  }
}

async function rescreenPage(
  run: Run,
  accountId: string,
  titles: WatchedTitle[],
  account: { allowlist: string[] | undefined; handsOver: boolean },
): Promise<void> {
  const screened = await run.deps.screening.screen(
    titles.map((t) => ({ title: t.title, ...(t.nice !== undefined ? { nice: t.nice } : {}) })),
    account.allowlist?.length ? { allowlist: account.allowlist } : {},
  );
  const at = run.now().toISOString();
  await mapWithConcurrency(
    titles.map((item, i) => [item, i] as const),
    UPDATES_IN_FLIGHT,
    async ([item, i]) => {
      const next = watchResultOf(screened.results[i]!, screened.dataAsOf);
      if (resultChanged(item.result, next)) {
        run.outcome.changed += 1;
        const alert = await alertOf(run, accountId, item, next, at);
        if (await run.deps.store.addAlert(account.handsOver ? { ...alert, pendingHandOver: run.runId } : alert))
          run.outcome.alertsRecorded += 1;
      }
      // The kept result moves on even when unchanged: its data date says how fresh it is.
      await run.deps.store.updateResult(accountId, item.itemId, next, at);
    },
  );
}

async function alertOf(
  run: Run,
  accountId: string,
  item: WatchedTitle,
  next: WatchResult,
  at: string,
): Promise<WatchAlert> {
  const { batch, options } = run;
  const troCase = next.troHit && options.troCaseOf ? await options.troCaseOf(next.topConflict) : undefined;
  return {
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
}

/** Step 4: every alert of the batch the account still has marked, grouped by the run that recorded it. */
async function handOverMarked(run: Run, accountId: string): Promise<void> {
  const { deps, options, batch } = run;
  const handedOver = async (alerts: readonly WatchAlert[]) => {
    await deps.store.markHandedOver(
      accountId,
      alerts.map((a) => a.alertId),
      run.now().toISOString(),
    );
    run.outcome.alertsHandedOver += alerts.length;
  };
  try {
    const marked = await deps.store.pendingAlerts(accountId, batch);
    for (const alerts of byRecordingRun(marked)) await options.handOver!.handOver(accountId, batch, alerts, handedOver);
  } catch (error) {
    options.onHandOverError?.(error, accountId);
  }
}

/**
 * The marked alerts, one group per run that recorded them, oldest run first. A run's events are formed from its own
 * alerts, and their marks are cleared a whole event at a time in order, so what a run left marked makes the same
 * events again.
 */
function byRecordingRun(alerts: readonly WatchAlert[]): WatchAlert[][] {
  const groups = new Map<string, WatchAlert[]>();
  for (const alert of alerts) {
    const run = alert.pendingHandOver ?? '';
    groups.set(run, [...(groups.get(run) ?? []), alert]);
  }
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, group]) => group);
}
