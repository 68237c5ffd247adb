import { lookup } from 'node:dns/promises';
import { InputError } from '../../domain/errors.js';
import { isPublicAddress, literalAddress } from '../../domain/webhooks/address-rules.js';

/** Every address a host name resolves to. */
export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * At registration: the URL's host, a literal or every address its name resolves to, must be one webhooks may
 * be sent to (unless private addresses are allowed); a name that does not resolve is refused either way.
 */
export async function assertDeliverableHost(
  url: URL,
  resolver: Resolver,
  allowPrivate: boolean,
): Promise<void> {
  const literal = literalAddress(url.hostname);
  let addresses: string[];
  if (literal !== undefined) addresses = [literal];
  else {
    addresses = await resolver(url.hostname).catch(() => []);
    if (addresses.length === 0) throw new InputError('url', `${url.hostname} does not resolve`);
  }
  if (allowPrivate) return;
  if (!addresses.every(isPublicAddress)) {
    throw new InputError(
      'url',
      'must not point to a loopback, private, link-local or multicast address (GATEHOUSE_WEBHOOK_ALLOW_PRIVATE)',
    );
  }
}
