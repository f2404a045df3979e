/**
 * Watched catalogue: 10,000 titles re-screened after a batch, on DynamoDB Local with the sample corpus (aim: within
 * 60 s locally), and the same batch delivered again (no alert recorded twice). Reports; never gates.
 * `npx tsx test/bench/watch.bench.ts`
 */
import { startDynamoDbLocal } from '../../local/dynamodb-local';
import { loadSampleCorpus } from '../../local/sample-corpus';
import { buildDataStores } from '../../shared/composition/data-stores';
import { buildWatchStore } from '../../shared/composition/watch';
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
    const options = { maxTitlesPerAccount: 50_000, timeBudgetMs: 600_000 };
    started = performance.now();
    const first = await rescreenWatched({ store, screening }, batch, options);
    const rescreenMs = performance.now() - started;
    started = performance.now();
    const again = await rescreenWatched({ store, screening }, batch, options);
    const againMs = performance.now() - started;
    const alerts = (await store.listAlerts(accountId)).length;
    return `${machineLine()}

| measure | aim | result |
|---|---|---|
| ${TITLES} watched titles added (screened and stored) | | ${(addMs / 1000).toFixed(1)} s |
| ${TITLES} watched titles re-screened after a batch (${stale} results changed) | <= 60 s | **${(rescreenMs / 1000).toFixed(1)} s**; ${first.rescreened} re-screened, ${first.alertsRecorded} alerts recorded |
| the same batch delivered again | no alert twice | ${(againMs / 1000).toFixed(1)} s; ${again.alertsRecorded} alerts recorded; ${alerts} alerts in the table |`;
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
