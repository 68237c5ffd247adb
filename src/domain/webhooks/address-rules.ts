import { BlockList, isIP } from 'node:net';
import { embeddedIPv4, ipv6Groups } from './embedded-ipv4.js';

/** A BlockList of the networks (address and prefix length) of one family. */
function blockList(family: 'ipv4' | 'ipv6', networks: readonly (readonly [string, number])[]): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of networks) list.addSubnet(network, prefix, family);
  return list;
}

/**
 * Where a webhook may not be sent unless private addresses are allowed (README: "Where webhooks may go"):
 * loopback, private, shared (CGNAT), link-local (cloud metadata at 169.254.169.254), multicast, reserved,
 * documentation, benchmarking and unspecified ranges, and 192.88.99.0/24, the deprecated 6to4 relay anycast
 * (RFC 7526): an address many relays answer at, never one receiver's.
 */
const blockedV4 = blockList('ipv4', [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
]);

/**
 * The IPv6 counterparts, in a list of their own: a BlockList reads an IPv6 rule over `::ffff:0:0/96` as covering
 * IPv4 addresses too. Forms that carry an IPv4 address where it can be read are judged by it instead (see
 * embedded-ipv4.ts); these are refused whole:
 * - `::/64`: the unspecified and loopback addresses, the deprecated IPv4-compatible `::/96` (RFC 4291) and the
 *   IPv4-translated `::ffff:0:0:0/96` (RFC 2765). No receiver has such an address, and a stack that still knows
 *   the old forms sends them to the IPv4 address inside.
 * - `64:ff9b:1::/48`, NAT64 for local use (RFC 8215): reachable only inside its operator's network, and where
 *   the IPv4 address sits within it depends on that operator's prefix length.
 * - `2001::/32`, Teredo (RFC 4380): a client tunnelled from behind a NAT, carrying its server's IPv4 address and
 *   its own, obfuscated; no webhook receiver is reached through it.
 */
const blockedV6 = blockList('ipv6', [
  ['::', 64],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 32],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
]);

/** True when an IP address (v4 or v6) is one a webhook may be sent to by default. */
export function isPublicAddress(address: string): boolean {
  if (isIP(address) === 4) return !blockedV4.check(address, 'ipv4');
  const groups = ipv6Groups(address);
  if (groups === undefined) return false;
  const inside = embeddedIPv4(groups);
  if (inside !== undefined) return !blockedV4.check(inside, 'ipv4');
  return !blockedV6.check(address, 'ipv6');
}

/** The host of a URL as an IP literal (brackets taken off), or undefined for a name. */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) === 0 ? undefined : bare;
}
