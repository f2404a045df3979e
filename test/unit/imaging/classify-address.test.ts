import fc from 'fast-check';
import { classifyAddress } from '../../../shared/imaging/classify-address';

const reasonOf = (address: string): string => {
  const verdict = classifyAddress(address);
  return verdict.isPublic ? 'public' : verdict.reason;
};

describe('classifyAddress: IPv4', () => {
  it.each([
    ['0.0.0.0', /this network/],
    ['0.1.2.3', /this network/],
    ['10.0.0.1', /private address \(10\.0\.0\.0\/8\)/],
    ['10.255.255.255', /private/],
    ['100.64.0.1', /carrier-grade NAT/],
    ['100.127.255.254', /carrier-grade NAT/],
    ['127.0.0.1', /loopback/],
    ['127.255.0.9', /loopback/],
    ['169.254.169.254', /link-local .*metadata/],
    ['169.254.0.1', /link-local/],
    ['172.16.0.1', /private address \(172\.16\.0\.0\/12\)/],
    ['172.31.255.255', /private/],
    ['192.0.0.8', /IETF/],
    ['192.0.2.10', /documentation/],
    ['192.88.99.1', /6to4 relay/],
    ['192.168.1.1', /private address \(192\.168\.0\.0\/16\)/],
    ['198.18.0.1', /benchmarking/],
    ['198.19.255.255', /benchmarking/],
    ['198.51.100.7', /documentation/],
    ['203.0.113.7', /documentation/],
    ['224.0.0.1', /multicast/],
    ['239.255.255.250', /multicast/],
    ['240.0.0.1', /reserved/],
    ['255.255.255.255', /broadcast/],
  ])('refuses %s', (address, reason) => {
    expect(reasonOf(address)).toMatch(reason);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '100.63.255.255',
    '100.128.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '169.253.255.255',
    '192.167.255.255',
    '198.17.255.255',
    '223.255.255.255',
    '11.0.0.0',
    '126.255.255.255',
  ])('takes the public address %s', (address) => {
    expect(reasonOf(address)).toBe('public');
  });
});

describe('classifyAddress: IPv6', () => {
  it.each([
    ['::', /unspecified/],
    ['::1', /loopback/],
    ['0:0:0:0:0:0:0:1', /loopback/],
    ['::ffff:127.0.0.1', /IPv4-mapped address of 127\.0\.0\.1, a loopback/],
    ['::ffff:7f00:1', /IPv4-mapped address of 127\.0\.0\.1/],
    ['::ffff:10.0.0.1', /IPv4-mapped address of 10\.0\.0\.1, a private/],
    ['::ffff:169.254.169.254', /metadata/],
    ['::ffff:a9fe:a9fe', /169\.254\.169\.254/],
    ['64:ff9b::10.0.0.1', /NAT64 address of 10\.0\.0\.1/],
    ['64:ff9b::7f00:1', /NAT64 address of 127\.0\.0\.1/],
    ['64:ff9b:1::1', /local-use NAT64/],
    ['2002:a00:1::1', /6to4 address of 10\.0\.0\.1/],
    ['::10.0.0.1', /IPv4-compatible/],
    ['::8.8.8.8', /IPv4-compatible/],
    ['100::1', /discard/],
    ['2001::1', /IETF protocol .*Teredo/],
    ['2001:db8::1', /documentation/],
    ['3fff::1', /documentation/],
    ['fc00::1', /unique local/],
    ['fd00:ec2::254', /unique local/],
    ['fe80::1', /link-local/],
    ['fe80::1%eth0', /link-local/],
    ['febf::1', /link-local/],
    ['fec0::1', /site-local/],
    ['ff02::1', /multicast/],
    ['4000::1', /outside 2000::\/3/],
    ['1::', /outside 2000::\/3/],
  ])('refuses %s', (address, reason) => {
    expect(reasonOf(address)).toMatch(reason);
  });

  it.each([
    '2606:4700:4700::1111',
    '2a00:1450:4001:82a::200e',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '3ffe::1',
  ])('takes the public address %s', (address) => {
    expect(reasonOf(address)).toBe('public');
  });

  it('refuses anything that is not an IP address', () => {
    for (const text of ['', 'localhost', '1.2.3', '::g', '[::1]', '1.2.3.4.5']) {
      expect(reasonOf(text)).toBe('not an IP address');
    }
  });

  it('judges an IPv4-mapped address exactly as the IPv4 address it carries', () => {
    fc.assert(
      fc.property(fc.ipV4(), (v4) => {
        const plain = classifyAddress(v4);
        const mapped = classifyAddress(`::ffff:${v4}`);
        expect(mapped.isPublic).toBe(plain.isPublic);
      }),
    );
  });

  it('reads every spelling of one IPv6 address the same way', () => {
    fc.assert(
      fc.property(fc.ipV6(), (v6) => {
        const expanded = expandIPv6(v6);
        expect(classifyAddress(expanded).isPublic).toBe(classifyAddress(v6).isPublic);
      }),
    );
  });
});

/** The full eight-group form, through the WHATWG URL parser (which is not the code under test). */
function expandIPv6(address: string): string {
  const compressed = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const [head = '', tail] = compressed.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const middle = tail === undefined ? [] : new Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].join(':');
}
