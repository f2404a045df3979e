/**
 * Webhook delivery over real HTTPS: a local receiver (node:https) with a self-signed certificate made here with
 * openssl, trusted by the deliverer only through its explicit `trustedCa` option. The receiver checks each delivery's
 * signature and timestamp as the docs tell receivers to. Covered: a good delivery, a receiver that refuses a bad
 * signature, one that fails twice then succeeds, one that always fails (the dead letters), an unknown CA, and the
 * URL rules (https only; loopback refused unless a test allows it).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  deliverWebhook,
  type WebhookDeadLetter,
  WebhookUrlRefusedError,
} from '../../../shared/webhooks/deliver-webhook';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, verifyDelivery } from '../../../shared/webhooks/signature';

const SECRET = 'whsec_receiver_test_8d2c';
const folder = mkdtempSync(path.join(os.tmpdir(), 'webhook-tls-'));
let cert: string;
let server: https.Server;
let origin: string;
/** What the receiver does with the next requests, in turn; 'verify' checks the signature and answers 204 or 401. */
let script: ('fail' | 'verify')[] = [];
const received: { valid: boolean; body: string }[] = [];

beforeAll(async () => {
  const key = path.join(folder, 'key.pem');
  const certFile = path.join(folder, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  cert = readFileSync(certFile, 'utf8');
  server = https.createServer({ key: readFileSync(key), cert }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const step = script.shift() ?? 'verify';
      if (step === 'fail') {
        response.writeHead(503).end();
        return;
      }
      const verdict = verifyDelivery(
        SECRET,
        {
          body,
          timestamp: request.headers[TIMESTAMP_HEADER.toLowerCase()] as string | undefined,
          signature: request.headers[SIGNATURE_HEADER.toLowerCase()] as string | undefined,
        },
        new Date(),
      );
      received.push({ valid: verdict.valid, body });
      response.writeHead(verdict.valid ? 204 : 401).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  rmSync(folder, { recursive: true, force: true });
});

beforeEach(() => {
  script = [];
  received.length = 0;
});

const BODY = JSON.stringify({ type: 'alert', alert: { id: 'al_20261121_aaaaaaaaaaaaaaaaaaaa', new_risk: '高' } });
const loopback = (address: string) => address === '127.0.0.1';

function options(deadLetters: WebhookDeadLetter[], extra: Partial<Parameters<typeof deliverWebhook>[2]> = {}) {
  const waits: number[] = [];
  return {
    waits,
    options: {
      deadLetters: { record: async (entry: WebhookDeadLetter) => void deadLetters.push(entry) },
      trustedCa: cert,
      allowAddress: loopback,
      attempts: 4,
      baseDelayMs: 100,
      sleep: async (ms: number) => void waits.push(ms),
      ...extra,
    },
  };
}

it('delivers a signed alert the receiver verifies, in one try', async () => {
  const dead: WebhookDeadLetter[] = [];

  const outcome = await deliverWebhook(
    { accountId: 'a1', url: `${origin}/hooks`, secret: SECRET },
    BODY,
    options(dead).options,
  );

  expect(outcome).toEqual({ delivered: true, attempts: 1, status: 204 });
  expect(received).toEqual([{ valid: true, body: BODY }]);
  expect(dead).toEqual([]);
});

it('a receiver refuses a delivery signed with another secret; retried, it ends in the dead letters', async () => {
  const dead: WebhookDeadLetter[] = [];

  const outcome = await deliverWebhook(
    { accountId: 'a1', url: `${origin}/hooks`, secret: 'whsec_wrong' },
    BODY,
    options(dead).options,
  );

  expect(received.map((r) => r.valid)).toEqual([false, false, false, false]);
  expect(outcome).toMatchObject({ delivered: false, attempts: 4, status: 401 });
  expect(dead).toEqual([
    expect.objectContaining({ accountId: 'a1', body: BODY, attempts: 4, lastError: 'answered 401' }),
  ]);
});

it('retries with exponential backoff a receiver that fails twice, then succeeds', async () => {
  const dead: WebhookDeadLetter[] = [];
  script = ['fail', 'fail', 'verify'];
  const { options: o, waits } = options(dead);

  const outcome = await deliverWebhook({ accountId: 'a1', url: `${origin}/hooks`, secret: SECRET }, BODY, o);

  expect(outcome).toEqual({ delivered: true, attempts: 3, status: 204 });
  expect(waits).toHaveLength(2);
  expect(waits[0]).toBeGreaterThanOrEqual(50);
  expect(waits[0]).toBeLessThanOrEqual(100);
  expect(waits[1]).toBeGreaterThanOrEqual(100);
  expect(waits[1]).toBeLessThanOrEqual(200);
  expect(dead).toEqual([]);
});

it('puts a delivery to a receiver that always fails in the dead letters after the last try', async () => {
  const dead: WebhookDeadLetter[] = [];
  script = ['fail', 'fail', 'fail', 'fail'];

  const outcome = await deliverWebhook(
    { accountId: 'a2', url: `${origin}/hooks`, secret: SECRET },
    BODY,
    options(dead).options,
  );

  expect(outcome).toMatchObject({ delivered: false, attempts: 4, error: 'answered 503' });
  expect(dead).toEqual([expect.objectContaining({ accountId: 'a2', url: `${origin}/hooks`, attempts: 4 })]);
});

it('verifies the certificate: without the test CA the delivery fails, it is never sent unverified', async () => {
  const dead: WebhookDeadLetter[] = [];
  const { trustedCa: _ca, ...withoutCa } = options(dead, { attempts: 1 }).options;

  const outcome = await deliverWebhook({ accountId: 'a3', url: `${origin}/hooks`, secret: SECRET }, BODY, withoutCa);

  expect(outcome.delivered).toBe(false);
  expect(outcome.error).toMatch(/certificate/i);
  expect(received).toEqual([]);
});

it('refuses a URL that is not https, and a loopback receiver unless a test allows it', async () => {
  const dead: WebhookDeadLetter[] = [];
  const { allowAddress: _allow, ...production } = options(dead).options;

  await expect(
    deliverWebhook({ accountId: 'a4', url: 'http://example.com/hooks', secret: SECRET }, BODY, production),
  ).rejects.toThrow(WebhookUrlRefusedError);
  await expect(
    deliverWebhook({ accountId: 'a4', url: `${origin}/hooks`, secret: SECRET }, BODY, production),
  ).rejects.toThrow(WebhookUrlRefusedError);
  expect(received).toEqual([]);
});
