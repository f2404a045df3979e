/**
 * The re-screen function: "a data batch completed" (an EventBridge event on the data bus whose detail is the batch:
 * market, kind, batch id, data date) re-screens every account's watched titles and records an alert per changed
 * result (shared/watch/rescreen.ts). A redelivered event records nothing twice. Re-screens are free. The alerts a
 * run records go to the account's webhook, if any, handed to their own delivery (shared/webhooks/alert-webhooks.ts),
 * at least once: alerts a failed or cut-short run left marked are handed over by the batch's next run (a retry).
 */
import type { Context } from 'aws-lambda';
import * as z from 'zod';
import { allowlistStore } from '../../shared/composition/allowlist';
import { buildDataStores } from '../../shared/composition/data-stores';
import { watchStore } from '../../shared/composition/watch';
import { webhookDispatch, webhookStore } from '../../shared/composition/webhooks';
import { loadConfig } from '../../shared/config';
import { createLogger } from '../../shared/observability';
import { createScreeningService } from '../../shared/screening/screening-service';
import { type RescreenOutcome, rescreenWatched } from '../../shared/watch/rescreen';
import { troCaseLookup } from '../../shared/watch/tro-cases';
import { alertWebhooks } from '../../shared/webhooks/alert-webhooks';

export const batchCompletedSchema = z.object({
  market: z.string().min(1),
  kind: z.string().min(1),
  batchId: z.string().min(1),
  dataAsOf: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
});

const logger = createLogger('trademark-risk-watch');

/** Titles re-screened per account in one run; the rest wait for the next batch. */
export const MAX_TITLES_PER_ACCOUNT = 100_000;
/** Kept back from the function's time for the last page's writes. */
const MARGIN_MS = 60_000;

export async function handler(event: { detail?: unknown }, context: Context): Promise<RescreenOutcome> {
  const batch = batchCompletedSchema.parse(event.detail);
  const config = loadConfig();
  const stores = buildDataStores(config);
  // A screening service of this event's own: a warm function must not judge the new batch on data it read before.
  const screening = createScreeningService(stores, {
    refreshMs: config.screening.refreshSeconds * 1000,
    workBudget: config.screening.workBudget,
  });
  const outcome = await rescreenWatched({ store: watchStore(), screening, allowlists: allowlistStore() }, batch, {
    maxTitlesPerAccount: MAX_TITLES_PER_ACCOUNT,
    timeBudgetMs: Math.max(0, context.getRemainingTimeInMillis() - MARGIN_MS),
    troCaseOf: troCaseLookup(stores.tro),
    handOver: alertWebhooks({ webhooks: webhookStore(), dispatch: webhookDispatch() }),
    onHandOverError: (error, accountId) =>
      logger.error('alerts not handed to the webhook (still marked: the next run of the batch hands them over)', {
        ...batch,
        accountId,
        error,
      }),
  });
  logger.info('watched titles re-screened', { ...batch, ...outcome });
  return outcome;
}
