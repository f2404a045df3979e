/**
 * An account's webhook and the events it is sent: what is stored, what a client sees, and how alerts become events.
 * One webhook per account (its HTTPS URL and signing secret). Alerts a re-screen records go out as `alerts.created`
 * events of at most MAX_ALERTS_PER_EVENT alerts, each with an id a receiver can deduplicate on (`Webhook-Id`).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { BatchCompleted } from '../ports';
import { alertView, type WatchAlert } from '../watch/alerts';
import type { WebhookDeadLetter } from './deliver-webhook';

export interface Webhook {
  accountId: string;
  url: string;
  /** `whsec_` + 32 random bytes, base64url: shown once, when issued; HMAC key of every delivery. */
  secret: string;
  createdAt: string;
  updatedAt: string;
  secretIssuedAt: string;
}

/** One event ready to be delivered to an account's webhook: the body is sent and signed exactly as it stands. */
export interface WebhookJob {
  accountId: string;
  eventId: string;
  body: string;
}

/** A delivery that failed every try, kept for the account to read (GET /v1/webhook/dead-letters). */
export interface StoredDeadLetter extends WebhookDeadLetter {
  eventId: string;
}

/** Alerts per event: keeps an event (and the event that carries it in AWS) far below EventBridge's 256 KB. */
export const MAX_ALERTS_PER_EVENT = 50;
/** How long dead letters and delivery claims are kept. */
export const DEAD_LETTER_DAYS = 30;
export const DELIVERY_CLAIM_DAYS = 7;

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** What GET /v1/webhook shows: never the secret. */
export function webhookView(webhook: Webhook): Record<string, unknown> {
  return {
    url: webhook.url,
    created_at: webhook.createdAt,
    updated_at: webhook.updatedAt,
    secret_issued_at: webhook.secretIssuedAt,
  };
}

export function deadLetterView(entry: StoredDeadLetter): Record<string, unknown> {
  let payload: unknown;
  try {
    payload = JSON.parse(entry.body);
  } catch {
    payload = entry.body;
  }
  return {
    id: entry.eventId,
    url: entry.url,
    attempts: entry.attempts,
    last_error: entry.lastError,
    ...(entry.lastStatus !== undefined ? { last_status: entry.lastStatus } : {}),
    failed_at: entry.failedAt,
    payload,
  };
}

/** `evt_` + 24 hex of a hash of what identifies the event: the same alerts of one batch give the same id. */
function eventIdOf(...parts: string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\u0000');
  return `evt_${hash.digest('hex').slice(0, 24)}`;
}

/** One `alerts.created` event and the alerts it carries (the hand-over clears their marks once it is dispatched). */
export interface AlertEvent {
  job: WebhookJob;
  alerts: WatchAlert[];
}

/**
 * The `alerts.created` events of one account for alerts of one batch, in alert-id order, MAX_ALERTS_PER_EVENT at a
 * time. An event's id is derived from the account, the batch id and its alerts' ids only (never the time): the same
 * alerts handed over again make the same event, which the deliverer's claim drops (./deliver-event.ts).
 */
export function alertEventsWithAlertsOf(
  accountId: string,
  batch: BatchCompleted,
  alerts: readonly WatchAlert[],
  now: Date,
): AlertEvent[] {
  const sorted = [...alerts].sort((a, b) => (a.alertId < b.alertId ? -1 : a.alertId > b.alertId ? 1 : 0));
  const events: AlertEvent[] = [];
  for (let start = 0; start < sorted.length; start += MAX_ALERTS_PER_EVENT) {
    const chunk = sorted.slice(start, start + MAX_ALERTS_PER_EVENT);
    const eventId = eventIdOf(accountId, batch.batchId, ...chunk.map((a) => a.alertId));
    const body = JSON.stringify({
      id: eventId,
      type: 'alerts.created',
      created_at: now.toISOString(),
      data: {
        batch: { id: batch.batchId, market: batch.market, kind: batch.kind, data_as_of: batch.dataAsOf },
        alerts: chunk.map(alertView),
      },
    });
    events.push({ job: { accountId, eventId, body }, alerts: chunk });
  }
  return events;
}

/** The events alone (./alert-webhooks.ts dispatches them with their alerts). */
export function alertEventsOf(
  accountId: string,
  batch: BatchCompleted,
  alerts: readonly WatchAlert[],
  now: Date,
): WebhookJob[] {
  return alertEventsWithAlertsOf(accountId, batch, alerts, now).map((event) => event.job);
}

/** The event of a test delivery (POST /v1/webhook/test): a fresh id each time, no alerts. */
export function testEventOf(accountId: string, now: Date): WebhookJob {
  const eventId = eventIdOf(accountId, 'test', now.toISOString(), randomBytes(8).toString('hex'));
  return {
    accountId,
    eventId,
    body: JSON.stringify({ id: eventId, type: 'webhook.test', created_at: now.toISOString(), data: {} }),
  };
}
