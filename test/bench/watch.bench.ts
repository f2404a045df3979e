/**
 * Watched catalogue: 10,000 titles re-screened after a batch, on DynamoDB Local with the sample corpus (aim: within
 * 60 s locally), the account with a webhook, so that every alert is marked for hand-over and handed to the dispatch
 * (here an in-process counter in place of the EventBridge bus, which has no local form), and the same batch
 * delivered again (no alert recorded or handed over twice). Reports; never gates.
 * `npm run bench -- watched` or `npx tsx test/bench/watch.bench.ts`
 */
import { startDynamoDbLocal } from '../../local/dynamodb-local';
import { loadSampleCorpus } from '../../local/sample-corpus';
import { buildDataStores } from '../../shared/composition/data-stores';
import { buildWatchStore } from '../../shared/composition/watch';
import { buildWebhookStore } from '../../shared/composition/webhooks';
import { alertWebhooks } from '../../shared/webhooks/alert-webhooks';
import type { WebhookJob } from '../../shared/webhooks/webhook';
import { createScreeningService } from '../../shared/screening/screening-service';
import { addToWatch } from '../../shared/watch/add-to-watch';
import { rescreenWatched } from '../../shared/watch/rescreen';
import { createTestStack } from '../support/test-stack';
import { machineLine, realTitles } from './bench-support';

const TITLES = 10_000;

export async function benchWatch(): Promise<string> {
  const engine = await startDynamoDbLocal({ timeoutMs: 60_000 });
  process.env.TEST_DYNAMODB_ENDPOINT = engine.endpoint;
  try {
    const stack = await createTestStack();
    const stores = buildDataStores(stack.config);
    await loadSampleCorpus(stores);
    const store = buildWatchStore(stack.config);
    const screening = createScreeningService(stores, { refreshMs: 0 });
    const corpus = realTitles();
    const items = Array.from({ length: TITLES }, (_, i) => ({
      id: `SKU-${String(i).padStart(5, '0')}`,
      title: corpus[i % corpus.length]!,
    }));
    const { accountId } = await stack.openAccount({ tier: 'professional', points: TITLES });
    const webhooks = buildWebhookStore(stack.config);
    const at = new Date().toISOString();
    const secret = `whsec_${'b'.repeat(43)}`;
    await webhooks.create({
      accountId,
      url: 'https://hooks.example.com/tm',
      secret,
      createdAt: at,
      updatedAt: at,
      secretIssuedAt: at,
    });
    const dispatched: WebhookJob[] = [];
    const handOver = alertWebhooks({ webhooks, dispatch: { dispatch: async (job) => void dispatched.push(job) } });
    let started = performance.now();
    await addToWatch({ store, screening }, accountId, { items, logos: [] }, { now: new Date() });
    const addMs = performance.now() - started;
    // Every kept result made stale, so that the re-screen finds a change on each title that raises anything.
    let stale = 0;
    for (let after: string | undefined; ; ) {
      const page = await store.listItems(accountId, { limit: 1000, ...(after ? { after } : {}) });
      for (const item of page.items) {
        if (item.result && item.result.risk !== '低') {
          stale += 1;
          await store.updateResult(accountId, item.itemId, { ...item.result, risk: '低', topConflict: '' }, '');
        }
      }
      if (!page.last) break;
      after = page.last;
    }
    const batch = { market: 'US', kind: 'marks', batchId: 'bench-batch', dataAsOf: '2026-11-23' };
    const options = { maxTitlesPerAccount: 50_000, timeBudgetMs: 600_000, handOver };
    started = performance.now();
    const first = await rescreenWatched({ store, screening }, batch, options);
    const rescreenMs = performance.now() - started;
    const events = dispatched.length;
    started = performance.now();
    const again = await rescreenWatched({ store, screening }, batch, options);
    const againMs = performance.now() - started;
    const alerts = (await store.listAlerts(accountId)).length;
    return `Machine: ${machineLine()}. Date: ${new Date().toISOString().slice(0, 10)}. Command: \`npm run bench -- watched\`. DynamoDB Local in memory, the sample corpus.

| measure | aim | result |
|---|---|---|
| ${TITLES} watched titles added (screened and stored) | | ${(addMs / 1000).toFixed(1)} s |
| ${TITLES} watched titles re-screened after a batch (${stale} results changed), alerts handed to the webhook dispatch | <= 60 s | **${(rescreenMs / 1000).toFixed(1)} s**; ${first.rescreened} re-screened, ${first.alertsRecorded} alerts recorded, ${first.alertsHandedOver} handed over in ${events} events |
| the same batch delivered again | no alert twice | ${(againMs / 1000).toFixed(1)} s; ${again.alertsRecorded} alerts recorded, ${again.alertsHandedOver} handed over, ${dispatched.length - events} events; ${alerts} alerts in the table |`;
  } finally {
    await engine.stop();
  }
}

if (require.main === module) {
  benchWatch().then(
    (text) => console.log(text),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
