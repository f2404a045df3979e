/**
 * The pure parts of webhooks: which URLs may be a webhook (before any DNS query), how alerts become events (at most
 * MAX_ALERTS_PER_EVENT each, every alert in exactly one, ids stable for the same alerts at any time), and what a
 * client sees.
 */
import fc from 'fast-check';
import type { WatchAlert } from '../../../shared/watch/alerts';
import { checkWebhookUrl, WebhookUrlRefusedError } from '../../../shared/webhooks/deliver-webhook';
import {
  alertEventsOf,
  deadLetterView,
  MAX_ALERTS_PER_EVENT,
  newWebhookSecret,
  testEventOf,
  webhookView,
} from '../../../shared/webhooks/webhook';

const BATCH = { market: 'US', kind: 'marks', batchId: '2026-11-21#apc261121.zip', dataAsOf: '2026-11-21' };

function alert(n: number): WatchAlert {
  return {
    accountId: 'acc_1',
    alertId: `al_20261121_${String(n).padStart(20, '0')}`,
    itemId: `SKU-${n}`,
    title: `title ${n}`,
    oldRisk: '低',
    newRisk: '高',
    oldTopConflict: '',
    topConflict: 'QUINTARO',
    troHit: n % 2 === 0,
    ...(n % 2 === 0 ? { troCase: '1:26-cv-00001' } : {}),
    batchId: BATCH.batchId,
    market: 'US',
    dataAsOf: BATCH.dataAsOf,
    createdAt: '2026-11-21T10:00:00.000Z',
    acknowledged: false,
  };
}

describe('checkWebhookUrl', () => {
  it.each([
    ['http://example.com/hooks', /must be https/],
    ['https://example.com:8443/hooks', /port 8443/],
    ['https://example.com:80/hooks', /port 80/],
    ['https://user:pass@example.com/hooks', /./],
    ['https://localhost/hooks', /./],
    ['https://10.1.2.3/hooks', /private/],
    ['https://169.254.169.254/latest/meta-data', /link-local/],
    ['https://[::ffff:127.0.0.1]/hooks', /./],
    ['ftp://example.com/hooks', /./],
  ])('refuses %s as url_not_allowed (400)', (url, reason) => {
    let refused: unknown;
    try {
      checkWebhookUrl(url);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(WebhookUrlRefusedError);
    expect(refused).toMatchObject({ status: 400, code: 'url_not_allowed' });
    expect((refused as Error).message).toMatch(reason);
  });

  it('accepts https on 443 (given or implied) to a host name, and a test receiver only when allowed', () => {
    expect(checkWebhookUrl('https://hooks.example.com/alerts').hostname).toBe('hooks.example.com');
    expect(checkWebhookUrl('https://hooks.example.com:443/alerts').port).toBe('');
    expect(() => checkWebhookUrl('https://127.0.0.1:9443/hooks')).toThrow(WebhookUrlRefusedError);
    const allowAddress = (address: string, port: number) => address === '127.0.0.1' && port === 9443;
    expect(checkWebhookUrl('https://127.0.0.1:9443/hooks', { allowAddress }).port).toBe('9443');
  });
});

describe('alertEventsOf', () => {
  it('puts every alert in exactly one event of at most MAX_ALERTS_PER_EVENT, in id order, ids stable', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 100_000 }), { maxLength: 3 * MAX_ALERTS_PER_EVENT }),
        (ns) => {
          const alerts = ns.map(alert);
          const now = new Date('2026-11-21T10:00:00Z');

          const events = alertEventsOf('acc_1', BATCH, alerts, now);
          // Handed over again later (a retried run): the same alerts make the same events, whatever the time.
          const again = alertEventsOf('acc_1', BATCH, [...alerts].reverse(), new Date('2026-11-22T08:30:00Z'));

          expect(events).toHaveLength(Math.ceil(alerts.length / MAX_ALERTS_PER_EVENT));
          const ids = events.flatMap((e) => JSON.parse(e.body).data.alerts.map((a: { id: string }) => a.id));
          expect(ids).toEqual(alerts.map((a) => a.alertId).sort());
          for (const event of events) {
            const body = JSON.parse(event.body);
            expect(body.data.alerts.length).toBeLessThanOrEqual(MAX_ALERTS_PER_EVENT);
            expect(body).toMatchObject({ id: event.eventId, type: 'alerts.created' });
            expect(event.eventId).toMatch(/^evt_[0-9a-f]{24}$/);
          }
          expect(again.map((e) => e.eventId)).toEqual(events.map((e) => e.eventId));
          expect(new Set(events.map((e) => e.eventId)).size).toBe(events.length);
        },
      ),
    );
  });

  it('shows each alert as GET /v1/alerts does, with the batch it came from', () => {
    const [event] = alertEventsOf('acc_1', BATCH, [alert(2)], new Date('2026-11-21T10:00:00Z'));

    expect(JSON.parse(event!.body)).toEqual({
      id: event!.eventId,
      type: 'alerts.created',
      created_at: '2026-11-21T10:00:00.000Z',
      data: {
        batch: { id: BATCH.batchId, market: 'US', kind: 'marks', data_as_of: '2026-11-21' },
        alerts: [
          {
            id: alert(2).alertId,
            item_id: 'SKU-2',
            title: 'title 2',
            old_risk: '低',
            new_risk: '高',
            old_top_conflict: '',
            top_conflict: 'QUINTARO',
            tro_hit: true,
            tro_case: '1:26-cv-00001',
            market: 'US',
            data_as_of: '2026-11-21',
            created_at: '2026-11-21T10:00:00.000Z',
            acknowledged: false,
          },
        ],
      },
    });
  });
});

it('never shows the secret in the webhook view; secrets and test events are fresh each time', () => {
  const secret = newWebhookSecret();
  const webhook = {
    accountId: 'acc_1',
    url: 'https://hooks.example.com/a',
    secret,
    createdAt: 'c',
    updatedAt: 'u',
    secretIssuedAt: 's',
  };

  expect(JSON.stringify(webhookView(webhook))).not.toContain(secret);
  expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  expect(newWebhookSecret()).not.toBe(secret);
  const now = new Date();
  expect(testEventOf('acc_1', now).eventId).not.toBe(testEventOf('acc_1', now).eventId);
  expect(
    deadLetterView({
      accountId: 'acc_1',
      eventId: 'evt_1',
      url: 'u',
      body: '{"id":"evt_1"}',
      attempts: 5,
      lastError: 'answered 503',
      lastStatus: 503,
      failedAt: 'f',
    }),
  ).toEqual({
    id: 'evt_1',
    url: 'u',
    attempts: 5,
    last_error: 'answered 503',
    last_status: 503,
    failed_at: 'f',
    payload: { id: 'evt_1' },
  });
});
