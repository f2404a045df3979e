/**
 * Completed batches re-screen watched titles, on DynamoDB Local: the ingest and the TRO docket job announce each
 * completed batch on the in-process bus (the local form of the EventBridge data bus), whose subscriber is the real
 * watch-rescreen function, run as in AWS. A new mark raises an alert; a docket run that makes a watched title's
 * mark a TRO brand raises one naming the case (CourtListener has no local form: test/support/fake-courtlistener.ts
 * stands in for it). The batch is in the tables even when a subscriber fails, and a repeat raises nothing twice.
 */
import { Readable } from 'node:stream';
import { InProcessBatchEvents } from '../../../shared/adapters/local/in-process-batch-events';
import { buildDataJobStore, buildDataStores } from '../../../shared/composition/data-stores';
import { buildWatchStore } from '../../../shared/composition/watch';
import { CourtListener } from '../../../shared/data-jobs/court-listener';
import { runTroDocketJob } from '../../../shared/data-jobs/tro-docket-job';
import { ingestBatch, type IngestStores } from '../../../shared/ingest/ingest-batch';
import type { BatchCompleted, WatchStore } from '../../../shared/ports';
import { createScreeningService } from '../../../shared/screening/screening-service';
import { addToWatch } from '../../../shared/watch/add-to-watch';
import { lambdaContext } from '../../../local/lambda-event';
import { startFakeCourtListener, type FakeCourtListener } from '../../support/fake-courtlistener';
import { createTestStack, type TestStack } from '../../support/test-stack';

const TOKEN = 'cl-watch-test-token-4e8b1f';
const SCHEDULE_A = 'The Partnerships and Unincorporated Associations Identified on Schedule A';

let stack: TestStack;
let store: WatchStore;
let bus: InProcessBatchEvents;
let stores: IngestStores;
let fake: FakeCourtListener;
const heard: BatchCompleted[] = [];
const failures: unknown[] = [];

const marksBatch = (batchDate: string, marks: object[]) =>
  ingestBatch(stores, {
    kind: 'marks-jsonl',
    market: 'US',
    batchDate,
    source: `watch-events-${batchDate}.jsonl`,
    holder: 'watch-events-test',
    input: Readable.from([marks.map((m) => JSON.stringify({ drawing_kind: 'word', is_live: true, ...m })).join('\n')]),
  });

beforeAll(async () => {
  stack = await createTestStack();
  // The function reads its configuration from the environment, as in Lambda.
  Object.assign(process.env, stack.env);
  const { handler } = await import('../../../functions/watch-rescreen/handler');
  store = buildWatchStore(stack.config);
  bus = new InProcessBatchEvents((error) => failures.push(error));
  bus.subscribe(async (event) => {
    heard.push(event);
    await handler({ detail: event }, lambdaContext('watch-rescreen', 15 * 60 * 1000));
  });
  stores = { ...buildDataStores(stack.config), events: bus };
  await marksBatch('2026-11-20', [{ serial: 'WE-1', mark: 'Zorbliqon', nice: [28], owner: 'SPIN MASTER LTD.' }]);
  await bus.idle();
  fake = await startFakeCourtListener(TOKEN);
});
afterAll(async () => fake?.close());

async function watching(accountId: string, items: { id: string; title: string; nice?: string }[]) {
  const screening = createScreeningService(buildDataStores(stack.config), { refreshMs: 0 });
  await addToWatch({ store, screening }, accountId, { items, logos: [] }, { now: new Date() });
}

it('a completed ingest re-screens the watched titles: a new mark raises one alert, announced once per batch', async () => {
  const { accountId } = await stack.openAccount({ tier: 'professional', points: 10 });
  await watching(accountId, [
    { id: 'SKU-1', title: 'Quintaro bluetooth speaker, waterproof', nice: '9' },
    { id: 'SKU-2', title: 'Bamboo cutting board set' },
  ]);
  heard.length = 0;

  const summary = await marksBatch('2026-11-21', [{ serial: 'WE-2', mark: 'QUINTARO', nice: [9] }]);
  await bus.idle();

  expect(heard).toEqual([{ market: 'US', kind: 'marks', batchId: summary.batchId, dataAsOf: '2026-11-21' }]);
  expect(failures).toEqual([]);
  const alerts = await store.listAlerts(accountId);
  expect(alerts).toEqual([
    expect.objectContaining({ itemId: 'SKU-1', oldRisk: '低', topConflict: 'QUINTARO', dataAsOf: '2026-11-21' }),
  ]);
  expect(alerts[0]!.troCase).toBeUndefined();

  // The same batch announced again (EventBridge delivers at least once): nothing new.
  await bus.batchCompleted(heard[0]!);
  await bus.idle();
  expect(await store.listAlerts(accountId)).toHaveLength(1);
});

it('a docket run that makes the conflicting mark a TRO brand raises an alert naming its case', async () => {
  const { accountId } = await stack.openAccount({ tier: 'professional', points: 10 });
  await watching(accountId, [{ id: 'TOY-1', title: 'Zorbliqon Pup Rescue Playset Toy for Kids', nice: '28' }]);
  const [before] = (await store.listItems(accountId, { limit: 10 })).items;
  expect(before!.result!.troHit).toBe(false);
  fake.dockets.push({
    docketId: 9101,
    caseName: `Spin Master Ltd. v. ${SCHEDULE_A}`,
    docketNumber: '1:26-cv-20001',
    courtId: 'ilnd',
    dateFiled: '2026-11-20',
    parties: [
      { name: 'Spin Master Ltd.', types: ['Plaintiff'] },
      { name: SCHEDULE_A, types: ['Defendant'] },
    ],
  });
  heard.length = 0;

  const run = await runTroDocketJob(
    {
      courtListener: new CourtListener({ token: TOKEN, origin: fake.origin, maxCalls: 30, attempts: 1 }),
      stores,
      jobs: buildDataJobStore(stack.config),
      holder: 'watch-events-test',
    },
    { courts: ['ilnd'] },
  );
  await bus.idle();

  expect(run.outcome).toBe('succeeded');
  expect(heard).toEqual([
    expect.objectContaining({ market: 'US', kind: 'tro', batchId: expect.stringMatching(/courtlistener.*@/) }),
  ]);
  const alerts = await store.listAlerts(accountId);
  expect(alerts).toEqual([
    expect.objectContaining({ itemId: 'TOY-1', troHit: true, topConflict: 'Zorbliqon', troCase: '1:26-cv-20001' }),
  ]);
});

it('keeps the batch complete when a subscriber fails: the failure is reported, not thrown at the ingest', async () => {
  const failing = new InProcessBatchEvents((error) => failures.push(error));
  failing.subscribe(async () => {
    throw new Error('re-screen unavailable');
  });
  failures.length = 0;

  const summary = await ingestBatch(
    { ...buildDataStores(stack.config), events: failing },
    {
      kind: 'marks-jsonl',
      market: 'US',
      batchDate: '2026-11-22',
      source: 'watch-events-failing.jsonl',
      holder: 'watch-events-test',
      input: Readable.from([JSON.stringify({ serial: 'WE-3', mark: 'Plovrant', nice: [9], is_live: true })]),
    },
  );
  await failing.idle();

  expect(summary.complete).toBe(true);
  expect(failures).toEqual([new Error('re-screen unavailable')]);
  expect((await stores.batches.get('US', 'marks', summary.batchId))?.status).toBe('complete');
});
