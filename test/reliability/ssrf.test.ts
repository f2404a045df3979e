/**
 * Server-side request forgery from the outside: POST /v1/image-search with a `url` aimed at this machine, the cloud
 * metadata service, private networks or other schemes. Each is `400 url_not_allowed`, the balance is unchanged,
 * and the target is never contacted: counting listeners on the IPv4 and IPv6 loopback stand where a request would
 * land, and count connections, not just requests. A url refused for its shape alone (scheme, credentials, port, an
 * IP literal in any spelling, a localhost name) is refused before the charge and leaves no usage record at all; one
 * refused on what its name resolves to, or after a redirect, is charged and then refunded.
 *
 * The production route is used as is (no test hook), except for redirects: there the first hop must be fetched,
 * so a second route runs the same operation with the fetcher's `allowAddress` hook admitting the redirecting test
 * server alone, and its `resolve` hook answering for names that have no real DNS here (DNS has no local form).
 */
import { createServer, type Server } from 'node:http';
import { lookup } from 'node:dns/promises';
import os from 'node:os';
import type { RunningServer } from '../../local/server';
import { buildDataStores } from '../../shared/composition/data-stores';
import { FolderUsearchIndexStore } from '../../shared/adapters/local/usearch-index-store';
import { createLogoSearchService } from '../../shared/imaging/logo-search-service';
import { imageSearchOperation } from '../../functions/image-search/handler';
import { createTestStack, type TestStack } from '../support/test-stack';
import { post, readJson, startTestServer } from '../support/test-server';
import { contractBreach } from './documented-errors';
import { sendRaw } from './raw-http';

interface Bait {
  server: Server;
  port: number;
  connections: number;
  requests: number;
}

async function listenCounting(
  host: string,
  answer: (url: string) => { status: number; headers?: Record<string, string> },
): Promise<Bait> {
  const bait: Bait = { server: createServer(), port: 0, connections: 0, requests: 0 };
  bait.server.on('connection', () => bait.connections++);
  bait.server.on('request', (request, response) => {
    bait.requests++;
    const { status, headers } = answer(request.url ?? '/');
    response.writeHead(status, headers).end();
  });
  await new Promise<void>((resolve) => bait.server.listen(0, host, resolve));
  bait.port = (bait.server.address() as { port: number }).port;
  return bait;
}

const close = (bait: Bait) => new Promise<void>((resolve) => bait.server.close(() => resolve()));

let stack: TestStack;
let server: RunningServer;
let apiKey: string;
let accountId: string;
let bait4: Bait;
let bait6: Bait;
let redirector: Bait;

/** Names the hooked route resolves itself: what a hostile DNS zone could answer. */
const FAKE_DNS: Record<string, string[]> = {
  'metadata.attacker.test': ['169.254.169.254'],
  'rebind.attacker.test': ['93.184.216.34', '127.0.0.1'],
  'ula.attacker.test': ['fd00:ec2::254'],
};

beforeAll(async () => {
  stack = await createTestStack();
  bait4 = await listenCounting('127.0.0.1', () => ({ status: 200, headers: { 'Content-Type': 'image/png' } }));
  bait6 = await listenCounting('::1', () => ({ status: 200, headers: { 'Content-Type': 'image/png' } }));
  // GET /to?<location> answers 302 to that location; /chain?<location> redirects once more through /to first.
  redirector = await listenCounting('127.0.0.1', (url) => {
    const [route = '', location = ''] = url.split('?', 2);
    const target = decodeURIComponent(location);
    if (route === '/chain') return { status: 302, headers: { Location: `/to?${encodeURIComponent(target)}` } };
    return { status: route === '/to307' ? 307 : 302, headers: { Location: target } };
  });
  const hooked = createLogoSearchService({
    batches: buildDataStores(stack.config).batches,
    indexes: new FolderUsearchIndexStore(stack.config.logos.indexDir),
    fetchOptions: {
      allowAddress: (address, port) => address === '127.0.0.1' && port === redirector.port,
      resolve: async (host) =>
        (FAKE_DNS[host] ?? (await lookup(host, { all: true }))).map((entry) =>
          typeof entry === 'string' ? { address: entry, family: entry.includes(':') ? 6 : 4 } : entry,
        ),
      timeoutMs: 2000,
    },
  });
  server = await startTestServer(stack, [{ path: '/v1/image-search-hooked', operation: imageSearchOperation(hooked) }]);
  ({ apiKey, accountId } = await stack.openAccount({ points: 1000 }));
});
afterAll(async () => {
  await server?.close();
  await Promise.all([bait4, bait6, redirector].filter(Boolean).map(close));
});

const balance = async () => (await stack.deps.accounts.getAccount(accountId, { consistent: true }))!.points;
const untouched = () => ({
  connections: bait4.connections + bait6.connections,
  requests: bait4.requests + bait6.requests,
});

/** What a refusal leaves in the usage ledger: nothing (refused in validation) or one refunded charge. */
type LedgerTrace = 'no record' | 'refunded charge';

/**
 * Sends the url, checks the refusal, the envelope, the balance, the listeners and the usage ledger; returns the
 * refusal's reason.
 */
async function expectRefused(path: string, url: string, trace: LedgerTrace): Promise<string> {
  const before = await balance();
  const entriesBefore = await stack.deps.ledger.entries(accountId);
  const response = await sendRaw(server.url, {
    method: 'POST',
    target: path,
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ url }),
  });

  expect(contractBreach(response, 'POST')).toBeUndefined();
  expect({ status: response.status, code: response.json.error.code }).toEqual({ status: 400, code: 'url_not_allowed' });
  expect(await balance()).toBe(before);
  expect(untouched()).toEqual({ connections: 0, requests: 0 });
  const entriesAfter = await stack.deps.ledger.entries(accountId);
  if (trace === 'no record') {
    expect(entriesAfter).toEqual(entriesBefore);
  } else {
    const added = entriesAfter.filter((entry) => !entriesBefore.some((old) => old.entryId === entry.entryId));
    expect(added.map(({ kind, status, operation, points }) => ({ kind, status, operation, points }))).toEqual([
      { kind: 'charge', status: 'refunded', operation: 'image-search', points: 5 },
    ]);
  }
  return String(response.json.error.details.reason);
}

describe('this machine, in every spelling, on the port a listener counts on', () => {
  const p4 = () => bait4.port;
  const p6 = () => bait6.port;
  const cases: [string, () => string, RegExp][] = [
    ['127.0.0.1', () => `http://127.0.0.1:${p4()}/logo.png`, /loopback/],
    ['127.1 (short form)', () => `http://127.1:${p4()}/logo.png`, /loopback/],
    ['0x7f000001 (hex)', () => `http://0x7f000001:${p4()}/logo.png`, /loopback/],
    ['2130706433 (decimal)', () => `http://2130706433:${p4()}/logo.png`, /loopback/],
    ['017700000001 (octal)', () => `http://017700000001:${p4()}/logo.png`, /loopback/],
    ['0x7f.0.0.1 (mixed)', () => `http://0x7f.0.0.1:${p4()}/logo.png`, /loopback/],
    ['127.255.255.254 (the rest of 127/8)', () => `http://127.255.255.254:${p4()}/logo.png`, /loopback/],
    ['[::1]', () => `http://[::1]:${p6()}/logo.png`, /loopback/],
    ['[0:0:0:0:0:0:0:1]', () => `http://[0:0:0:0:0:0:0:1]:${p6()}/logo.png`, /loopback/],
    ['[::ffff:127.0.0.1] (IPv4-mapped)', () => `http://[::ffff:127.0.0.1]:${p4()}/logo.png`, /IPv4-mapped.*loopback/],
    ['[::ffff:7f00:1] (IPv4-mapped, hex)', () => `http://[::ffff:7f00:1]:${p4()}/logo.png`, /IPv4-mapped.*loopback/],
    ['[::127.0.0.1] (IPv4-compatible)', () => `http://[::127.0.0.1]:${p4()}/logo.png`, /IPv4-compatible/],
    ['0.0.0.0 (reaches loopback on Linux)', () => `http://0.0.0.0:${p4()}/logo.png`, /this network/],
    ['0 (0.0.0.0 in short)', () => `http://0:${p4()}/logo.png`, /this network/],
    ['[::] (unspecified)', () => `http://[::]:${p6()}/logo.png`, /unspecified/],
    ['localhost', () => `http://localhost:${p4()}/logo.png`, /names this machine/],
    ['LOCALHOST. (upper case, trailing dot)', () => `http://LOCALHOST.:${p4()}/logo.png`, /names this machine/],
    ['a *.localhost name', () => `http://images.localhost:${p4()}/logo.png`, /names this machine/],
    [
      'credentials in front of a loopback host',
      () => `http://example.com@127.0.0.1:${p4()}/logo.png`,
      /user name or password/,
    ],
  ];

  it.each(cases)('%s', async (_name, url, reason) => {
    expect(await expectRefused('/v1/image-search', url(), 'no record')).toMatch(reason);
  });

  it("this machine's own host name, which DNS resolves to loopback", async () => {
    const name = os.hostname();
    const addresses = await lookup(name, { all: true }).catch(() => []);
    if (!addresses.some((a) => a.address.startsWith('127.') || a.address === '::1')) {
      console.log(`skipped: ${name} does not resolve to loopback here`);
      return;
    }
    // Port 80: nothing listens there, so a request that got out would be a 422 (connection refused), not this 400.
    expect(await expectRefused('/v1/image-search', `http://${name}/logo.png`, 'refunded charge')).toMatch(
      new RegExp(`${name} resolves to (127\\.|::1)`),
    );
    // On the listener's port the port rule refuses before any DNS query, so before the charge.
    expect(await expectRefused('/v1/image-search', `http://${name}:${bait4.port}/logo.png`, 'no record')).toMatch(
      /port/,
    );
  });
});

describe('metadata services, private and reserved networks', () => {
  it.each([
    ['http://169.254.169.254/latest/meta-data/iam/security-credentials/', /link-local/],
    ['http://169.254.170.2/v2/credentials', /link-local/],
    ['http://[fd00:ec2::254]/latest/meta-data/', /unique local/],
    ['http://10.0.0.1/logo.png', /10\.0\.0\.0\/8/],
    ['http://10.255.255.255/logo.png', /10\.0\.0\.0\/8/],
    ['http://172.16.0.1/logo.png', /172\.16\.0\.0\/12/],
    ['http://172.31.255.254/logo.png', /172\.16\.0\.0\/12/],
    ['http://192.168.0.1/logo.png', /192\.168\.0\.0\/16/],
    ['http://192.168.255.255/logo.png', /192\.168\.0\.0\/16/],
    ['http://100.64.0.1/logo.png', /carrier-grade NAT/],
    ['http://[fc00::1]/logo.png', /unique local/],
    ['http://[fdff:ffff::1]/logo.png', /unique local/],
    ['http://[fe80::1]/logo.png', /link-local/],
    ['http://[febf:ffff::1]/logo.png', /link-local/],
    ['http://[::ffff:10.0.0.1]/logo.png', /IPv4-mapped.*10\.0\.0\.0\/8/],
    ['http://[::ffff:169.254.169.254]/logo.png', /IPv4-mapped.*link-local/],
    ['http://[64:ff9b::a00:1]/logo.png', /NAT64.*10\.0\.0\.0\/8/],
    ['http://[2002:a00:1::1]/logo.png', /6to4.*10\.0\.0\.0\/8/],
    ['http://[ff02::1]/logo.png', /multicast/],
  ])('%s', async (url, reason) => {
    expect(await expectRefused('/v1/image-search', url, 'no record')).toMatch(reason);
  });
});

describe('other schemes, credentials and ports', () => {
  it.each([
    ['file:///etc/passwd', /scheme file/],
    ['gopher://127.0.0.1:70/_GET%20/', /scheme gopher/],
    ['ftp://example.com/logo.png', /scheme ftp/],
    ['data:image/png;base64,iVBORw0KGgo=', /scheme data/],
    ['javascript:alert(1)', /scheme javascript/],
    ['dict://127.0.0.1:11211/stats', /scheme dict/],
    ['ws://example.com/logo.png', /scheme ws/],
    ['http://user:secret@example.com/logo.png', /user name or password/],
    ['http://user@example.com/logo.png', /user name or password/],
    ['http://example.com:22/logo.png', /port 22/],
    ['https://example.com:8443/logo.png', /port 8443/],
    ['/logo.png', /not an absolute URL/],
    ['http://', /not an absolute URL/],
    ['http://[fe80::1%25eth0]/logo.png', /not an absolute URL/],
  ])('%s', async (url, reason) => {
    expect(await expectRefused('/v1/image-search', url, 'no record')).toMatch(reason);
  });

  it('a url in the query string is checked the same way', async () => {
    const before = await balance();
    const entriesBefore = await stack.deps.ledger.entries(accountId);
    const response = await post(
      `${server.url}/v1/image-search?url=${encodeURIComponent(`http://127.0.0.1:${bait4.port}/x.png`)}`,
      {},
      { Authorization: `Bearer ${apiKey}` },
    );
    expect(response.status).toBe(400);
    expect((await readJson(response)).error.code).toBe('url_not_allowed');
    expect(await balance()).toBe(before);
    expect(untouched()).toEqual({ connections: 0, requests: 0 });
    expect(await stack.deps.ledger.entries(accountId)).toEqual(entriesBefore);
  });
});

describe('names a hostile DNS zone points inward (answered by the resolve hook)', () => {
  it.each([
    ['metadata.attacker.test', /resolves to 169\.254\.169\.254.*link-local/],
    ['rebind.attacker.test', /resolves to 127\.0\.0\.1.*loopback/],
    ['ula.attacker.test', /resolves to fd00:ec2::254.*unique local/],
  ])('%s', async (name, reason) => {
    expect(await expectRefused('/v1/image-search-hooked', `http://${name}/logo.png`, 'refunded charge')).toMatch(
      reason,
    );
  });

  it('an address literal the hook does not admit is still refused before the charge', async () => {
    const refusal = await expectRefused(
      '/v1/image-search-hooked',
      `http://127.0.0.1:${bait4.port}/logo.png`,
      'no record',
    );
    expect(refusal).toMatch(/loopback/);
  });
});

describe('a public-looking first hop that redirects inward (the redirecting server admitted by the test hook)', () => {
  const via = (target: string, route = 'to') =>
    `http://127.0.0.1:${redirector.port}/${route}?${encodeURIComponent(target)}`;

  it.each([
    ['loopback on the counting listener', () => via(`http://127.0.0.1:${bait4.port}/logo.png`), /loopback/],
    ['[::1] on the counting listener', () => via(`http://[::1]:${bait6.port}/logo.png`), /loopback/],
    ['2130706433 on the counting listener', () => via(`http://2130706433:${bait4.port}/logo.png`), /loopback/],
    ['localhost', () => via(`http://localhost:${bait4.port}/logo.png`), /names this machine/],
    ['the metadata service', () => via('http://169.254.169.254/latest/meta-data/'), /link-local/],
    ['a private address', () => via('http://10.0.0.1/logo.png'), /10\.0\.0\.0\/8/],
    ['a file: URL', () => via('file:///etc/passwd'), /scheme file/],
    ['a 307 to loopback', () => via(`http://127.0.0.1:${bait4.port}/logo.png`, 'to307'), /loopback/],
    ['two redirects, then loopback', () => via(`http://127.0.0.1:${bait4.port}/logo.png`, 'chain'), /loopback/],
    ['a name a hostile zone points at loopback', () => via('http://rebind.attacker.test/logo.png'), /loopback/],
  ])('%s', async (_name, url, reason) => {
    const hopsBefore = redirector.requests;
    const refusal = await expectRefused('/v1/image-search-hooked', url(), 'refunded charge');
    expect(refusal).toMatch(/the redirect to/);
    expect(refusal).toMatch(reason);
    expect(redirector.requests).toBeGreaterThan(hopsBefore);
  });
});

it('every refusal was refunded in full: no charge stands on the account', async () => {
  const standing = (await stack.deps.ledger.entries(accountId)).filter(
    (e) => e.kind === 'charge' && e.status === 'charged',
  );
  expect(standing).toEqual([]);
  expect(await balance()).toBe(1000);
});

it('control: the counting listeners do count a connection that reaches them', async () => {
  const before = untouched();
  await sendRaw(`http://127.0.0.1:${bait4.port}`, { method: 'GET', target: '/logo.png' });
  await sendRaw(`http://[::1]:${bait6.port}`, { method: 'GET', target: '/logo.png' });
  expect(untouched()).toEqual({ connections: before.connections + 2, requests: before.requests + 2 });
});
