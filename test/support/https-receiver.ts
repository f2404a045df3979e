/**
 * A webhook receiver over real HTTPS on loopback, for the webhook tests: its certificate is made here with openssl
 * (self-signed, for 127.0.0.1), and is trusted only by deliveries that are given `ca` explicitly. The receiver checks
 * each delivery's signature and timestamp with the secret it holds, as the docs tell receivers to (verifyDelivery),
 * and answers 204 or 401; a scripted step can make it answer 503 or hold the answer back first.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { DeliverySettings } from '../../shared/webhooks/deliver-event';
import { EVENT_ID_HEADER } from '../../shared/webhooks/deliver-webhook';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, verifyDelivery } from '../../shared/webhooks/signature';

export interface ReceivedDelivery {
  /** Whether the signature and timestamp checked out with the receiver's secret. */
  valid: boolean;
  eventId: string | undefined;
  body: string;
}

export interface HttpsReceiver {
  /** `https://127.0.0.1:<port>` */
  origin: string;
  /** The receiver's certificate (PEM): the CA a delivery must be told to trust. */
  ca: string;
  /** Only the loopback receiver passes as a public address (the URL rules' test waiver). */
  allowAddress: (address: string, port: number) => boolean;
  /** The secret the receiver verifies with (set once the webhook's secret is known). */
  secret: string;
  /** What the receiver does with the next requests, in turn: fail answers 503; hold waits for release(). */
  script: ('fail' | 'hold')[];
  /** Verified deliveries, in order (a `fail` step records nothing). */
  received: ReceivedDelivery[];
  /** Every request that reached the receiver, failed or not. */
  requests: number;
  release(): void;
  /** Forgets the script, the deliveries and the request count (between tests). */
  reset(): void;
  /** What a deliverer needs to reach this receiver: trust in its certificate, its loopback address, no real waits. */
  deliverySettings(sleep?: (ms: number) => Promise<void>): DeliverySettings;
  close(): Promise<void>;
}

export async function startHttpsReceiver(): Promise<HttpsReceiver> {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'webhook-receiver-'));
  const keyFile = path.join(folder, 'key.pem');
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
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  const ca = readFileSync(certFile, 'utf8');
  let releaseHeld: (() => void)[] = [];
  const receiver: HttpsReceiver = {
    origin: '',
    ca,
    allowAddress: (address) => address === '127.0.0.1',
    secret: '',
    script: [],
    received: [],
    requests: 0,
    release: () => {
      for (const release of releaseHeld) release();
      releaseHeld = [];
    },
    reset: () => {
      receiver.script = [];
      receiver.received.length = 0;
      receiver.requests = 0;
    },
    deliverySettings: (sleep = async () => {}) => ({ trustedCa: ca, allowAddress: receiver.allowAddress, sleep }),
    close: async () => {
      receiver.release();
      await new Promise((resolve) => server.close(resolve));
      rmSync(folder, { recursive: true, force: true });
    },
  };
  const server = https.createServer({ key: readFileSync(keyFile), cert: ca }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      receiver.requests += 1;
      const step = receiver.script.shift();
      if (step === 'hold') await new Promise<void>((resolve) => releaseHeld.push(resolve));
      if (step === 'fail') {
        response.writeHead(503).end();
        return;
      }
      const body = Buffer.concat(chunks).toString('utf8');
      const header = (name: string) => request.headers[name.toLowerCase()] as string | undefined;
      const verdict = verifyDelivery(
        receiver.secret,
        { body, timestamp: header(TIMESTAMP_HEADER), signature: header(SIGNATURE_HEADER) },
        new Date(),
      );
      receiver.received.push({ valid: verdict.valid, eventId: header(EVENT_ID_HEADER), body });
      response.writeHead(verdict.valid ? 204 : 401).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
