/**
 * Alerts to webhooks with the real parts: the re-screen on DynamoDB Local records alerts, hands them to the in-process
 * dispatch, and the deliverer signs and POSTs them over real HTTPS to a local receiver (a self-signed certificate
 * made in the test, trusted only through the deliveries' explicit `trustedCa`). Covered: a good delivery the receiver
 * verifies, a receiver holding another secret refusing the signature (dead letter after the tries), one failing
 * twice then taking it, one always failing (dead letter, readable per account), a batch redelivered (no alert sent
 * twice), a repeated event dropped, and a slow or broken hand-over neither holding up nor failing the re-screen;
 * the store's conditions: an event's claim (held, stale, finished) and first PUTs racing.
 */
import { InProcessWebhookDispatch } from '../../../shared/adapters/local/in-process-webhook-dispatch';
import { buildDataStores } from '../../../shared/composition/data-stores';
import { buildWatchStore } from '../../../shared/composition/watch';
import { buildWebhookStore } from '../../../shared/composition/webhooks';
import type { BatchCompleted, WatchStore, WebhookStore } from '../../../shared/ports';
import { createScreeningService } from '../../../shared/screening/screening-service';
import { addToWatch } from '../../../shared/watch/add-to-watch';
import { alertIdOf } from '../../../shared/watch/alerts';
import { rescreenWatched } from '../../../shared/watch/rescreen';
import { alertWebhooks } from '../../../shared/webhooks/alert-webhooks';
import { type DeliverySettings, deliverEvent } from '../../../shared/webhooks/deliver-event';
import { DEFAULT_ATTEMPTS } from '../../../shared/webhooks/deliver-webhook';
import { setWebhook } from '../../../shared/webhooks/set-webhook';
import { alertEventsOf, MAX_ALERTS_PER_EVENT } from '../../../shared/webhooks/webhook';
import { type HttpsReceiver, startHttpsReceiver } from '../../support/https-receiver';
import { createTestStack, type TestStack } from '../../support/test-stack';
import { ingestWordMarks } from '../../support/watch-marks';

let stack: TestStack;
let watch: WatchStore;
let webhooks: WebhookStore;
let receiver: HttpsReceiver;
let waits: number[];
let serial = 99100000;
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
beforeEach(() => {
  receiver.reset();
  waits = [];
});

/** The delivery settings of these tests: the receiver's CA and loopback address, and waits recorded, not slept. */
function settings(): DeliverySettings {
  return receiver.deliverySettings(async (ms) => void waits.push(ms));
}

function dispatcher() {
  const errors: unknown[] = [];
  const dispatch = new InProcessWebhookDispatch(webhooks, {
    settings: settings(),
    onError: (error) => errors.push(error),
  });
  return { dispatch, errors };
}

/** An account watching titles with one new coined mark each, its webhook at the receiver, and the mark's batch. */
async function accountWithNewMarks(count: number) {
  const { accountId } = await stack.openAccount({ tier: 'professional', points: 10_000 });
  const marks = Array.from({ length: count }, () => {
    serial += 1;
    return { serial: String(serial), mark: `QWELVANTO${String.fromCharCode(65 + (serial % 26))}X${serial}`, nice: [9] };
  });
  await addToWatch(
    { store: watch, screening: screening() },
    accountId,
    {
      items: marks.map((m, i) => ({ id: `SKU-${i + 1}`, title: `${m.mark} bluetooth speaker`, nice: '9' })),
      logos: [],
    },
    { now: new Date() },
  );
  const { webhook } = await setWebhook(
    webhooks,
    accountId,
    { url: `${receiver.origin}/hooks`, rotateSecret: false },
    { now: new Date(), urlRules: { allowAddress: receiver.allowAddress } },
  );
  day += 1;
  const dataAsOf = `2026-12-${String(day).padStart(2, '0')}`;
  const summary = await ingestWordMarks(stack, dataAsOf, marks);
  const batch: BatchCompleted = { market: 'US', kind: 'marks', batchId: summary.batchId, dataAsOf };
  return { accountId, secret: webhook.secret, batch };
}

async function rescreenWith(dispatch: InProcessWebhookDispatch, batch: BatchCompleted) {
  const failures: unknown[] = [];
  const outcome = await rescreenWatched({ store: watch, screening: screening() }, batch, {
    ...OPTIONS,
    handOver: alertWebhooks({ webhooks, dispatch }),
    onHandOverError: (error) => failures.push(error),
  });
  return { outcome, failures };
}

it('delivers the alerts a re-screen records, signed, once; the same batch again sends nothing', async () => {
  const { accountId, secret, batch } = await accountWithNewMarks(2);
  receiver.secret = secret;
  const { dispatch, errors } = dispatcher();

  const { outcome } = await rescreenWith(dispatch, batch);
  await dispatch.idle();
  const again = await rescreenWith(dispatch, batch);
  await dispatch.idle();

  expect(outcome).toMatchObject({ alertsRecorded: 2 });
  expect(again.outcome).toMatchObject({ alertsRecorded: 0 });
  expect(receiver.received).toHaveLength(1);
  const [delivery] = receiver.received;
  expect(delivery!.valid).toBe(true);
  const event = JSON.parse(delivery!.body);
  expect(event).toMatchObject({
    id: delivery!.eventId,
    type: 'alerts.created',
    data: { batch: { id: batch.batchId, market: 'US', kind: 'marks', data_as_of: batch.dataAsOf } },
  });
  expect(event.data.alerts.map((a: { id: string }) => a.id).sort()).toEqual(
    [alertIdOf(batch, 'SKU-1'), alertIdOf(batch, 'SKU-2')].sort(),
  );
  expect(event.data.alerts[0]).toMatchObject({ old_risk: '低', acknowledged: false });
  expect(errors).toEqual([]);
  expect((await webhooks.pageDeadLetters(accountId, { limit: 10 })).deadLetters).toEqual([]);
});

it('a receiver that does not know the current secret refuses every try: the event ends in the dead letters', async () => {
  const { accountId, batch } = await accountWithNewMarks(1);
  receiver.secret = 'whsec_an_old_secret_the_receiver_still_holds';
  const { dispatch } = dispatcher();

  await rescreenWith(dispatch, batch);
  await dispatch.idle();

  expect(receiver.received.map((r) => r.valid)).toEqual(Array(DEFAULT_ATTEMPTS).fill(false));
  const { deadLetters } = await webhooks.pageDeadLetters(accountId, { limit: 10 });
  expect(deadLetters).toEqual([
    expect.objectContaining({
      accountId,
      eventId: receiver.received[0]!.eventId,
      url: `${receiver.origin}/hooks`,
      attempts: DEFAULT_ATTEMPTS,
      lastError: 'answered 401',
      lastStatus: 401,
    }),
  ]);
  expect(JSON.parse(deadLetters[0]!.body).data.alerts[0].id).toBe(alertIdOf(batch, 'SKU-1'));
});

it('retries a receiver that fails twice, with growing waits, and the third try is delivered', async () => {
  const { accountId, secret, batch } = await accountWithNewMarks(1);
  receiver.secret = secret;
  receiver.script = ['fail', 'fail'];
  const { dispatch } = dispatcher();

  await rescreenWith(dispatch, batch);
  await dispatch.idle();

  expect(receiver.requests).toBe(3);
  expect(receiver.received.map((r) => r.valid)).toEqual([true]);
  expect(waits).toHaveLength(2);
  expect(waits[1]!).toBeGreaterThan(waits[0]! / 2);
  expect(waits[0]!).toBeLessThanOrEqual(1000);
  expect(waits[1]!).toBeGreaterThanOrEqual(1000);
  expect((await webhooks.pageDeadLetters(accountId, { limit: 10 })).deadLetters).toEqual([]);
});

it('a receiver that always fails: after the last try one dead letter per event, newest first, paged', async () => {
  const { accountId, secret, batch } = await accountWithNewMarks(MAX_ALERTS_PER_EVENT + 1);
  receiver.secret = secret;
  receiver.script = Array(2 * DEFAULT_ATTEMPTS).fill('fail');
  const { dispatch } = dispatcher();

  const { outcome } = await rescreenWith(dispatch, batch);
  await dispatch.idle();

  expect(outcome.alertsRecorded).toBe(MAX_ALERTS_PER_EVENT + 1);
  expect(receiver.requests).toBe(2 * DEFAULT_ATTEMPTS);
  expect(receiver.received).toEqual([]);
  const first = await webhooks.pageDeadLetters(accountId, { limit: 1 });
  const second = await webhooks.pageDeadLetters(accountId, { limit: 1, after: first.last! });
  const entries = [...first.deadLetters, ...second.deadLetters];
  expect(entries.map((e) => [e.attempts, e.lastError])).toEqual([
    [DEFAULT_ATTEMPTS, 'answered 503'],
    [DEFAULT_ATTEMPTS, 'answered 503'],
  ]);
  expect(second.last).toBeUndefined();
  expect(entries[0]!.failedAt >= entries[1]!.failedAt).toBe(true);
  const alertIds = entries.flatMap((e) => JSON.parse(e.body).data.alerts.map((a: { id: string }) => a.id));
  expect(new Set(alertIds).size).toBe(MAX_ALERTS_PER_EVENT + 1);
});

it('drops an event delivered a second time (the claim is finished), and one for an account with no webhook', async () => {
  const { accountId, secret, batch } = await accountWithNewMarks(1);
  receiver.secret = secret;
  const [job] = alertEventsOf(accountId, batch, [], new Date());
  expect(job).toBeUndefined();
  const alerts = [
    {
      accountId,
      alertId: alertIdOf(batch, 'SKU-1'),
      itemId: 'SKU-1',
      title: 'a title',
      oldRisk: '低' as const,
      newRisk: '高' as const,
      oldTopConflict: '',
      topConflict: 'X',
      troHit: false,
      batchId: batch.batchId,
      market: 'US',
      dataAsOf: batch.dataAsOf,
      createdAt: new Date().toISOString(),
      acknowledged: false,
    },
  ];
  const event = alertEventsOf(accountId, batch, alerts, new Date())[0]!;

  const first = await deliverEvent(webhooks, event, settings());
  const repeated = await deliverEvent(webhooks, event, settings());
  await webhooks.remove(accountId);
  const afterRemoval = await deliverEvent(webhooks, { ...event, eventId: 'evt_000000000000000000000000' }, settings());

  expect([first, repeated, afterRemoval]).toEqual(['delivered', 'duplicate', 'no_webhook']);
  expect(receiver.received).toHaveLength(1);
});

it('never waits for a receiver: the re-screen ends while the delivery is still held', async () => {
  const { accountId, secret, batch } = await accountWithNewMarks(1);
  receiver.secret = secret;
  receiver.script = ['hold'];
  const { dispatch } = dispatcher();

  const { outcome } = await rescreenWith(dispatch, batch);
  const deliveredBeforeRelease = receiver.received.length;
  receiver.release();
  await dispatch.idle();

  expect(outcome.complete).toBe(true);
  expect((await watch.listAlerts(accountId)).map((a) => a.alertId)).toEqual([alertIdOf(batch, 'SKU-1')]);
  expect(deliveredBeforeRelease).toBe(0);
  expect(receiver.received.map((r) => r.valid)).toEqual([true]);
});

it('a hand-over that fails is reported and the re-screen still completes, its alerts recorded', async () => {
  const { accountId, batch } = await accountWithNewMarks(1);
  const broken = {
    dispatch: async () => {
      throw new Error('the bus refused the event');
    },
  };
  const failures: unknown[] = [];

  const outcome = await rescreenWatched({ store: watch, screening: screening() }, batch, {
    ...OPTIONS,
    handOver: alertWebhooks({ webhooks, dispatch: broken }),
    onHandOverError: (error) => failures.push(error),
  });

  expect(outcome.complete).toBe(true);
  expect(failures).toEqual([new Error('the bus refused the event')]);
  expect((await watch.listAlerts(accountId)).map((a) => a.alertId)).toEqual([alertIdOf(batch, 'SKU-1')]);
});

it('claims an event once: in progress while held, taken over once stale, finished for good', async () => {
  const { accountId } = await stack.openAccount();
  const t0 = new Date('2026-12-01T10:00:00Z');
  const later = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

  const first = await webhooks.claimDelivery(accountId, 'evt_claim', t0, 180);
  const whileHeld = await webhooks.claimDelivery(accountId, 'evt_claim', later(60), 180);
  const takenOver = await webhooks.claimDelivery(accountId, 'evt_claim', later(200), 180);
  await webhooks.finishDelivery(accountId, 'evt_claim', 'delivered', later(210));
  const afterFinish = await webhooks.claimDelivery(accountId, 'evt_claim', later(10_000), 180);

  expect([first, whileHeld, takenOver, afterFinish]).toEqual(['claimed', 'in_progress', 'claimed', 'finished']);
});

it('two first PUTs racing: every secret shown is the one stored', async () => {
  const { accountId } = await stack.openAccount();
  const set = (path: string) =>
    setWebhook(
      webhooks,
      accountId,
      { url: `${receiver.origin}/${path}`, rotateSecret: false },
      { now: new Date(), urlRules: { allowAddress: receiver.allowAddress } },
    );

  const answers = await Promise.all([set('a'), set('b'), set('c')]);
  const stored = await webhooks.get(accountId);

  const shown = answers.map((a) => a.secret).filter((s) => s !== undefined);
  expect(shown).toEqual([stored!.secret]);
  expect(answers.map((a) => a.webhook.secret)).toEqual([stored!.secret, stored!.secret, stored!.secret]);
});
