/**
 * Re-screening watched titles when a batch completes, on DynamoDB Local: a title whose result changes raises one
 * alert (old and new risk, the mark, the data date), an unchanged title none, and the same batch delivered again
 * records nothing twice, even when the first delivery stopped between the alert and the kept result.
 */
import { buildAllowlistStore } from '../../../shared/composition/allowlist';
import { buildDataStores } from '../../../shared/composition/data-stores';
import { buildWatchStore } from '../../../shared/composition/watch';
import type { BatchCompleted, WatchStore } from '../../../shared/ports';
import { createScreeningService } from '../../../shared/screening/screening-service';
import { addToWatch } from '../../../shared/watch/add-to-watch';
import { alertIdOf } from '../../../shared/watch/alerts';
import { rescreenWatched } from '../../../shared/watch/rescreen';
import { createTestStack, type TestStack } from '../../support/test-stack';
import { ingestWordMarks } from '../../support/watch-marks';

let stack: TestStack;
let store: WatchStore;
const screening = () => createScreeningService(buildDataStores(stack.config), { refreshMs: 0 });
const OPTIONS = { maxTitlesPerAccount: 50_000, timeBudgetMs: 60_000 };

beforeAll(async () => {
  stack = await createTestStack();
  store = buildWatchStore(stack.config);
  await ingestWordMarks(stack, '2026-11-20', [{ serial: '99000001', mark: 'ZORVEXA', nice: [9] }]);
});

async function watching(accountId: string, items: { id: string; title: string; nice?: string }[]) {
  await addToWatch({ store, screening: screening() }, accountId, { items, logos: [] }, { now: new Date() });
}

it('raises one alert per changed title, and none again when the same batch is delivered twice', async () => {
  const { accountId } = await stack.openAccount({ tier: 'professional', points: 10 });
  await watching(accountId, [
    { id: 'SKU-1', title: 'Quintaro bluetooth speaker, waterproof', nice: '9' },
    { id: 'SKU-2', title: 'Zorvexa wireless earbuds', nice: '9' },
    { id: 'SKU-3', title: 'Bamboo cutting board set' },
  ]);
  const summary = await ingestWordMarks(stack, '2026-11-21', [{ serial: '99000002', mark: 'QUINTARO', nice: [9] }]);
  const batch: BatchCompleted = { market: 'US', kind: 'marks', batchId: summary.batchId, dataAsOf: '2026-11-21' };
  const deps = { store, screening: screening(), allowlists: buildAllowlistStore(stack.config) };

  const first = await rescreenWatched(deps, batch, OPTIONS);
  const again = await rescreenWatched(deps, batch, OPTIONS);

  expect(first).toMatchObject({ rescreened: 3, changed: 1, alertsRecorded: 1, complete: true });
  expect(again).toMatchObject({ rescreened: 3, changed: 0, alertsRecorded: 0, complete: true });
  const alerts = (await store.listAlerts(accountId)).filter((a) => a.batchId === batch.batchId);
  expect(alerts).toEqual([
    expect.objectContaining({
      alertId: alertIdOf(batch, 'SKU-1'),
      itemId: 'SKU-1',
      oldRisk: '低',
      oldTopConflict: '',
      topConflict: 'QUINTARO',
      troHit: false,
      dataAsOf: '2026-11-21',
      acknowledged: false,
    }),
  ]);
  expect(alerts[0]!.newRisk).not.toBe('低');
  const kept = (await store.listItems(accountId, { limit: 10 })).items.find((i) => i.itemId === 'SKU-1')!;
  expect(kept.result).toMatchObject({ topConflict: 'QUINTARO', dataAsOf: '2026-11-21' });
});

it('records the alert once when a delivery stopped after the alert and before the kept result', async () => {
  const { accountId } = await stack.openAccount({ tier: 'professional', points: 10 });
  await watching(accountId, [{ id: 'SKU-9', title: 'Velmorin hiking backpack', nice: '18' }]);
  const before = (await store.listItems(accountId, { limit: 1 })).items[0]!.result!;
  const summary = await ingestWordMarks(stack, '2026-11-22', [{ serial: '99000003', mark: 'VELMORIN', nice: [18] }]);
  const batch: BatchCompleted = { market: 'US', kind: 'marks', batchId: summary.batchId, dataAsOf: '2026-11-22' };
  const deps = { store, screening: screening() };
  await rescreenWatched(deps, batch, OPTIONS);
  // As if the first delivery had died between putting the alert and keeping the new result.
  await store.updateResult(accountId, 'SKU-9', before, new Date().toISOString());

  const redelivered = await rescreenWatched(deps, batch, OPTIONS);

  expect(redelivered).toMatchObject({ changed: 1, alertsRecorded: 0 });
  expect((await store.listAlerts(accountId)).map((a) => a.itemId)).toEqual(['SKU-9']);
});

it('stops an account at its cap and says the run is not complete', async () => {
  const { accountId } = await stack.openAccount({ tier: 'professional', points: 10 });
  await watching(
    accountId,
    Array.from({ length: 5 }, (_, i) => ({ id: `C-${i}`, title: `Garden hose number ${i}` })),
  );
  const batch: BatchCompleted = { market: 'US', kind: 'marks', batchId: 'cap-test', dataAsOf: '2026-11-22' };

  const outcome = await rescreenWatched({ store, screening: screening() }, batch, {
    maxTitlesPerAccount: 2,
    timeBudgetMs: 60_000,
  });

  expect(outcome.complete).toBe(false);
  expect(outcome.rescreened).toBeLessThanOrEqual(2 * outcome.accounts);
});
