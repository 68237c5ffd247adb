import { isIP } from 'node:net';

/**
 * The eight 16-bit groups of an IPv6 address in any notation (compressed, or mixed with a dotted IPv4 tail), or
 * undefined for anything else — a zone id (`fe80::1%eth0`) included, as no webhook is sent to a scoped address.
 */
export function ipv6Groups(address: string): number[] | undefined {
  if (isIP(address) !== 6 || address.includes('%')) return undefined;
  const [head = '', tail] = address.split('::');
  const front = groupsOf(head);
  const back = tail === undefined ? [] : groupsOf(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

function groupsOf(text: string): number[] {
  if (text === '') return [];
  return text.split(':').flatMap((part) => {
    if (!part.includes('.')) return [parseInt(part, 16)];
    const [a = 0, b = 0, c = 0, d = 0] = part.split('.').map(Number);
    return [(a << 8) | b, (c << 8) | d];
  });
}

/**
 * The forms whose IPv4 address sits at a fixed place (the leading groups, and where the IPv4 address starts):
 * IPv4-mapped `::ffff:0:0/96` (a dual-stack socket dials the IPv4 address itself), the well-known NAT64 prefix
 * `64:ff9b::/96` (a NAT64 gateway forwards to the last 32 bits) and 6to4 `2002::/16` (bits 16–47 name the 6to4
 * router, which is reached over IPv4).
 */
const forms: readonly { readonly prefix: readonly number[]; readonly at: number }[] = [
  { prefix: [0, 0, 0, 0, 0, 0xffff], at: 6 },
  { prefix: [0x64, 0xff9b, 0, 0, 0, 0], at: 6 },
  { prefix: [0x2002], at: 1 },
];

/** The IPv4 address a packet to this IPv6 address ends up at, for the forms above; undefined for any other. */
export function embeddedIPv4(groups: readonly number[]): string | undefined {
  const form = forms.find(({ prefix }) => prefix.every((group, i) => groups[i] === group));
  if (form === undefined) return undefined;
  const high = groups[form.at] ?? 0;
  const low = groups[form.at + 1] ?? 0;
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}
