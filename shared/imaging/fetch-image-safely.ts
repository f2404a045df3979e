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
import type { Socket } from 'node:net';
import { UrlFetchFailedError, UrlNotAllowedError } from '../errors';
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
  const timedOut = (): UrlFetchFailedError =>
    new UrlFetchFailedError(`no complete answer within ${timeoutMs} ms`);

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

// ---- The address rules -------------------------------------------------------------------------------------------

export type AddressVerdict = { isPublic: true } | { isPublic: false; reason: string };

interface Range {
  bytes: number[];
  bits: number;
  reason: string;
}

function range(cidr: string, reason: string): Range {
  const [address = '', bits = ''] = cidr.split('/');
  const bytes = addressBytes(address);
  if (!bytes) throw new Error(`bad range ${cidr}`);
  return { bytes, bits: Number(bits), reason };
}

/** IANA's IPv4 special-purpose registry, minus nothing: none of it hosts an image a client could mean. */
const IPV4_REFUSED: readonly Range[] = [
  range('0.0.0.0/8', 'a "this network" address (0.0.0.0/8)'),
  range('10.0.0.0/8', 'a private address (10.0.0.0/8)'),
  range('100.64.0.0/10', 'a carrier-grade NAT address (100.64.0.0/10)'),
  range('127.0.0.0/8', 'a loopback address (127.0.0.0/8)'),
  range('169.254.0.0/16', 'a link-local address (169.254.0.0/16, where cloud metadata services live)'),
  range('172.16.0.0/12', 'a private address (172.16.0.0/12)'),
  range('192.0.0.0/24', 'an IETF protocol address (192.0.0.0/24)'),
  range('192.0.2.0/24', 'a documentation address (192.0.2.0/24)'),
  range('192.88.99.0/24', 'a 6to4 relay address (192.88.99.0/24)'),
  range('192.168.0.0/16', 'a private address (192.168.0.0/16)'),
  range('198.18.0.0/15', 'a benchmarking address (198.18.0.0/15)'),
  range('198.51.100.0/24', 'a documentation address (198.51.100.0/24)'),
  range('203.0.113.0/24', 'a documentation address (203.0.113.0/24)'),
  range('224.0.0.0/4', 'a multicast address (224.0.0.0/4)'),
  range('255.255.255.255/32', 'the broadcast address'),
  range('240.0.0.0/4', 'a reserved address (240.0.0.0/4)'),
];

/** IPv6 forms that carry an IPv4 address: they are as public as the address they carry. */
const IPV6_EMBEDDING: readonly { range: Range; offset: number }[] = [
  { range: range('::ffff:0:0/96', 'an IPv4-mapped address'), offset: 12 },
  { range: range('64:ff9b::/96', 'a NAT64 address'), offset: 12 },
  { range: range('2002::/16', 'a 6to4 address'), offset: 2 },
];

const IPV6_REFUSED: readonly Range[] = [
  range('::/128', 'the unspecified address (::)'),
  range('::1/128', 'a loopback address (::1)'),
  range('::/96', 'an IPv4-compatible address (::/96, deprecated)'),
  range('64:ff9b:1::/48', 'a local-use NAT64 address (64:ff9b:1::/48)'),
  range('100::/64', 'a discard-only address (100::/64)'),
  range('2001::/23', 'an IETF protocol address (2001::/23, Teredo included)'),
  range('2001:db8::/32', 'a documentation address (2001:db8::/32)'),
  range('3fff::/20', 'a documentation address (3fff::/20)'),
  range('fc00::/7', 'a unique local address (fc00::/7)'),
  range('fe80::/10', 'a link-local address (fe80::/10)'),
  range('fec0::/10', 'a site-local address (fec0::/10)'),
  range('ff00::/8', 'a multicast address (ff00::/8)'),
];

const IPV6_GLOBAL_UNICAST = range('2000::/3', 'global unicast');

/**
 * Whether an IP address is on the public internet. Anything not understood is refused: the rule is an allow-list
 * (public IPv4 outside the special-purpose ranges, IPv6 global unicast 2000::/3 outside its special ranges).
 */
export function classifyAddress(address: string): AddressVerdict {
  const bytes = addressBytes(address);
  if (!bytes) return { isPublic: false, reason: 'not an IP address' };
  return bytes.length === 4 ? classifyIPv4(bytes) : classifyIPv6(bytes);
}

function classifyIPv4(bytes: number[]): AddressVerdict {
  const refused = IPV4_REFUSED.find((candidate) => inRange(bytes, candidate));
  return refused ? { isPublic: false, reason: refused.reason } : { isPublic: true };
}

function classifyIPv6(bytes: number[]): AddressVerdict {
  for (const { range: embedding, offset } of IPV6_EMBEDDING) {
    if (!inRange(bytes, embedding)) continue;
    const v4 = bytes.slice(offset, offset + 4);
    const inner = classifyIPv4(v4);
    return inner.isPublic ? inner : { isPublic: false, reason: `${embedding.reason} of ${v4.join('.')}, ${inner.reason}` };
  }
  const refused = IPV6_REFUSED.find((candidate) => inRange(bytes, candidate));
  if (refused) return { isPublic: false, reason: refused.reason };
  if (!inRange(bytes, IPV6_GLOBAL_UNICAST)) return { isPublic: false, reason: 'a reserved IPv6 address (outside 2000::/3)' };
  return { isPublic: true };
}

function inRange(bytes: number[], candidate: Range): boolean {
  if (bytes.length !== candidate.bytes.length) return false;
  let bits = candidate.bits;
  for (let index = 0; bits > 0; index++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((bytes[index]! & mask) !== (candidate.bytes[index]! & mask)) return false;
  }
  return true;
}

/** 4 bytes for IPv4, 16 for IPv6 (a `%zone` suffix is dropped), undefined for anything else. */
function addressBytes(text: string): number[] | undefined {
  const address = text.replace(/%.*$/, '');
  const kind = net.isIP(address);
  if (kind === 4) return address.split('.').map(Number);
  if (kind !== 6) return undefined;

  let groups = address;
  const tail: number[] = [];
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  if (dotted) {
    const [, a, b, c, d] = dotted.map(Number) as [number, number, number, number, number];
    tail.push(a * 256 + b, c * 256 + d);
    groups = address.slice(0, dotted.index);
    if (!groups.endsWith('::')) groups = groups.slice(0, -1);
  }
  const [head = '', rest] = groups.split('::');
  const parse = (part: string): number[] => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const before = parse(head);
  const after = [...(rest === undefined ? [] : parse(rest)), ...tail];
  const zeros = rest === undefined ? 0 : 8 - before.length - after.length;
  const words = rest === undefined ? [...before, ...tail] : [...before, ...new Array<number>(zeros).fill(0), ...after];
  if (words.length !== 8) return undefined;
  return words.flatMap((word) => [word >> 8, word & 0xff]);
}

function sameAddress(left: string | undefined, right: string): boolean {
  if (left === undefined) return false;
  const a = addressBytes(left);
  const b = addressBytes(right);
  if (!a || !b) return false;
  const asV6 = (bytes: number[]): number[] =>
    bytes.length === 4 ? [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...bytes] : bytes;
  return asV6(a).join('.') === asV6(b).join('.');
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
