/**
 * fetchImageSafely over real HTTP, against servers on this machine's loopback: refused before any request is sent (url_not_allowed): schemes, credentials, private and reserved addresses of every form, host names resolving to them, ports other than 80 and 443.
 * A loopback server is exactly what the function must refuse, so the tests that need one to answer let it through
 * with the `allowAddress` test hook, for that server's port only; every other loopback address and port stays refused
 * (see test/support/loopback-image-servers.ts).
 */
import { UrlNotAllowedError } from '../../../shared/imaging/image-errors';
import { fetchImageSafely } from '../../../shared/imaging/fetch-image-safely';
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

describe('fetchImageSafely: refused before any request is sent (url_not_allowed)', () => {
  it('reaches a loopback server when, and only when, the test hook lets it through (the control)', async () => {
    // Arrange
    const server = await startServer(servePng);
    // Act
    const bytes = await fetchImageSafely(`http://127.0.0.1:${server.port}/logo.png`, {
      allowAddress: allowing(server),
    });
    // Assert
    expect(bytes.equals(await redSquarePng())).toBe(true);
    expect(server.connections).toBe(1);
  });

  it.each([
    ['127.0.0.1', (port: number) => `http://127.0.0.1:${port}/logo.png`, /127\.0\.0\.1 is a loopback address/],
    ['127.0.0.2', (port: number) => `http://127.0.0.2:${port}/`, /loopback/],
    ['[::1]', (port: number) => `http://[::1]:${port}/`, /::1 is a loopback address/],
    [
      '[::ffff:127.0.0.1]',
      (port: number) => `http://[::ffff:127.0.0.1]:${port}/`,
      /IPv4-mapped address of 127\.0\.0\.1/,
    ],
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

  it.each([[['127.0.0.1', '10.0.0.1']], [['10.0.0.1', '127.0.0.1']], [['127.0.0.1', '::ffff:169.254.169.254']]])(
    'refuses a host name resolving to %j: one private address is enough',
    async (addresses) => {
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
    },
  );

  it('refuses a host name resolving to public and private addresses alike', async () => {
    const resolve = resolvingTo('93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c', '192.168.10.20');
    const error = await failureOf(fetchImageSafely('https://cdn.example.test/logo.png', { resolve }));
    expect(error).toBeInstanceOf(UrlNotAllowedError);
    expect(reason(error)).toMatch(/cdn\.example\.test resolves to 192\.168\.10\.20, which is a private address/);
  });

  it.each([
    'http://images.example.test:8080/logo.png',
    'https://images.example.test:8443/',
    'http://images.example.test:22/',
  ])('refuses the port of %s before any DNS query', async (url) => {
    const resolve = resolvingTo('93.184.215.14');
    const error = await failureOf(fetchImageSafely(url, { resolve }));
    expect(error).toBeInstanceOf(UrlNotAllowedError);
    expect(reason(error)).toMatch(/port \d+ is not 80 or 443/);
    expect(resolve).not.toHaveBeenCalled();
  });

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
