import fc from 'fast-check';
import { UrlNotAllowedError } from '../../../shared/imaging/image-errors';
import { classifyAddress } from '../../../shared/imaging/classify-address';
import { checkUrlBeforeLookup } from '../../../shared/imaging/fetch-image-safely';

/** The refusal's reason, or 'allowed'; anything thrown that is not a refusal fails the test. */
function verdictOf(url: string | URL, options?: Parameters<typeof checkUrlBeforeLookup>[1], via?: string): string {
  try {
    checkUrlBeforeLookup(url, options, via);
    return 'allowed';
  } catch (error) {
    expect(error).toBeInstanceOf(UrlNotAllowedError);
    expect((error as UrlNotAllowedError).status).toBe(400);
    return String((error as UrlNotAllowedError).details?.reason);
  }
}

describe('checkUrlBeforeLookup: what passes', () => {
  it.each([
    'https://example.com/logo.png',
    'http://example.com:80/logo.png',
    'https://example.com:443/logo.png',
    'http://93.184.216.34/logo.png',
    'https://[2606:2800:220:1:248:1893:25c8:1946]/logo.png',
    'http://private.example.internal/logo.png',
  ])('%s', (url) => {
    const parsed = checkUrlBeforeLookup(url);

    expect(parsed).toBeInstanceOf(URL);
    expect(parsed.href).toBe(new URL(url).href);
  });

  it('hands back the URL object it was given', () => {
    const url = new URL('https://example.com/a.png');

    expect(checkUrlBeforeLookup(url)).toBe(url);
  });
});

describe('checkUrlBeforeLookup: refused for its shape', () => {
  it.each([
    ['file:///etc/passwd', /scheme file is not http or https/],
    ['gopher://example.com/_x', /scheme gopher/],
    ['data:image/png;base64,iVBORw0KGgo=', /scheme data/],
    ['http://user:secret@example.com/logo.png', /user name or password/],
    ['http://user@93.184.216.34/logo.png', /user name or password/],
    ['http://localhost/logo.png', /localhost names this machine/],
    ['http://IMAGES.LOCALHOST./logo.png', /images\.localhost names this machine/],
    ['http://example.com:22/logo.png', /port 22 is not 80 or 443/],
    ['https://example.com:8443/logo.png', /port 8443/],
    ['http://93.184.216.34:8080/logo.png', /port 8080/],
    ['/logo.png', /not an absolute URL/],
    ['http://', /not an absolute URL/],
  ])('%s', (url, reason) => {
    expect(verdictOf(url)).toMatch(reason);
  });

  it.each([
    ['http://127.0.0.1/', /127\.0\.0\.1 is a loopback/],
    ['http://127.1/', /127\.0\.0\.1 is a loopback/],
    ['http://0x7f000001/', /127\.0\.0\.1 is a loopback/],
    ['http://2130706433/', /127\.0\.0\.1 is a loopback/],
    ['http://017700000001/', /127\.0\.0\.1 is a loopback/],
    ['http://0/', /this network/],
    ['http://[::1]/', /::1 is a loopback/],
    ['http://[0:0:0:0:0:0:0:1]/', /loopback/],
    ['http://[::ffff:127.0.0.1]/', /IPv4-mapped.*loopback/],
    ['http://169.254.169.254/latest/meta-data/', /link-local/],
    ['http://10.0.0.1/', /10\.0\.0\.0\/8/],
    ['http://[fd00:ec2::254]/', /unique local/],
    ['http://[fe80::1]/', /link-local/],
    ['http://[64:ff9b::a00:1]/', /NAT64.*10\.0\.0\.0\/8/],
  ])('the address literal in %s', (url, reason) => {
    expect(verdictOf(url)).toMatch(reason);
  });

  it("names a literal's address before its port", () => {
    expect(verdictOf('http://127.0.0.1:8080/')).toMatch(/loopback/);
  });

  it('puts `via` in front of the reason', () => {
    expect(verdictOf('http://10.0.0.1/', {}, 'the redirect to http://10.0.0.1/: ')).toMatch(
      /^the redirect to http:\/\/10\.0\.0\.1\/: 10\.0\.0\.1 is/,
    );
  });

  it('refuses an IPv4 literal exactly when classifyAddress does', () => {
    fc.assert(
      fc.property(fc.ipV4(), (address) => {
        const refused = verdictOf(`http://${address}/logo.png`) !== 'allowed';
        expect(refused).toBe(!classifyAddress(address).isPublic);
      }),
    );
  });

  it('refuses an IPv6 literal exactly when classifyAddress does', () => {
    fc.assert(
      fc.property(fc.ipV6(), (address) => {
        const refused = verdictOf(`http://[${address}]/logo.png`) !== 'allowed';
        expect(refused).toBe(!classifyAddress(address).isPublic);
      }),
    );
  });
});

describe('checkUrlBeforeLookup: the allowAddress hook', () => {
  const allowAddress = (address: string, port: number) => address === '127.0.0.1' && port === 8080;

  it('waives the address and port rules for the pair it admits', () => {
    expect(verdictOf('http://127.0.0.1:8080/logo.png', { allowAddress })).toBe('allowed');
  });

  it('still refuses a pair it does not admit', () => {
    expect(verdictOf('http://127.0.0.1:8081/logo.png', { allowAddress })).toMatch(/loopback/);
    expect(verdictOf('http://[::1]:8080/logo.png', { allowAddress })).toMatch(/loopback/);
  });

  it("leaves a host name's port to be checked against its addresses", () => {
    expect(verdictOf('http://images.test:8080/logo.png', { allowAddress })).toBe('allowed');
  });

  it('waives none of the shape rules', () => {
    expect(verdictOf('ftp://127.0.0.1:8080/logo.png', { allowAddress })).toMatch(/scheme ftp/);
    expect(verdictOf('http://u:p@127.0.0.1:8080/logo.png', { allowAddress })).toMatch(/user name or password/);
    expect(verdictOf('http://localhost:8080/logo.png', { allowAddress })).toMatch(/names this machine/);
  });
});
