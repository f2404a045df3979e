/**
 * Delivers one signed webhook payload to an account's HTTPS endpoint.
 * Input: the endpoint (url, secret), the JSON body, options. Output: delivered or not, after how many tries.
 *   1. The URL must be https, and pass the image-URL rules (shared/imaging: port 443, no credentials, no local name,
 *      every resolved address public); the connection goes to the checked address itself (no DNS rebinding).
 *   2. POST the body with a fresh timestamp and signature (./signature.ts) each try; a 2xx is delivered. Redirects
 *      are not followed (a receiver answers where it was registered).
 *   3. Otherwise wait (exponential backoff with jitter: base, 2 x base, 4 x base ..., capped) and try again, up to
 *      `attempts` tries; after the last, the delivery goes to the dead letters (when given) with its last error.
 * A URL refused by the rules is `url_not_allowed` (400): at PUT /v1/webhook before it is stored, and at delivery
 * when its host has since moved to an address that is not public.
 * Certificates are verified against the system's roots; a test may add its own CA through `trustedCa`, explicitly,
 * and only for this delivery's connection (never NODE_TLS_REJECT_UNAUTHORIZED).
 */
import { promises as dns } from 'node:dns';
import https from 'node:https';
import net from 'node:net';
import { clipped, MAX_ECHO_CHARS, ServiceError } from '../errors';
import { classifyAddress } from '../imaging/classify-address';
import { checkUrlBeforeLookup } from '../imaging/fetch-image-safely';
import { UrlNotAllowedError } from '../imaging/image-errors';
import { signedHeaders } from './signature';

/** Names the event of a delivery; the same event delivered again carries the same id (receivers deduplicate). */
export const EVENT_ID_HEADER = 'Webhook-Id';

export interface WebhookEndpoint {
  accountId: string;
  url: string;
  secret: string;
}

export interface WebhookDeadLetter {
  accountId: string;
  url: string;
  body: string;
  attempts: number;
  lastError: string;
  /** The receiver's last answer, when it answered. */
  lastStatus?: number;
  failedAt: string;
}

/** Where deliveries that failed every try are kept: an SQS queue in AWS, a table or a list locally. */
export interface WebhookDeadLetters {
  record(entry: WebhookDeadLetter): Promise<void>;
}

export interface DeliveryOptions {
  /** Absent: a delivery that fails every try is only reported (a test delivery). */
  deadLetters?: WebhookDeadLetters;
  /** Sent as the Webhook-Id header. */
  eventId?: string;
  attempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  timeoutMs?: number;
  now?: () => Date;
  sleep?: (ms: number) => Promise<void>;
  /** Extra certificate authorities (PEM) trusted for this delivery: tests with their own CA only. */
  trustedCa?: string;
  /** Tests only, as for image URLs: lets a loopback receiver count as public. */
  allowAddress?: (address: string, port: number) => boolean;
}

export interface DeliveryOutcome {
  delivered: boolean;
  attempts: number;
  status?: number;
  error?: string;
}

export class WebhookUrlRefusedError extends ServiceError {
  readonly status = 400;
  readonly code = 'url_not_allowed';
  constructor(fullReason: string) {
    const reason = clipped(fullReason, 4 * MAX_ECHO_CHARS);
    super(
      {
        en: `This webhook url is refused: ${reason}. Use a public https address on port 443.`,
        zh: `该 webhook url 被拒绝：${reason}。请使用端口为 443 的公开 https 地址。`,
      },
      { reason },
    );
  }
}

export const DEFAULT_ATTEMPTS = 5;

/** Refuses a webhook URL that is not https on 443 or breaks the image-URL rules (before any DNS query). */
export function checkWebhookUrl(url: string, options: Pick<DeliveryOptions, 'allowAddress'> = {}): URL {
  let parsed: URL;
  try {
    parsed = checkUrlBeforeLookup(url, options);
  } catch (error) {
    if (error instanceof UrlNotAllowedError) throw new WebhookUrlRefusedError(String(error.details?.reason));
    throw error;
  }
  if (parsed.protocol !== 'https:') throw new WebhookUrlRefusedError('a webhook URL must be https');
  // The image rules let port 80 through (for http); a webhook is https on 443 only (a test may allow its receiver).
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (parsed.port && parsed.port !== '443' && !options.allowAddress?.(host, Number(parsed.port)))
    throw new WebhookUrlRefusedError(`port ${parsed.port} is not allowed`);
  return parsed;
}

/**
 * The whole check of a webhook URL before it is stored: its shape, then every address its host resolves to.
 * A host that does not resolve is refused too (nothing could be delivered to it).
 */
export async function checkWebhookTarget(
  url: string,
  options: Pick<DeliveryOptions, 'allowAddress'> = {},
): Promise<URL> {
  const parsed = checkWebhookUrl(url, options);
  try {
    await publicAddressOf(parsed, options.allowAddress);
  } catch (error) {
    if (error instanceof WebhookUrlRefusedError) throw error;
    throw new WebhookUrlRefusedError(`the host ${parsed.hostname} does not resolve`);
  }
  return parsed;
}

async function publicAddressOf(url: URL, allowAddress: DeliveryOptions['allowAddress']): Promise<string> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || 443);
  const addresses = net.isIP(host)
    ? [host]
    : (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  for (const address of addresses) {
    if (allowAddress?.(address, port)) continue;
    const verdict = classifyAddress(address);
    if (!verdict.isPublic) throw new WebhookUrlRefusedError(`the webhook host resolves to ${verdict.reason}`);
  }
  if (!addresses[0]) throw new WebhookUrlRefusedError('the webhook host has no address');
  return addresses[0];
}

function post(url: URL, address: string, body: string, headers: Record<string, string>, options: DeliveryOptions) {
  return new Promise<number>((resolve, reject) => {
    const request = https.request(
      {
        host: url.hostname,
        port: url.port || 443,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        servername: net.isIP(url.hostname) ? undefined : url.hostname,
        lookup: (_host, _opts, callback) => callback(null, address, net.isIP(address)),
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers },
        timeout: options.timeoutMs ?? 5000,
        ...(options.trustedCa ? { ca: options.trustedCa } : {}),
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', reject);
    request.end(body);
  });
}

export async function deliverWebhook(
  endpoint: WebhookEndpoint,
  body: string,
  options: DeliveryOptions,
): Promise<DeliveryOutcome> {
  const now = options.now ?? (() => new Date());
  const sleep = options.sleep ?? ((ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const attempts = options.attempts ?? DEFAULT_ATTEMPTS;
  const base = options.baseDelayMs ?? 1000;
  const cap = options.maxDelayMs ?? 60_000;
  const url = checkWebhookUrl(endpoint.url, options);
  let lastError = '';
  let status: number | undefined;
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    try {
      const address = await publicAddressOf(url, options.allowAddress);
      const headers = {
        ...signedHeaders(endpoint.secret, body, now()),
        ...(options.eventId ? { [EVENT_ID_HEADER]: options.eventId } : {}),
      };
      status = await post(url, address, body, headers, options);
      if (status >= 200 && status < 300) return { delivered: true, attempts: attempt, status };
      lastError = `answered ${status}`;
    } catch (error) {
      if (error instanceof WebhookUrlRefusedError) throw error;
      status = undefined;
      lastError = (error as Error).message;
    }
    if (attempt < attempts) {
      const ceiling = Math.min(cap, base * 2 ** (attempt - 1));
      await sleep(Math.round(ceiling / 2 + Math.random() * (ceiling / 2)));
    }
  }
  await options.deadLetters?.record({
    accountId: endpoint.accountId,
    url: endpoint.url,
    body,
    attempts,
    lastError,
    ...(status ? { lastStatus: status } : {}),
    failedAt: now().toISOString(),
  });
  return { delivered: false, attempts, ...(status ? { status } : {}), error: lastError };
}
