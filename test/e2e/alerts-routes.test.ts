/**
 * GET /v1/alerts and POST /v1/alerts/ack over real HTTP against DynamoDB Local: alerts raised by a re-screen are
 * listed a page at a time, narrowed by data date and by acknowledgement, and acknowledged by id; free of charge.
 */
import type { RunningServer } from '../../local/server';
import { buildDataStores } from '../../shared/composition/data-stores';
import { buildWatchStore } from '../../shared/composition/watch';
import { createScreeningService } from '../../shared/screening/screening-service';
import { rescreenWatched } from '../../shared/watch/rescreen';
import { createTestStack, type TestStack } from '../support/test-stack';
import { readJson, startTestServer } from '../support/test-server';
import { ingestWordMarks } from '../support/watch-marks';

let stack: TestStack;
let server: RunningServer;

beforeAll(async () => {
  stack = await createTestStack();
  server = await startTestServer(stack);
});
afterAll(async () => server?.close());

const send = (method: string, path: string, apiKey: string, body?: unknown) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${apiKey}`,
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });

async function rescreenAfter(batchDate: string, mark: string, serial: string) {
  const summary = await ingestWordMarks(stack, batchDate, [{ serial, mark, nice: [9] }]);
  const screening = createScreeningService(buildDataStores(stack.config), { refreshMs: 0 });
  await rescreenWatched(
    { store: buildWatchStore(stack.config), screening },
    { market: 'US', kind: 'marks', batchId: summary.batchId, dataAsOf: batchDate },
    { maxTitlesPerAccount: 1000, timeBudgetMs: 60_000 },
  );
}

it('lists the alerts of two batches, by data date, pages them, and acknowledges one', async () => {
  const { apiKey } = await stack.openAccount({ tier: 'professional', points: 10 });
  const put = await send('PUT', '/v1/watch', apiKey, {
    items: [
      { id: 'A', title: 'Drelvoni bluetooth speaker', nice: '9' },
      { id: 'B', title: 'Mostrava phone charger', nice: '9' },
    ],
  });
  expect(put.status).toBe(200);
  await rescreenAfter('2026-11-21', 'DRELVONI', '98000001');
  await rescreenAfter('2026-11-22', 'MOSTRAVA', '98000002');

  const all = await readJson(await send('GET', '/v1/alerts', apiKey));
  const page1 = await readJson(await send('GET', '/v1/alerts?limit=1', apiKey));
  const page2 = await readJson(
    await send('GET', `/v1/alerts?limit=1&cursor=${encodeURIComponent(page1.next_cursor)}`, apiKey),
  );
  const since = await readJson(await send('GET', '/v1/alerts?since=2026-11-22', apiKey));
  const ack = await send('POST', '/v1/alerts/ack', apiKey, { ids: [all.alerts[0].id, 'al_20260101_unknown'] });
  const open = await readJson(await send('GET', '/v1/alerts?acknowledged=false', apiKey));
  const done = await readJson(await send('GET', '/v1/alerts?acknowledged=true', apiKey));

  expect(all.alerts.map((a: { item_id: string }) => a.item_id)).toEqual(['A', 'B']);
  expect(all.alerts[0]).toMatchObject({
    old_risk: '低',
    old_top_conflict: '',
    top_conflict: 'DRELVONI',
    data_as_of: '2026-11-21',
    acknowledged: false,
  });
  expect([page1.alerts[0].item_id, page2.alerts[0].item_id]).toEqual(['A', 'B']);
  expect(since.alerts.map((a: { item_id: string }) => a.item_id)).toEqual(['B']);
  expect(ack.status).toBe(200);
  expect(await readJson(ack)).toEqual({ acknowledged: [all.alerts[0].id], not_found: ['al_20260101_unknown'] });
  expect(open.alerts.map((a: { item_id: string }) => a.item_id)).toEqual(['B']);
  expect(done.alerts.map((a: { item_id: string }) => a.item_id)).toEqual(['A']);
});

it('shows an account none of another account’s alerts, and refuses a bad filter', async () => {
  const { apiKey } = await stack.openAccount({ tier: 'free', points: 0 });

  const listed = await send('GET', '/v1/alerts', apiKey);
  const refused = await send('GET', '/v1/alerts?acknowledged=maybe', apiKey);

  expect(listed.status).toBe(200);
  expect((await readJson(listed)).alerts).toEqual([]);
  expect(refused.status).toBe(400);
  expect((await readJson(refused)).error.code).toBe('invalid_request');
});
