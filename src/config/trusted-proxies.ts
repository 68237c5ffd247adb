import { isIP } from 'node:net';

/**
 * Whose `X-Forwarded-For` to believe: nobody (false), the last `hops` proxies in front of gatehouse, or proxies
 * at these addresses and CIDR ranges. The client address is then the one the outermost trusted proxy saw — never
 * an entry further left, which the client writes itself.
 */
export type TrustedProxies = false | number | readonly string[];

/** proxy-addr's names for whole ranges (127.0.0.0/8 and ::1, 169.254.0.0/16 and fe80::/10, private ranges). */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * GATEHOUSE_TRUST_PROXY: `false`, a hop count, or a comma-separated list of addresses and CIDRs. `true` is refused:
 * it would believe the leftmost address, which any client can set to walk past the per-address limits.
 */
export function parseTrustedProxies(value: string): TrustedProxies {
  const trimmed = value.trim();
  if (trimmed === 'false' || trimmed === '0') return false;
  if (trimmed === 'true') {
    throw new Error(
      "true would believe any client's X-Forwarded-For: give the number of proxies in front of gatehouse (e.g. 1) or their addresses",
    );
  }
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const entries = trimmed.split(',').map((entry) => entry.trim());
  const invalid = entries.filter((entry) => !isAddressOrRange(entry));
  if (invalid.length > 0) {
    throw new Error(
      `not a hop count, IP address or CIDR range: ${invalid.map((entry) => JSON.stringify(entry)).join(', ')}`,
    );
  }
  return Object.freeze(entries);
}
