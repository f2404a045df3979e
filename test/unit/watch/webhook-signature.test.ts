/** Webhook signatures: what a sender puts on a delivery verifies on the receiver's side, and nothing else does. */
import {
  REPLAY_WINDOW_SECONDS,
  SIGNATURE_HEADER,
  signedHeaders,
  TIMESTAMP_HEADER,
  verifyDelivery,
} from '../../../shared/webhooks/signature';

const SECRET = 'whsec_test_5c1f0e9a7b3d';
const BODY = JSON.stringify({ type: 'alert', alert: { id: 'al_20261121_0123456789abcdef0123', new_risk: '高' } });
const SENT = new Date('2026-11-21T10:00:00Z');

const delivery = (headers: Record<string, string>, body: string = BODY) => ({
  body,
  timestamp: headers[TIMESTAMP_HEADER],
  signature: headers[SIGNATURE_HEADER],
});

it('verifies a delivery signed with the secret, within the replay window', () => {
  const headers = signedHeaders(SECRET, BODY, SENT);

  expect(headers[TIMESTAMP_HEADER]).toBe(String(SENT.getTime() / 1000));
  expect(headers[SIGNATURE_HEADER]).toMatch(/^v1=[0-9a-f]{64}$/);
  expect(verifyDelivery(SECRET, delivery(headers), new Date(SENT.getTime() + 60_000))).toEqual({ valid: true });
});

it('refuses another secret, a changed body, a changed timestamp and a missing header', () => {
  const headers = signedHeaders(SECRET, BODY, SENT);
  const now = SENT;

  expect(verifyDelivery('whsec_other', delivery(headers), now)).toEqual({ valid: false, reason: 'signature' });
  expect(verifyDelivery(SECRET, delivery(headers, BODY.replace('高', '低')), now)).toEqual({
    valid: false,
    reason: 'signature',
  });
  const moved = { ...headers, [TIMESTAMP_HEADER]: String(Number(headers[TIMESTAMP_HEADER]) + 1) };
  expect(verifyDelivery(SECRET, delivery(moved), now)).toEqual({ valid: false, reason: 'signature' });
  expect(
    verifyDelivery(SECRET, { body: BODY, timestamp: undefined, signature: headers[SIGNATURE_HEADER] }, now),
  ).toEqual({ valid: false, reason: 'malformed' });
});

it('refuses a replay outside the window, either way', () => {
  const headers = signedHeaders(SECRET, BODY, SENT);
  const late = new Date(SENT.getTime() + (REPLAY_WINDOW_SECONDS + 1) * 1000);
  const early = new Date(SENT.getTime() - (REPLAY_WINDOW_SECONDS + 1) * 1000);

  expect(verifyDelivery(SECRET, delivery(headers), late)).toEqual({ valid: false, reason: 'stale' });
  expect(verifyDelivery(SECRET, delivery(headers), early)).toEqual({ valid: false, reason: 'stale' });
});
