/**
 * The hand-over of alerts to webhooks is at least once, and a repeat is delivered once, on DynamoDB Local with the
 * real deliverer and a local HTTPS receiver: an alert recorded for an account with a webhook carries the outbox mark
 * until its event is dispatched. Covered: a hand-over that throws (the batch's next run hands the alert over, once;
 * a run after that hands over nothing), a run that dies between recording and handing over, one that dispatched but
 * died before clearing the marks (the same event again, dropped by the deliverer's claim), a failure after the first
 * of two events (only the second is sent again, with the id it would have had), an account without a webhook (no
 * mark, nothing read for it), and a webhook removed while alerts wait (their marks cleared, nothing sent).
 */
import { InProcessWebhookDispatch } from '../../../shared/adapters/local/in-process-webhook-dispatch';
import { buildDataStores } from '../../../shared/composition/data-stores';
import { buildWatchStore } from '../../../shared/composition/watch';
import { buildWebhookStore } from '../../../shared/composition/webhooks';
import type { BatchCompleted, WatchStore, WebhookDispatch, WebhookStore } from '../../../shared/ports';
import { createScreeningService } from '../../../shared/screening/screening-service';
import { addToWatch } from '../../../shared/watch/add-to-watch';
import { rescreenWatched } from '../../../shared/watch/rescreen';
import { alertWebhooks } from '../../../shared/webhooks/alert-webhooks';
import { setWebhook } from '../../../shared/webhooks/set-webhook';
import { alertEventsOf, MAX_ALERTS_PER_EVENT, type WebhookJob } from '../../../shared/webhooks/webhook';
import { type HttpsReceiver, startHttpsReceiver } from '../../support/https-receiver';
import { createTestStack, type TestStack } from '../../support/test-stack';
import { ingestWordMarks } from '../../support/watch-marks';

let stack: TestStack;
let watch: WatchStore;
let webhooks: WebhookStore;
let receiver: HttpsReceiver;
let serial = 99300000;
let day = 1;

const screening = () => createScreeningService(buildDataStores(stack.config), { refreshMs: 0 });
const OPTIONS = { maxTitlesPerAccount: 50_000, timeBudgetMs: 60_000 };

beforeAll(async () => {
  stack = await createTestStack();
  watch = buildWatchStore(stack.config);
  webhooks = buildWebhookStore(stack.config);
  receiver = await startHttpsReceiver();
});
afterAll(async () => receiver?.close());
beforeEach(() => receiver.reset());

/** The real in-process deliverer behind a dispatch that records each job and can be told to refuse some. */
function dispatcher() {
  const errors: unknown[] = [];
  const inner = new InProcessWebhookDispatch(webhooks, {
    settings: receiver.deliverySettings(),
    onError: (error) => errors.push(error),
  });
  const dispatched: WebhookJob[] = [];
  let refusals = 0;
  const dispatch: WebhookDispatch & { refuseNext(n: number): void } = {
    refuseNext: (n) => {
      refusals = n;
    },
    dispatch: async (job) => {
      if (refusals > 0) {
        refusals -= 1;
        throw new Error('the bus refused the event');
      }
      dispatched.push(job);
      await inner.dispatch(job);
    },
  };
  return { dispatch, dispatched, errors, idle: () => inner.idle() };
}

/** An account watching `count` titles that each meet a new coined mark in the returned batch; a webhook if asked. */
async function accountWithNewMarks(count: number, withWebhook = true) {
  const { accountId } = await stack.openAccount({ tier: 'professional', points: 10_000 });
  const marks = Array.from({ length: count }, () => {
    serial += 1;
    return { serial: String(serial), mark: `VORQUELLA${String.fromCharCode(65 + (serial % 26))}X${serial}`, nice: [9] };
  });
  await addToWatch(
    { store: watch, screening: screening() },
    accountId,
    {
      items: marks.map((m, i) => ({
        id: `SKU-${String(i + 1).padStart(3, '0')}`,
        title: `${m.mark} bluetooth speaker`,
        nice: '9',
      })),
      logos: [],
    },
    { now: new Date() },
  );
  if (withWebhook) {
    const { webhook } = await setWebhook(
      webhooks,
      accountId,
      { url: `${receiver.origin}/hooks`, rotateSecret: false },
      { now: new Date(), urlRules: { allowAddress: receiver.allowAddress } },
    );
    receiver.secret = webhook.secret;
  }
  day += 1;
  const dataAsOf = `2027-01-${String(day).padStart(2, '0')}`;
  const summary = await ingestWordMarks(stack, dataAsOf, marks);
  const batch: BatchCompleted = { market: 'US', kind: 'marks', batchId: summary.batchId, dataAsOf };
  return { accountId, batch };
}

async function rescreen(batch: BatchCompleted, dispatch: WebhookDispatch, store: WatchStore = watch) {
  const failures: unknown[] = [];
  const outcome = await rescreenWatched({ store, screening: screening() }, batch, {
    ...OPTIONS,
    handOver: alertWebhooks({ webhooks, dispatch }),
    onHandOverError: (error) => failures.push(error),
  });
  return { outcome, failures };
}

const alertIdsIn = (body: string): string[] => JSON.parse(body).data.alerts.map((a: { id: string }) => a.id);

it('a hand-over that throws leaves the alert marked; the batch run again hands it over once; then nothing', async () => {
  const { accountId, batch } = await accountWithNewMarks(1);
  const { dispatch, dispatched, idle } = dispatcher();
  dispatch.refuseNext(1);

  const first = await rescreen(batch, dispatch);
  const waiting = await watch.pendingAlerts(accountId, batch);
  const retried = await rescreen(batch, dispatch);
  await idle();
  const after = await rescreen(batch, dispatch);
  await idle();

  expect(first.outcome).toMatchObject({ alertsRecorded: 1, alertsHandedOver: 0, complete: true });
  expect(first.failures).toEqual([new Error('the bus refused the event')]);
  expect(waiting.map((a) => a.itemId)).toEqual(['SKU-001']);
  expect(retried.outcome).toMatchObject({ alertsRecorded: 0, alertsHandedOver: 1 });
  expect(after.outcome).toMatchObject({ alertsRecorded: 0, alertsHandedOver: 0 });
  expect(dispatched).toHaveLength(1);
  expect(receiver.received.map((r) => [r.valid, r.eventId])).toEqual([[true, dispatched[0]!.eventId]]);
  expect(await watch.pendingAlerts(accountId, batch)).toEqual([]);
  const [stored] = await watch.listAlerts(accountId);
  expect(stored).toMatchObject({ handedOverAt: expect.any(String) });
  expect(stored!.pendingHandOver).toBeUndefined();
});

it('a run that dies after recording an alert and before handing it over: the next run hands it over', async () => {
  const { accountId, batch } = await accountWithNewMarks(1);
  const { dispatch, dispatched, idle } = dispatcher();
  // The run dies keeping this account's new result (the alert is recorded, the title not yet updated). The other
  // tests' accounts are re-screened too, in the table's order: only this account's update dies, so that its alert is
  // always recorded before the run does.
  const dying: WatchStore = Object.assign(Object.create(watch), {
    updateResult: async (...args: Parameters<WatchStore['updateResult']>) => {
      if (args[0] === accountId) throw new Error('the function timed out');
      return watch.updateResult(...args);
    },
  });

  await expect(rescreen(batch, dispatch, dying)).rejects.toThrow('the function timed out');
  const retried = await rescreen(batch, dispatch);
  await idle();

  expect((await watch.listAlerts(accountId)).map((a) => a.itemId)).toEqual(['SKU-001']);
  expect(retried.outcome).toMatchObject({ alertsRecorded: 0, alertsHandedOver: 1 });
  expect(dispatched).toHaveLength(1);
  expect(receiver.received.map((r) => r.valid)).toEqual([true]);
});

it('dispatched but died before the marks were cleared: the same event again, which the deliverer drops', async () => {
  const { accountId, batch } = await accountWithNewMarks(2);
  const { dispatch, dispatched, idle } = dispatcher();
  const forgetful: WatchStore = Object.assign(Object.create(watch), {
    markHandedOver: async () => {
      throw new Error('the function timed out');
    },
  });

  const first = await rescreen(batch, dispatch, forgetful);
  await idle();
  const retried = await rescreen(batch, dispatch);
  await idle();

  expect(first.outcome).toMatchObject({ alertsRecorded: 2, alertsHandedOver: 0 });
  expect(retried.outcome).toMatchObject({ alertsHandedOver: 2 });
  expect(dispatched).toHaveLength(2);
  expect(dispatched[1]!.eventId).toBe(dispatched[0]!.eventId);
  expect(receiver.received).toHaveLength(1);
  expect(alertIdsIn(receiver.received[0]!.body)).toHaveLength(2);
  expect(await watch.pendingAlerts(accountId, batch)).toEqual([]);
});

it('a failure after the first of two events: the run after sends only the second, with the id it would have had', async () => {
  const { accountId, batch } = await accountWithNewMarks(MAX_ALERTS_PER_EVENT + 3);
  const { dispatch, dispatched, idle } = dispatcher();
  let dispatches = 0;
  const failingSecond: WebhookDispatch = {
    dispatch: async (job) => {
      dispatches += 1;
      if (dispatches === 2) throw new Error('the bus refused the event');
      await dispatch.dispatch(job);
    },
  };

  const first = await rescreen(batch, failingSecond);
  await idle();
  const retried = await rescreen(batch, dispatch);
  await idle();

  const expected = alertEventsOf(accountId, batch, await watch.listAlerts(accountId), new Date());
  expect(first.outcome).toMatchObject({ alertsRecorded: MAX_ALERTS_PER_EVENT + 3, alertsHandedOver: 50 });
  expect(retried.outcome).toMatchObject({ alertsRecorded: 0, alertsHandedOver: 3 });
  expect(dispatched.map((j) => j.eventId)).toEqual(expected.map((j) => j.eventId));
  expect(receiver.received.map((r) => r.eventId)).toEqual(expected.map((j) => j.eventId));
  const delivered = receiver.received.flatMap((r) => alertIdsIn(r.body));
  expect(new Set(delivered).size).toBe(MAX_ALERTS_PER_EVENT + 3);
  expect(delivered).toHaveLength(MAX_ALERTS_PER_EVENT + 3);
});

it('an account without a webhook: its alerts carry no mark, and no run reads marks for it', async () => {
  const { accountId, batch } = await accountWithNewMarks(1, false);
  const { dispatch, dispatched } = dispatcher();
  const reads: string[] = [];
  const counting: WatchStore = Object.assign(Object.create(watch), {
    pendingAlerts: async (account: string, b: BatchCompleted) => {
      reads.push(account);
      return watch.pendingAlerts(account, b);
    },
  });

  const first = await rescreen(batch, dispatch, counting);
  await rescreen(batch, dispatch, counting);

  expect(first.outcome).toMatchObject({ alertsRecorded: 1, alertsHandedOver: 0 });
  const [stored] = await watch.listAlerts(accountId);
  expect(stored!.pendingHandOver).toBeUndefined();
  expect(reads).not.toContain(accountId);
  expect(dispatched).toEqual([]);
});

it('a webhook removed while alerts wait: their marks are cleared at the next run and nothing is sent', async () => {
  const { accountId, batch } = await accountWithNewMarks(1);
  const { dispatch, dispatched, idle } = dispatcher();
  dispatch.refuseNext(1);
  await rescreen(batch, dispatch);
  await webhooks.remove(accountId);
  // The account still reads as having a webhook when the run starts, and not any more at the hand-over.
  let reads = 0;
  const stale = alertWebhooks({
    webhooks: { get: async (id) => (reads++ === 0 ? ({ accountId: id } as never) : webhooks.get(id)) },
    dispatch,
  });

  const outcome = await rescreenWatched({ store: watch, screening: screening() }, batch, {
    ...OPTIONS,
    handOver: {
      wanted: (id) => (id === accountId ? stale.wanted(id) : Promise.resolve(false)),
      handOver: stale.handOver,
    },
  });
  await idle();

  expect(outcome).toMatchObject({ alertsHandedOver: 1 });
  expect(await watch.pendingAlerts(accountId, batch)).toEqual([]);
  expect(dispatched).toEqual([]);
  expect(receiver.received).toEqual([]);
});
