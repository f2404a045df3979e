/**
 * Whether an IP address is on the public internet, and if not, why: the rules of the URL fetch (SSRF defence).
 * Parsing and range matching are ipaddr.js's; the table of refused ranges and their reasons is ours. Anything not
 * understood is refused: the rule is an allow-list (public IPv4 outside the special-purpose ranges, IPv6 global
 * unicast 2000::/3 outside its special ranges).
 */
import net from 'node:net';
import ipaddr from 'ipaddr.js';

export type AddressVerdict = { isPublic: true } | { isPublic: false; reason: string };

interface Range {
  cidr: [ipaddr.IPv4 | ipaddr.IPv6, number];
  reason: string;
}

function range(cidr: string, reason: string): Range {
  return { cidr: ipaddr.parseCIDR(cidr), reason };
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

export function classifyAddress(address: string): AddressVerdict {
  const parsed = parseStrict(address);
  if (!parsed) return { isPublic: false, reason: 'not an IP address' };
  return parsed.kind() === 'ipv4' ? classifyIPv4(parsed as ipaddr.IPv4) : classifyIPv6(parsed as ipaddr.IPv6);
}

/** Two spellings of one address (an IPv4 address and its IPv4-mapped IPv6 form are one). */
export function sameAddress(left: string | undefined, right: string): boolean {
  const a = left === undefined ? undefined : parseStrict(left);
  const b = parseStrict(right);
  if (!a || !b) return false;
  const asV6 = (address: ipaddr.IPv4 | ipaddr.IPv6): string =>
    (address.kind() === 'ipv4'
      ? (address as ipaddr.IPv4).toIPv4MappedAddress()
      : (address as ipaddr.IPv6)
    ).toNormalizedString();
  return asV6(a) === asV6(b);
}

/**
 * Only the standard forms Node's own resolver and sockets use (dotted-quad IPv4, RFC 4291 IPv6; a `%zone` suffix
 * dropped): ipaddr.js alone also reads octal, hex and short IPv4 forms, which no resolved address takes.
 */
function parseStrict(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const address = text.replace(/%.*$/, '');
  const kind = net.isIP(address);
  if (kind === 0) return undefined;
  return kind === 4 ? ipaddr.IPv4.parse(address) : ipaddr.IPv6.parse(withHexTail(address));
}

/**
 * An IPv6 address whose last 32 bits are written as a dotted quad, with the quad as two hex groups: ipaddr.js reads
 * every such address as IPv4-mapped (`::10.0.0.1` as `::ffff:10.0.0.1`), which would hide the deprecated
 * IPv4-compatible form and any other prefix.
 */
function withHexTail(address: string): string {
  const dotted = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  if (!dotted) return address;
  const [a, b, c, d] = dotted.slice(2).map(Number) as [number, number, number, number];
  return `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

function classifyIPv4(address: ipaddr.IPv4): AddressVerdict {
  const refused = IPV4_REFUSED.find((candidate) => matches(address, candidate));
  return refused ? { isPublic: false, reason: refused.reason } : { isPublic: true };
}

function classifyIPv6(address: ipaddr.IPv6): AddressVerdict {
  for (const { range: embedding, offset } of IPV6_EMBEDDING) {
    if (!matches(address, embedding)) continue;
    const v4 = new ipaddr.IPv4(address.toByteArray().slice(offset, offset + 4));
    const inner = classifyIPv4(v4);
    return inner.isPublic
      ? inner
      : { isPublic: false, reason: `${embedding.reason} of ${v4.toString()}, ${inner.reason}` };
  }
  const refused = IPV6_REFUSED.find((candidate) => matches(address, candidate));
  if (refused) return { isPublic: false, reason: refused.reason };
  if (!matches(address, IPV6_GLOBAL_UNICAST))
    return { isPublic: false, reason: 'a reserved IPv6 address (outside 2000::/3)' };
  return { isPublic: true };
}

function matches(address: ipaddr.IPv4 | ipaddr.IPv6, { cidr }: Range): boolean {
  return address.kind() === cidr[0].kind() && address.match(cidr);
}
