/**
 * How a webhook delivery is signed, and how a receiver checks it. The sender puts two headers on each POST:
 *   `Webhook-Timestamp`: the sending time, whole seconds since the Unix epoch;
 *   `Webhook-Signature`: `v1=` + hex HMAC-SHA256, keyed with the webhook's secret, over `<timestamp>.<raw body>`.
 * A receiver recomputes the HMAC over the bytes it received (before parsing them), compares in constant time, and
 * refuses a timestamp more than REPLAY_WINDOW_SECONDS from its own clock: a captured delivery replayed later fails.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'Webhook-Signature';
export const TIMESTAMP_HEADER = 'Webhook-Timestamp';
/** How far a delivery's timestamp may stand from the receiver's clock, either way. */
export const REPLAY_WINDOW_SECONDS = 300;

export function signatureOf(secret: string, timestamp: number, body: string | Buffer): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')}`;
}

/** The headers of one delivery of `body`, sent at `now`. */
export function signedHeaders(secret: string, body: string, now: Date): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return { [TIMESTAMP_HEADER]: String(timestamp), [SIGNATURE_HEADER]: signatureOf(secret, timestamp, body) };
}

export type Verdict = { valid: true } | { valid: false; reason: 'malformed' | 'stale' | 'signature' };

/** A receiver's check of one delivery: the raw body as received, the two headers, its own clock. */
export function verifyDelivery(
  secret: string,
  delivery: { body: string | Buffer; timestamp: string | undefined; signature: string | undefined },
  now: Date,
  windowSeconds = REPLAY_WINDOW_SECONDS,
): Verdict {
  if (!delivery.timestamp || !/^\d{1,12}$/.test(delivery.timestamp) || !delivery.signature?.startsWith('v1='))
    return { valid: false, reason: 'malformed' };
  const timestamp = Number(delivery.timestamp);
  if (Math.abs(now.getTime() / 1000 - timestamp) > windowSeconds) return { valid: false, reason: 'stale' };
  const expected = Buffer.from(signatureOf(secret, timestamp, delivery.body));
  const given = Buffer.from(delivery.signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given))
    return { valid: false, reason: 'signature' };
  return { valid: true };
}
