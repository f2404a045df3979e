/**
 * fetchImageSafely over real HTTP, against servers on this machine's loopback. A loopback server is exactly what the
 * function must refuse, so the tests that need one to answer let it through with the `allowAddress` test hook, for
 * that server's port only; every other loopback address and port stays refused. Servers listen on `::` (dual stack),
 * so 127.0.0.1, 127.0.0.2, ::1 and ::ffff:127.0.0.1 all reach them and "never contacted" is a real observation:
 * each server counts the TCP connections it accepts.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import sharp from 'sharp';
import { ServiceError, UrlFetchFailedError, UrlNotAllowedError } from '../../../shared/errors';
import { fetchImageSafely, type FetchImageOptions, type ResolvedAddress } from '../../../shared/imaging/fetch-image-safely';

interface TestServer {
  port: number;
  connections: number;
  requests: { url: string; headers: http.IncomingHttpHeaders }[];
  closed: Promise<void>[];
  close(): Promise<void>;
}

const servers: TestServer[] = [];

async function startServer(handle: (request: http.IncomingMessage, response: http.ServerResponse) => void): Promise<TestServer> {
  const server = http.createServer((request, response) => {
    state.requests.push({ url: request.url ?? '', headers: request.headers });
    handle(request, response);
  });
  const state: TestServer = {
    port: 0,
    connections: 0,
    requests: [],
    closed: [],
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  server.on('connection', (socket: Socket) => {
    state.connections++;
    state.closed.push(new Promise((resolve) => socket.once('close', () => resolve())));
  });
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '::', ipv6Only: false }, resolve));
  state.port = (server.address() as AddressInfo).port;
  servers.push(state);
  return state;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

let png: Buffer;
beforeAll(async () => {
  png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#ff0000' } }).png().toBuffer();
});

const servePng = (_request: http.IncomingMessage, response: http.ServerResponse): void => {
  response.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': png.length });
  response.end(png);
};

/** The hook that lets `server` (and only it) count as public: loopback addresses, on its port. */
const allowing = (...allowed: TestServer[]): FetchImageOptions['allowAddress'] =>
  (address, port) =>
    ['127.0.0.1', '::1', '::ffff:127.0.0.1'].includes(address) && allowed.some((server) => server.port === port);

const resolvingTo = (...addresses: string[]): jest.Mock<Promise<ResolvedAddress[]>, [string]> =>
  jest.fn(async (_host: string) => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));

async function failureOf(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('expected the fetch to fail');
}

const reason = (error: ServiceError): string => String(error.details?.reason);

describe('fetchImageSafely: refused before any request is sent (url_not_allowed)', () => {
  it('reaches a loopback server when, and only when, the test hook lets it through (the control)', async () => {
    // Arrange
    const server = await startServer(servePng);
    // Act
    const bytes = await fetchImageSafely(`http://127.0.0.1:${server.port}/logo.png`, { allowAddress: allowing(server) });
    // Assert
    expect(bytes.equals(png)).toBe(true);
    expect(server.connections).toBe(1);
  });

  it.each([
    ['127.0.0.1', (port: number) => `http://127.0.0.1:${port}/logo.png`, /127\.0\.0\.1 is a loopback address/],
    ['127.0.0.2', (port: number) => `http://127.0.0.2:${port}/`, /loopback/],
    ['[::1]', (port: number) => `http://[::1]:${port}/`, /::1 is a loopback address/],
    ['[::ffff:127.0.0.1]', (port: number) => `http://[::ffff:127.0.0.1]:${port}/`, /IPv4-mapped address of 127\.0\.0\.1/],
    ['the decimal form 2130706433', (port: number) => `http://2130706433:${port}/`, /127\.0\.0\.1 is a loopback/],
    ['the hex form 0x7f.1', (port: number) => `http://0x7f.1:${port}/`, /127\.0\.0\.1 is a loopback/],
    ['localhost', (port: number) => `http://localhost:${port}/`, /localhost names this machine/],
    ['a name under .localhost', (port: number) => `http://images.localhost.:${port}/`, /names this machine/],
  ])('refuses %s and the server listening there receives nothing', async (_name, urlFor, expected) => {
    // Arrange
    const server = await startServer(servePng);
    // Act
    const error = await failureOf(fetchImageSafely(urlFor(server.port)));
    // Assert
    expect(error).toBeInstanceOf(UrlNotAllowedError);
    expect(error.status).toBe(400);
    expect(reason(error)).toMatch(expected);
    expect(server.connections).toBe(0);
  });

  it.each([
    ['http://10.0.0.1/logo.png', /10\.0\.0\.1 is a private address/],
    ['http://169.254.169.254/latest/meta-data/iam/security-credentials/', /169\.254\.169\.254 is a link-local address/],
    ['http://[fd00:ec2::254]/latest/meta-data/', /unique local/],
    ['http://100.100.100.200/', /carrier-grade NAT/],
    ['https://192.168.0.1/', /private/],
    ['http://0.0.0.0/', /this network/],
    ['http://[::]/', /unspecified/],
    ['http://[64:ff9b::a00:1]/', /NAT64 address of 10\.0\.0\.1/],
  ])('refuses %s at once, without trying to connect', async (url, expected) => {
    // Arrange
    const resolve = resolvingTo('93.184.215.14');
    const started = performance.now();
    // Act
    const error = await failureOf(fetchImageSafely(url, { resolve, timeoutMs: 2_000 }));
    // Assert: no DNS for a literal, and far quicker than any connection attempt to an unreachable address.
    expect(error).toBeInstanceOf(UrlNotAllowedError);
    expect(reason(error)).toMatch(expected);
    expect(resolve).not.toHaveBeenCalled();
    expect(performance.now() - started).toBeLessThan(200);
  });

  it.each([
    [['127.0.0.1', '10.0.0.1']],
    [['10.0.0.1', '127.0.0.1']],
    [['127.0.0.1', '::ffff:169.254.169.254']],
  ])('refuses a host name resolving to %j: one private address is enough', async (addresses) => {
    // Arrange: the hook would let 127.0.0.1 through, so only the other address can stop the request.
    const server = await startServer(servePng);
    const resolve = resolvingTo(...addresses);
    // Act
    const error = await failureOf(
      fetchImageSafely(`http://mixed.test:${server.port}/logo.png`, { resolve, allowAddress: allowing(server) }),
    );
    // Assert
    expect(error).toBeInstanceOf(UrlNotAllowedError);
    expect(reason(error)).toMatch(/mixed\.test resolves to (10\.0\.0\.1|::ffff:169\.254\.169\.254), which is/);
    expect(resolve).toHaveBeenCalledWith('mixed.test');
    expect(server.connections).toBe(0);
  });

  it('refuses a host name resolving to public and private addresses alike', async () => {
    const resolve = resolvingTo('93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c', '192.168.10.20');
    const error = await failureOf(fetchImageSafely('https://cdn.example.test/logo.png', { resolve }));
    expect(error).toBeInstanceOf(UrlNotAllowedError);
    expect(reason(error)).toMatch(/cdn\.example\.test resolves to 192\.168\.10\.20, which is a private address/);
  });

  it.each(['http://images.example.test:8080/logo.png', 'https://images.example.test:8443/', 'http://images.example.test:22/'])(
    'refuses the port of %s before any DNS query',
    async (url) => {
      const resolve = resolvingTo('93.184.215.14');
      const error = await failureOf(fetchImageSafely(url, { resolve }));
      expect(error).toBeInstanceOf(UrlNotAllowedError);
      expect(reason(error)).toMatch(/port \d+ is not 80 or 443/);
      expect(resolve).not.toHaveBeenCalled();
    },
  );

  it('refuses a port other than 80 and 443 even on an address the hook lets through on another port', async () => {
    // Arrange: the hook covers 127.0.0.1 on port 80 only; the server is elsewhere.
    const server = await startServer(servePng);
    const resolve = resolvingTo('127.0.0.1');
    // Act
    const error = await failureOf(
      fetchImageSafely(`http://images.test:${server.port}/`, {
        resolve,
        allowAddress: (address, port) => address === '127.0.0.1' && port === 80,
      }),
    );
    // Assert
    expect(reason(error)).toMatch(/loopback/);
    expect(server.connections).toBe(0);
  });

  it.each([
    ['ftp://example.test/logo.png', /scheme ftp is not http or https/],
    ['file:///etc/passwd', /scheme file/],
    ['gopher://example.test/', /scheme gopher/],
    ['data:image/png;base64,iVBORw0KGgo=', /scheme data/],
    ['javascript:alert(1)', /scheme javascript/],
    ['http://user:secret@example.test/logo.png', /user name or password/],
    ['http://user@example.test/logo.png', /user name or password/],
    ['not a url', /not an absolute URL/],
    ['/images/logo.png', /not an absolute URL/],
  ])('refuses %s', async (url, expected) => {
    const resolve = resolvingTo('93.184.215.14');
    const error = await failureOf(fetchImageSafely(url, { resolve }));
    expect(error).toBeInstanceOf(UrlNotAllowedError);
    expect(reason(error)).toMatch(expected);
    expect(resolve).not.toHaveBeenCalled();
  });
});

describe('fetchImageSafely: fetching through the checked address', () => {
  it('returns the bytes of a PNG, asking by the original host name', async () => {
    // Arrange
    const server = await startServer(servePng);
    const resolve = resolvingTo('127.0.0.1');
    // Act
    const bytes = await fetchImageSafely(`http://images.example.test:${server.port}/logo.png?v=2`, {
      resolve,
      allowAddress: allowing(server),
    });
    // Assert
    expect(bytes.equals(png)).toBe(true);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.url).toBe('/logo.png?v=2');
    expect(server.requests[0]!.headers.host).toBe(`images.example.test:${server.port}`);
    expect(server.requests[0]!.headers['accept-encoding']).toBe('identity');
    expect(server.requests[0]!.headers.accept).toMatch(/image\/png/);
  });

  it('connects to the address it checked: a DNS answer that changes afterwards (rebinding) is never asked for', async () => {
    // Arrange: the first answer is the (allowed) test server, any later one a private address.
    const server = await startServer(servePng);
    let calls = 0;
    const resolve = jest.fn(async (): Promise<ResolvedAddress[]> =>
      calls++ === 0 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.0.0.1', family: 4 }],
    );
    // Act
    const bytes = await fetchImageSafely(`http://rebind.test:${server.port}/logo.png`, {
      resolve,
      allowAddress: allowing(server),
    });
    // Assert
    expect(bytes.equals(png)).toBe(true);
    expect(resolve).toHaveBeenCalledTimes(1);
    expect(server.connections).toBe(1);
  });

  it('connects over IPv6 to a checked IPv6 address', async () => {
    const server = await startServer(servePng);
    const bytes = await fetchImageSafely(`http://v6.test:${server.port}/logo.png`, {
      resolve: resolvingTo('::1'),
      allowAddress: allowing(server),
    });
    expect(bytes.equals(png)).toBe(true);
  });
});

describe('fetchImageSafely: redirects', () => {
  it.each([301, 302, 303, 307, 308])('follows a %d to a relative location on the same server', async (status) => {
    // Arrange
    const server = await startServer((request, response) => {
      if (request.url === '/start') response.writeHead(status, { Location: '../images/logo.png' }).end();
      else servePng(request, response);
    });
    // Act
    const bytes = await fetchImageSafely(`http://127.0.0.1:${server.port}/start`, { allowAddress: allowing(server) });
    // Assert
    expect(bytes.equals(png)).toBe(true);
    expect(server.requests.map((request) => request.url)).toEqual(['/start', '/images/logo.png']);
  });

  it('refuses a redirect to a private address (10.0.0.1)', async () => {
    // Arrange
    const server = await startServer((_request, response) => {
      response.writeHead(302, { Location: 'http://10.0.0.1/logo.png' }).end();
    });
    // Act
    const error = await failureOf(
      fetchImageSafely(`http://127.0.0.1:${server.port}/start`, { allowAddress: allowing(server), timeoutMs: 2_000 }),
    );
    // Assert
    expect(error).toBeInstanceOf(UrlNotAllowedError);
    expect(reason(error)).toMatch(/the redirect to http:\/\/10\.0\.0\.1\/logo\.png: 10\.0\.0\.1 is a private address/);
  });

  it.each([
    ['by address', (port: number) => `http://127.0.0.1:${port}/secret`, undefined],
    ['by IPv6 address', (port: number) => `http://[::1]:${port}/secret`, undefined],
    ['by a host name resolving to loopback', (port: number) => `http://internal.test:${port}/secret`, '127.0.0.1'],
  ])('refuses a redirect to a second loopback server %s, which receives nothing', async (_how, locationFor, address) => {
    // Arrange: A is let through by the hook; B, on another port, is not.
    const b = await startServer(servePng);
    const a = await startServer((_request, response) => {
      response.writeHead(302, { Location: locationFor(b.port) }).end();
    });
    // Act
    const error = await failureOf(
      fetchImageSafely(`http://127.0.0.1:${a.port}/start`, {
        allowAddress: allowing(a),
        resolve: resolvingTo(address ?? '127.0.0.1'),
      }),
    );
    // Assert
    expect(error).toBeInstanceOf(UrlNotAllowedError);
    expect(reason(error)).toMatch(/^the redirect to .*loopback/);
    expect(a.requests).toHaveLength(1);
    expect(b.connections).toBe(0);
  });

  it.each([
    ['ftp://example.test/logo.png', /the redirect to ftp:\/\/example\.test\/logo\.png: the scheme ftp/],
    ['http://user:pw@example.test/', /user name or password/],
    ['http://example.test:8080/', /port 8080 is not 80 or 443/],
  ])('refuses a redirect to %s', async (location, expected) => {
    const server = await startServer((_request, response) => response.writeHead(302, { Location: location }).end());
    const error = await failureOf(
      fetchImageSafely(`http://127.0.0.1:${server.port}/`, { allowAddress: allowing(server), resolve: resolvingTo('93.184.215.14') }),
    );
    expect(error).toBeInstanceOf(UrlNotAllowedError);
    expect(reason(error)).toMatch(expected);
  });

  it('follows 3 redirects and fails on the 4th', async () => {
    // Arrange: /hop/n redirects to /hop/n-1; /hop/0 is the image.
    const server = await startServer((request, response) => {
      const hops = Number(/^\/hop\/(\d+)$/.exec(request.url ?? '')?.[1] ?? -1);
      if (hops > 0) response.writeHead(302, { Location: `/hop/${hops - 1}` }).end();
      else servePng(request, response);
    });
    const options = { allowAddress: allowing(server) };
    // Act
    const three = await fetchImageSafely(`http://127.0.0.1:${server.port}/hop/3`, options);
    const four = await failureOf(fetchImageSafely(`http://127.0.0.1:${server.port}/hop/4`, options));
    const noneAllowed = await failureOf(fetchImageSafely(`http://127.0.0.1:${server.port}/hop/1`, { ...options, maxRedirects: 0 }));
    // Assert
    expect(three.equals(png)).toBe(true);
    expect(four).toBeInstanceOf(UrlFetchFailedError);
    expect(reason(four)).toBe('more than 3 redirects');
    expect(reason(noneAllowed)).toBe('more than 0 redirects');
  });

  it('fails on a redirect without a Location', async () => {
    const server = await startServer((_request, response) => response.writeHead(302).end());
    const error = await failureOf(fetchImageSafely(`http://127.0.0.1:${server.port}/`, { allowAddress: allowing(server) }));
    expect(error).toBeInstanceOf(UrlFetchFailedError);
    expect(reason(error)).toMatch(/HTTP 302 without a Location/);
  });
});

describe('fetchImageSafely: what fails once a request may be sent (url_fetch_failed)', () => {
  it('gives up on a server that never answers, within the timeout', async () => {
    // Arrange: the server accepts the connection and says nothing.
    const server = await startServer(() => undefined);
    const started = performance.now();
    // Act
    const error = await failureOf(
      fetchImageSafely(`http://127.0.0.1:${server.port}/slow.png`, { allowAddress: allowing(server), timeoutMs: 300 }),
    );
    // Assert
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(UrlFetchFailedError);
    expect(error.status).toBe(422);
    expect(reason(error)).toBe('no complete answer within 300 ms');
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(5_000); // the timeout is honoured; the margin only absorbs a loaded machine
    await Promise.all(server.closed); // the connection was closed from our side, not left open
  });

  it('gives up on a body that trickles in too slowly', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': 1_000 });
      const timer = setInterval(() => response.write(Buffer.alloc(1)), 50);
      response.on('close', () => clearInterval(timer));
    });
    const error = await failureOf(
      fetchImageSafely(`http://127.0.0.1:${server.port}/`, { allowAddress: allowing(server), timeoutMs: 300 }),
    );
    expect(reason(error)).toBe('no complete answer within 300 ms');
  });

  it('counts DNS inside the timeout', async () => {
    const resolve = jest.fn(() => new Promise<ResolvedAddress[]>(() => undefined));
    const error = await failureOf(fetchImageSafely('https://slow-dns.test/logo.png', { resolve, timeoutMs: 200 }));
    expect(error).toBeInstanceOf(UrlFetchFailedError);
    expect(reason(error)).toBe('no complete answer within 200 ms');
  });

  it('refuses an image declared bigger than maxBytes without reading it', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': 5_000 });
      response.end(Buffer.alloc(5_000));
    });
    const error = await failureOf(
      fetchImageSafely(`http://127.0.0.1:${server.port}/`, { allowAddress: allowing(server), maxBytes: 1_000 }),
    );
    expect(error).toBeInstanceOf(UrlFetchFailedError);
    expect(reason(error)).toBe('the image is 5000 bytes; the limit is 1000 bytes');
  });

  it('aborts a body without a declared length as soon as it passes maxBytes', async () => {
    // Arrange: an endless chunked body.
    let sent = 0;
    const server = await startServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'image/png' });
      const pump = (): void => {
        while (!response.destroyed && response.write(Buffer.alloc(16_384))) sent += 16_384;
        if (!response.destroyed) response.once('drain', pump);
      };
      pump();
    });
    // Act
    const error = await failureOf(
      fetchImageSafely(`http://127.0.0.1:${server.port}/`, { allowAddress: allowing(server), maxBytes: 100_000 }),
    );
    // Assert: refused, and the connection is closed by us long before the server would ever stop.
    expect(reason(error)).toBe('the image is larger than the limit of 100000 bytes');
    await Promise.all(server.closed);
    expect(sent).toBeLessThan(10_000_000);
  });

  it('takes exactly maxBytes', async () => {
    const server = await startServer(servePng);
    const bytes = await fetchImageSafely(`http://127.0.0.1:${server.port}/`, {
      allowAddress: allowing(server),
      maxBytes: png.length,
    });
    expect(bytes).toHaveLength(png.length);
  });

  it.each([
    ['text/html; charset=utf-8', /"text\/html", not an image type/],
    ['application/octet-stream', /"application\/octet-stream", not an image type/],
    ['image', /not an image type/],
    [undefined, /content type is missing/],
  ])('refuses the content type %s', async (contentType, expected) => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, contentType === undefined ? {} : { 'Content-Type': contentType });
      response.end('<html><body>not an image</body></html>');
    });
    const error = await failureOf(fetchImageSafely(`http://127.0.0.1:${server.port}/`, { allowAddress: allowing(server) }));
    expect(error).toBeInstanceOf(UrlFetchFailedError);
    expect(reason(error)).toMatch(expected);
  });

  it.each([404, 403, 500, 204])('fails on HTTP %d', async (status) => {
    const server = await startServer((_request, response) => response.writeHead(status, { 'Content-Type': 'image/png' }).end());
    const error = await failureOf(fetchImageSafely(`http://127.0.0.1:${server.port}/`, { allowAddress: allowing(server) }));
    expect(error).toBeInstanceOf(UrlFetchFailedError);
    expect(reason(error)).toMatch(status === 204 ? /empty body/ : new RegExp(`HTTP ${status}`));
  });

  it('refuses a compressed body (it would be a decompression bomb to unpack)', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'image/png', 'Content-Encoding': 'gzip' }).end(Buffer.alloc(10));
    });
    const error = await failureOf(fetchImageSafely(`http://127.0.0.1:${server.port}/`, { allowAddress: allowing(server) }));
    expect(reason(error)).toMatch(/content encoding "gzip"/);
  });

  it('fails when the connection closes before the declared length arrived', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': 1_000 });
      response.write(Buffer.alloc(10), () => response.socket?.destroy());
    });
    const error = await failureOf(fetchImageSafely(`http://127.0.0.1:${server.port}/`, { allowAddress: allowing(server) }));
    expect(error).toBeInstanceOf(UrlFetchFailedError);
    expect(reason(error)).toMatch(/closed before the whole image arrived/);
  });

  it('fails when nothing listens on the checked address', async () => {
    // Arrange: a port that was just freed.
    const server = await startServer(servePng);
    const { port } = server;
    await server.close();
    // Act
    const error = await failureOf(fetchImageSafely(`http://127.0.0.1:${port}/`, { allowAddress: (_a, p) => p === port }));
    // Assert
    expect(error).toBeInstanceOf(UrlFetchFailedError);
    expect(reason(error)).toBe('the connection failed (ECONNREFUSED)');
  });

  it('fails an https URL whose server does not speak TLS', async () => {
    const server = await startServer(servePng);
    const error = await failureOf(
      fetchImageSafely(`https://images.test:${server.port}/`, { resolve: resolvingTo('127.0.0.1'), allowAddress: allowing(server) }),
    );
    expect(error).toBeInstanceOf(UrlFetchFailedError);
    expect(reason(error)).toMatch(/the connection failed/);
    expect(server.connections).toBe(1);
  });

  it.each([
    ['fails', jest.fn(async () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' })))],
    ['finds no address', jest.fn(async () => [] as ResolvedAddress[])],
  ])('fails when DNS %s', async (_what, resolve) => {
    const error = await failureOf(fetchImageSafely('https://no-such-host.test/logo.png', { resolve }));
    expect(error).toBeInstanceOf(UrlFetchFailedError);
    expect(reason(error)).toMatch(/no-such-host\.test (could not be resolved|has no address)/);
  });
});
