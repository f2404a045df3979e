/**
 * Fetches the image behind a client's `url` without letting the client aim our network access at anything but the
 * public internet (server-side request forgery).
 *
 * Input: a URL and optional limits. Output: the image bytes.
 * 1. Check the URL for its shape alone (`checkUrlBeforeLookup`): http or https, port 80 or 443 (explicit or implied),
 *    no user:password part, not a localhost name, and an IP literal must be a public address.
 * 2. Resolve a host name and check EVERY address; one refused address refuses the URL, since we cannot know which
 *    one a later connection would pick.
 * 3. Connect to the checked address itself: the socket's DNS lookup is replaced by one that answers with it, while the
 *    Host header and the TLS server name stay those of the URL. A DNS answer that changes between the check and the
 *    connection (rebinding) therefore cannot redirect the request.
 * 4. A redirect (at most 3) goes back to step 1 with its Location resolved against the current URL.
 * 5. A 2xx answer must declare an image/* content type, no content encoding, and at most `maxBytes`; the body is
 *    streamed and the request aborted as soon as it passes the cap. One timer covers every step, DNS included.
 *
 * A refused URL is `url_not_allowed` (400) and no request is sent; anything that goes wrong once a request may be
 * sent (time, status, size, type, connection) is `url_fetch_failed` (422). Step 1 needs no network, so request
 * validation runs it too: a URL refused for its shape is refused before the call is charged.
 */
import { promises as dns } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { classifyAddress, sameAddress } from './classify-address';
import type { Socket } from 'node:net';
import { UrlFetchFailedError, UrlNotAllowedError } from './image-errors';
import { MAX_IMAGE_BYTES } from './image-input';

export interface ResolvedAddress {
  address: string;
  family: number;
}

export interface FetchImageOptions {
  /** How host names become addresses; `dns.promises.lookup(host, { all: true })` unless given. */
  resolve?: (host: string) => Promise<ResolvedAddress[]>;
  /**
   * For tests only: lets a loopback test server count as public. Returning true for an address and port waives both
   * the address and the port rules for that pair. Production passes nothing, so only public addresses on 80/443 pass.
   */
  allowAddress?: (address: string, port: number) => boolean;
  /** Whole fetch, DNS and redirects included. */
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
}

export const FETCH_TIMEOUT_MS = 5_000;
export const MAX_REDIRECTS = 3;
const ALLOWED_PORTS = new Set([80, 443]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const ACCEPT = 'image/png, image/jpeg, image/webp, image/gif, image/svg+xml, image/*;q=0.8';
const USER_AGENT = 'trademark-risk-api-image-fetch/1.0';

export async function fetchImageSafely(url: string, options: FetchImageOptions = {}): Promise<Buffer> {
  const timeoutMs = options.timeoutMs ?? FETCH_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? MAX_IMAGE_BYTES;
  const maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;
  const resolve = options.resolve ?? lookupAll;
  const signal = AbortSignal.timeout(timeoutMs);
  const timedOut = (): UrlFetchFailedError => new UrlFetchFailedError(`no complete answer within ${timeoutMs} ms`);

  let current = checkUrlBeforeLookup(url, options);
  for (let redirects = 0; ; redirects++) {
    const via = redirects === 0 ? '' : `the redirect to ${current.href}: `;
    const target = await checkTarget(current, resolve, options.allowAddress, signal, timedOut, via);
    const answer = await requestOnce(target, signal, maxBytes, timedOut);
    if (answer.kind === 'image') return answer.bytes;

    if (redirects >= maxRedirects) {
      throw new UrlFetchFailedError(`more than ${maxRedirects} redirects`);
    }
    let next: URL;
    try {
      next = new URL(answer.location, current);
    } catch {
      throw new UrlFetchFailedError(`the server redirected to an invalid location ${JSON.stringify(answer.location)}`);
    }
    current = checkUrlBeforeLookup(next, options, `the redirect to ${next.href}: `);
  }
}

// ---- Step 1: the URL itself --------------------------------------------------------------------------------------

/**
 * Refuses (`url_not_allowed`) what can be refused without a DNS query or a connection, and returns the parsed URL:
 * a scheme other than http or https, a user:password part, a localhost name, an IP literal outside the public
 * internet in any spelling the URL parser accepts, and a port other than 80 or 443. A host name's addresses are
 * still to be checked (step 2). `allowAddress` waives the address and port rules as it does in the fetch; with it,
 * a host name's port is left to be checked against each of its addresses. `via` prefixes the reason.
 */
export function checkUrlBeforeLookup(
  url: string | URL,
  options: Pick<FetchImageOptions, 'allowAddress'> = {},
  via = '',
): URL {
  const parsed = typeof url === 'string' ? parseAbsoluteUrl(url) : url;
  checkUrlShape(parsed, via);
  const hostname = bareHostname(parsed);
  const port = portOf(parsed);
  const refusePort = (): never => {
    throw new UrlNotAllowedError(`${via}port ${port} is not 80 or 443`);
  };
  if (net.isIP(hostname) === 0) {
    if (!options.allowAddress && !ALLOWED_PORTS.has(port)) refusePort();
    return parsed;
  }
  if (options.allowAddress?.(hostname, port)) return parsed;
  const verdict = classifyAddress(hostname);
  if (!verdict.isPublic) throw new UrlNotAllowedError(`${via}${hostname} is ${verdict.reason}`);
  if (!ALLOWED_PORTS.has(port)) refusePort();
  return parsed;
}

function parseAbsoluteUrl(text: string): URL {
  try {
    return new URL(text);
  } catch {
    throw new UrlNotAllowedError('it is not an absolute URL');
  }
}

function checkUrlShape(url: URL, via: string): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UrlNotAllowedError(`${via}the scheme ${url.protocol.replace(/:$/, '')} is not http or https`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new UrlNotAllowedError(`${via}the URL carries a user name or password`);
  }
  const name = bareHostname(url).toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) {
    throw new UrlNotAllowedError(`${via}${name} names this machine`);
  }
}

function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/** `new URL('http://[::1]/').hostname` keeps the brackets; sockets and the address rules want them off. */
function bareHostname(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

// ---- Step 2: every address -----------------------------------------------------------------------------------------

interface CheckedTarget {
  url: URL;
  hostname: string;
  port: number;
  address: string;
  family: 4 | 6;
}

/** `url` has passed `checkUrlBeforeLookup` with the same `allowAddress`: an IP literal needs nothing more. */
async function checkTarget(
  url: URL,
  resolve: (host: string) => Promise<ResolvedAddress[]>,
  allowAddress: FetchImageOptions['allowAddress'],
  signal: AbortSignal,
  timedOut: () => Error,
  via: string,
): Promise<CheckedTarget> {
  const hostname = bareHostname(url);
  const port = portOf(url);
  const familyOf = (address: string): 4 | 6 => (net.isIP(address) === 6 ? 6 : 4);
  if (net.isIP(hostname) !== 0) return { url, hostname, port, address: hostname, family: familyOf(hostname) };

  const addresses = await resolveWithin(hostname, resolve, signal, timedOut);
  if (addresses.length === 0) throw new UrlFetchFailedError(`the host name ${hostname} has no address`);

  for (const { address } of addresses) {
    if (allowAddress?.(address, port)) continue;
    const verdict = classifyAddress(address);
    if (!verdict.isPublic) {
      throw new UrlNotAllowedError(`${via}${hostname} resolves to ${address}, which is ${verdict.reason}`);
    }
    if (!ALLOWED_PORTS.has(port)) throw new UrlNotAllowedError(`${via}port ${port} is not 80 or 443`);
  }
  const chosen = addresses[0]!;
  return { url, hostname, port, address: chosen.address, family: familyOf(chosen.address) };
}

async function lookupAll(host: string): Promise<ResolvedAddress[]> {
  return dns.lookup(host, { all: true, verbatim: true });
}

async function resolveWithin(
  hostname: string,
  resolve: (host: string) => Promise<ResolvedAddress[]>,
  signal: AbortSignal,
  timedOut: () => Error,
): Promise<ResolvedAddress[]> {
  if (signal.aborted) throw timedOut();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(timedOut());
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const addresses = await Promise.race([resolve(hostname), aborted]);
    return addresses.filter((entry) => net.isIP(entry.address) !== 0);
  } catch (error) {
    if (error instanceof UrlFetchFailedError) throw error;
    throw new UrlFetchFailedError(`the host name ${hostname} could not be resolved`);
  } finally {
    signal.removeEventListener('abort', onAbort!);
  }
}

// ---- Steps 3 and 5: one pinned request ---------------------------------------------------------------------------

type Answer = { kind: 'image'; bytes: Buffer } | { kind: 'redirect'; location: string };

function requestOnce(
  target: CheckedTarget,
  signal: AbortSignal,
  maxBytes: number,
  timedOut: () => Error,
): Promise<Answer> {
  return new Promise<Answer>((resolvePromise, rejectPromise) => {
    if (signal.aborted) {
      rejectPromise(timedOut());
      return;
    }
    let settled = false;
    const finish = (outcome: { answer: Answer } | { error: Error }): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      request.destroy();
      if ('answer' in outcome) resolvePromise(outcome.answer);
      else rejectPromise(outcome.error);
    };
    const fail = (reason: string): void => finish({ error: new UrlFetchFailedError(reason) });
    const onAbort = (): void => finish({ error: timedOut() });

    const { url, hostname, port, address, family } = target;
    const isLiteral = net.isIP(hostname) !== 0;
    const options: https.RequestOptions = {
      method: 'GET',
      hostname,
      port,
      path: `${url.pathname}${url.search}`,
      headers: {
        Host: url.host,
        Accept: ACCEPT,
        'Accept-Encoding': 'identity',
        'User-Agent': USER_AGENT,
        Connection: 'close',
      },
      // A fresh socket per request: a pooled one could have been opened for another address of the same name.
      agent: false,
      // The pin: whatever name the socket asks for, it gets the address that was checked.
      lookup: (_name, lookupOptions, callback) => {
        if (lookupOptions.all) callback(null, [{ address, family }]);
        else callback(null, address, family);
      },
      ...(url.protocol === 'https:' && !isLiteral ? { servername: hostname } : {}),
    };
    const request = (url.protocol === 'https:' ? https : http).request(options);

    request.on('socket', (socket: Socket) => {
      socket.once('connect', () => {
        if (!sameAddress(socket.remoteAddress, address)) {
          fail(`the connection did not reach the checked address ${address}`);
        }
      });
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      fail(`the connection failed (${error.code ?? error.message})`);
    });
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      if (REDIRECT_STATUSES.has(status)) {
        const location = response.headers.location;
        if (!location) fail(`the server answered HTTP ${status} without a Location`);
        else finish({ answer: { kind: 'redirect', location } });
        return;
      }
      if (status < 200 || status > 299) {
        fail(`the server answered HTTP ${status}`);
        return;
      }
      const contentType = (response.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (!/^image\/[a-z0-9][a-z0-9!#$&^_.+-]*$/.test(contentType)) {
        fail(`the content type is ${contentType ? `"${contentType}"` : 'missing'}, not an image type`);
        return;
      }
      const encoding = (response.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
      if (encoding !== 'identity' && encoding !== '') {
        fail(`the image is sent with content encoding "${encoding}"; send it unencoded`);
        return;
      }
      const declared = Number(response.headers['content-length'] ?? NaN);
      if (Number.isFinite(declared) && declared > maxBytes) {
        fail(`the image is ${declared} bytes; the limit is ${maxBytes} bytes`);
        return;
      }

      const chunks: Buffer[] = [];
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > maxBytes) {
          fail(`the image is larger than the limit of ${maxBytes} bytes`);
          return;
        }
        chunks.push(chunk);
      });
      response.on('end', () => {
        if (!response.complete) fail('the connection closed before the whole image arrived');
        else if (received === 0) fail('the server sent an empty body');
        else finish({ answer: { kind: 'image', bytes: Buffer.concat(chunks, received) } });
      });
      response.on('error', () => fail('the connection closed before the whole image arrived'));
      response.on('aborted', () => fail('the connection closed before the whole image arrived'));
    });

    signal.addEventListener('abort', onAbort, { once: true });
    request.end();
  });
}
