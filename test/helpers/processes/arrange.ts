import { expect } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { systemClock } from '../../../src/domain/clock.js';
import { createServices, type Services } from '../../../src/services/index.js';
import { createStore } from '../../../src/store/create-store.js';
import type { Store } from '../../../src/store/store.js';
import { arrangePartner, platformId } from '../factories.js';
import { transactionsOf } from '../store-state.js';
import { secondsOf, validationBody } from '../wire-bodies.js';

/**
 * The operator's services, in this test process, on the database the gatehouse processes use: how tests arrange
 * partners, keys and check-ins (the real clock, since the processes run on it too).
 */
export interface Operator {
  readonly store: Store;
  readonly services: Services;
  close(): Promise<void>;
}

export function openOperator(databaseUrl: string): Operator {
  const config = loadConfig({ GATEHOUSE_DATABASE_URL: databaseUrl, GATEHOUSE_LOG_LEVEL: 'silent' });
  const store = createStore(config);
  const services = createServices({ store, clock: systemClock, config });
  return { store, services, close: () => store.close() };
}

/** A partner with a gym, product and key, and `count` pending check-ins of distinct members, made now. */
export async function arrangeCheckins(services: Services, count: number) {
  const arranged = await arrangePartner(services);
  const checkins = [];
  for (let i = 0; i < count; i += 1) {
    checkins.push(
      await services.checkins.create({
        platformId: platformId(),
        gymId: arranged.gym.id,
        productId: arranged.product.id,
      }),
    );
  }
  return { ...arranged, checkins };
}

/** The body a successful validate answers with, for the arranged gym and product. */
export function validatedBody(
  arranged: { gym: { id: number }; product: { id: number; description: string } },
  member: string,
  validatedAtMs: number,
) {
  return validationBody(arranged.gym, arranged.product, { platform_id: member }, secondsOf(validatedAtMs));
}

/**
 * The one transaction a validated check-in must have (one, and only for a validated check-in), returned for its
 * validated_at.
 */
export async function expectOneTransaction(store: Store, checkinId: number) {
  const rows = await transactionsOf(store, checkinId);
  expect(rows, `check-in ${checkinId}: exactly one transaction`).toHaveLength(1);
  return rows[0]!;
}
