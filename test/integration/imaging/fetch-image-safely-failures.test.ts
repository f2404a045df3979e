/**
 * fetchImageSafely over real HTTP, against servers on this machine's loopback: what fails once a request may be sent (url_fetch_failed): timeouts, size limits, HTTP errors, compressed or cut bodies, nothing listening, no TLS.
 * A loopback server is exactly what the function must refuse, so the tests that need one to answer let it through
 * with the `allowAddress` test hook, for that server's port only; every other loopback address and port stays refused
 * (see test/support/loopback-image-servers.ts).
 */
import { UrlFetchFailedError } from '../../../shared/imaging/image-errors';
import { fetchImageSafely, type ResolvedAddress } from '../../../shared/imaging/fetch-image-safely';
import {
  allowing,
  failureOf,
  reason,
  redSquarePng,
  resolvingTo,
  servePng,
  startServer,
  useLoopbackServers,
} from '../../support/loopback-image-servers';

useLoopbackServers();

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
    const png = await redSquarePng();
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
    const error = await failureOf(
      fetchImageSafely(`http://127.0.0.1:${server.port}/`, { allowAddress: allowing(server) }),
    );
    expect(error).toBeInstanceOf(UrlFetchFailedError);
    expect(reason(error)).toMatch(expected);
  });

  it.each([404, 403, 500, 204])('fails on HTTP %d', async (status) => {
    const server = await startServer((_request, response) =>
      response.writeHead(status, { 'Content-Type': 'image/png' }).end(),
    );
    const error = await failureOf(
      fetchImageSafely(`http://127.0.0.1:${server.port}/`, { allowAddress: allowing(server) }),
    );
    expect(error).toBeInstanceOf(UrlFetchFailedError);
    expect(reason(error)).toMatch(status === 204 ? /empty body/ : new RegExp(`HTTP ${status}`));
  });

  it('refuses a compressed body (it would be a decompression bomb to unpack)', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'image/png', 'Content-Encoding': 'gzip' }).end(Buffer.alloc(10));
    });
    const error = await failureOf(
      fetchImageSafely(`http://127.0.0.1:${server.port}/`, { allowAddress: allowing(server) }),
    );
    expect(reason(error)).toMatch(/content encoding "gzip"/);
  });

  it('fails when the connection closes before the declared length arrived', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': 1_000 });
      response.write(Buffer.alloc(10), () => response.socket?.destroy());
    });
    const error = await failureOf(
      fetchImageSafely(`http://127.0.0.1:${server.port}/`, { allowAddress: allowing(server) }),
    );
    expect(error).toBeInstanceOf(UrlFetchFailedError);
    expect(reason(error)).toMatch(/closed before the whole image arrived/);
  });

  it('fails when nothing listens on the checked address', async () => {
    // Arrange: a port that was just freed.
    const server = await startServer(servePng);
    const { port } = server;
    await server.close();
    // Act
    const error = await failureOf(
      fetchImageSafely(`http://127.0.0.1:${port}/`, { allowAddress: (_a, p) => p === port }),
    );
    // Assert
    expect(error).toBeInstanceOf(UrlFetchFailedError);
    expect(reason(error)).toBe('the connection failed (ECONNREFUSED)');
  });

  it('fails an https URL whose server does not speak TLS', async () => {
    const server = await startServer(servePng);
    const error = await failureOf(
      fetchImageSafely(`https://images.test:${server.port}/`, {
        resolve: resolvingTo('127.0.0.1'),
        allowAddress: allowing(server),
      }),
    );
    expect(error).toBeInstanceOf(UrlFetchFailedError);
    expect(reason(error)).toMatch(/the connection failed/);
    expect(server.connections).toBe(1);
  });

  it.each([
    [
      'fails',
      jest.fn(async () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }))),
    ],
    ['finds no address', jest.fn(async () => [] as ResolvedAddress[])],
  ])('fails when DNS %s', async (_what, resolve) => {
    const error = await failureOf(fetchImageSafely('https://no-such-host.test/logo.png', { resolve }));
    expect(error).toBeInstanceOf(UrlFetchFailedError);
    expect(reason(error)).toMatch(/no-such-host\.test (could not be resolved|has no address)/);
  });
});
