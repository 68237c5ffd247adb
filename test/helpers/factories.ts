import type { Services } from '../../src/services/index.js';

let sequence = 0;
/** Unique values per test, so no test depends on another's records. */
export function unique(): number {
  sequence += 1;
  return sequence;
}

export function platformId(): string {
  return String(1_000_000_000_000 + unique() * 7919).padStart(13, '0');
}

export interface ArrangeOptions {
  readonly payoutCents?: number;
  readonly currency?: string;
  readonly description?: string;
  readonly scopedToGym?: boolean;
}

/** A partner with one gym, one product and one live key: the usual starting point of a partner-API test. */
export async function arrangePartner(services: Services, options: ArrangeOptions = {}) {
  const n = unique();
  const partner = await services.catalog.createPartner(`Partner ${n}`);
  const gym = await services.catalog.createGym({ id: 1000 + n, partnerId: partner.id, name: `Gym ${n}` });
  const product = await services.catalog.createProduct(gym.id, {
    description: options.description ?? `Monthly plan ${n}`,
    payoutCents: options.payoutCents ?? 1250,
    currency: options.currency ?? 'BRL',
  });
  const issued = await services.apiKeys.issue(partner.id, {
    label: 'front desk',
    gymIds: options.scopedToGym === true ? [gym.id] : null,
  });
  return {
    partner,
    gym,
    product,
    key: issued.secret,
    keyId: issued.key.id,
    headers: { authorization: `Bearer ${issued.secret}`, 'x-gym-id': String(gym.id) },
  };
}

export type Arranged = Awaited<ReturnType<typeof arrangePartner>>;
