/**
 * fetchImageSafely over real HTTP, against servers on this machine's loopback: fetching through the checked address (by host name, IPv6, no rebinding) and following redirects, each re-checked.
 * A loopback server is exactly what the function must refuse, so the tests that need one to answer let it through
 * with the `allowAddress` test hook, for that server's port only; every other loopback address and port stays refused
 * (see test/support/loopback-image-servers.ts).
 */
import { UrlFetchFailedError, UrlNotAllowedError } from '../../../shared/imaging/image-errors';
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
    expect(bytes.equals(await redSquarePng())).toBe(true);
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
    const resolve = jest.fn(
      async (): Promise<ResolvedAddress[]> =>
        calls++ === 0 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.0.0.1', family: 4 }],
    );
    // Act
    const bytes = await fetchImageSafely(`http://rebind.test:${server.port}/logo.png`, {
      resolve,
      allowAddress: allowing(server),
    });
    // Assert
    expect(bytes.equals(await redSquarePng())).toBe(true);
    expect(resolve).toHaveBeenCalledTimes(1);
    expect(server.connections).toBe(1);
  });

  it('connects over IPv6 to a checked IPv6 address', async () => {
    const server = await startServer(servePng);
    const bytes = await fetchImageSafely(`http://v6.test:${server.port}/logo.png`, {
      resolve: resolvingTo('::1'),
      allowAddress: allowing(server),
    });
    expect(bytes.equals(await redSquarePng())).toBe(true);
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
    expect(bytes.equals(await redSquarePng())).toBe(true);
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
  ])(
    'refuses a redirect to a second loopback server %s, which receives nothing',
    async (_how, locationFor, address) => {
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
    },
  );

  it.each([
    ['ftp://example.test/logo.png', /the redirect to ftp:\/\/example\.test\/logo\.png: the scheme ftp/],
    ['http://user:pw@example.test/', /user name or password/],
    ['http://example.test:8080/', /port 8080 is not 80 or 443/],
  ])('refuses a redirect to %s', async (location, expected) => {
    const server = await startServer((_request, response) => response.writeHead(302, { Location: location }).end());
    const error = await failureOf(
      fetchImageSafely(`http://127.0.0.1:${server.port}/`, {
        allowAddress: allowing(server),
        resolve: resolvingTo('93.184.215.14'),
      }),
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
    const noneAllowed = await failureOf(
      fetchImageSafely(`http://127.0.0.1:${server.port}/hop/1`, { ...options, maxRedirects: 0 }),
    );
    // Assert
    expect(three.equals(await redSquarePng())).toBe(true);
    expect(four).toBeInstanceOf(UrlFetchFailedError);
    expect(reason(four)).toBe('more than 3 redirects');
    expect(reason(noneAllowed)).toBe('more than 0 redirects');
  });

  it('fails on a redirect without a Location', async () => {
    const server = await startServer((_request, response) => response.writeHead(302).end());
    const error = await failureOf(
      fetchImageSafely(`http://127.0.0.1:${server.port}/`, { allowAddress: allowing(server) }),
    );
    expect(error).toBeInstanceOf(UrlFetchFailedError);
    expect(reason(error)).toMatch(/HTTP 302 without a Location/);
  });
});
