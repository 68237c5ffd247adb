import { BlockList, isIP } from 'node:net';

/**
 * Where a webhook may not be sent unless private addresses are allowed: loopback, private, shared (CGNAT),
 * link-local (cloud metadata at 169.254.169.254), multicast, reserved and unspecified ranges, and their IPv6
 * counterparts. IPv4-mapped and NAT64 IPv6 addresses are refused as a whole: they can name any IPv4 address.
 */
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** True when an IP address (v4 or v6) is one a webhook may be sent to by default. */
export function isPublicAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 0) return false;
  // IPv4-mapped (::ffff:a.b.c.d, or in hex): BlockList would read an IPv6 rule for them as covering all of IPv4.
  if (version === 6 && /^(0{0,4}:){0,5}:?ffff:/i.test(address) && address.includes('::')) return false;
  return !blocked.check(address, version === 4 ? 'ipv4' : 'ipv6');
}

/** The host of a URL as an IP literal (brackets taken off), or undefined for a name. */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) === 0 ? undefined : bare;
}
