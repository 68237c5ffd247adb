import { expect } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import type { TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';

/** One validated visit, as the ledger should record it. */
export interface Visit {
  readonly checkin: op.Checkin;
  readonly partnerId: number;
  readonly product: op.Product;
  /** The wire form: UTC, second precision. */
  readonly validatedAt: string;
}

function validateAt(t: TestApp, key: string, gymId: number, member: string) {
  return t.app.inject({
    method: 'POST',
    url: '/access/v1/validate',
    headers: {
      authorization: `Bearer ${key}`,
      'x-gym-id': String(gymId),
      'content-type': 'application/json',
    },
    payload: JSON.stringify({ platform_id: member }),
  });
}

/**
 * A mixed run of validations across two partners and two currencies, one visit a second (at .250 of it):
 * partner A's gym pays 1250 BRL, A's second gym 0 BRL, partner B's gym 999 USD. Between the valid ones come an
 * expired, a cancelled, an already validated and an unknown check-in, which must leave no trace in the ledger.
 */
export async function mixedRun(t: TestApp) {
  const a = await op.arrangeNetwork(t, { payout_cents: 1250, currency: 'BRL' });
  const free = await op.createProduct(t, (await op.createGym(t, a.partner.id)).id, {
    payout_cents: 0,
    currency: 'BRL',
  });
  const b = await op.arrangeNetwork(t, { payout_cents: 999, currency: 'USD' });
  const visits: Visit[] = [];
  const refusals: number[] = [];
  t.clock.advance(250);

  const visit = async (key: string, product: op.Product, partnerId: number) => {
    t.clock.advance(1000);
    const checkin = await op.createCheckin(t, product);
    expect((await validateAt(t, key, product.gym_id, checkin.platform_id)).statusCode).toBe(200);
    const validatedAt = new Date(t.clock.now()).toISOString().slice(0, 19) + 'Z';
    visits.push({ checkin: { ...checkin, status: 'validated' }, partnerId, product, validatedAt });
    return checkin;
  };
  const refuse = async (member: string) => {
    refusals.push((await validateAt(t, a.key.key, a.gym.id, member)).statusCode);
  };

  const first = await visit(a.key.key, a.product, a.partner.id);
  await visit(a.key.key, a.product, a.partner.id);
  const stale = new Date(t.clock.now() - op.TTL_MS).toISOString();
  await refuse((await op.createCheckin(t, a.product, { checked_in_at: stale })).platform_id);
  const cancelled = await op.createCheckin(t, a.product);
  await op.admin(t, 'POST', `/checkins/${cancelled.id}/cancel`);
  await refuse(cancelled.platform_id);
  await refuse(first.platform_id);
  await refuse(platformId());
  await visit(a.key.key, free, a.partner.id);
  await visit(b.key.key, b.product, b.partner.id);
  await visit(b.key.key, b.product, b.partner.id);

  expect(refusals).toEqual([400, 400, 400, 404]);
  return { a, b, free, visits };
}

/** The operator API's transaction for a visit: ids are 1, 2, … in a fresh store. */
export function wireTransaction(visit: Visit, id: number) {
  return {
    id,
    kind: 'visit',
    checkin_id: visit.checkin.id,
    partner_id: visit.partnerId,
    gym_id: visit.product.gym_id,
    product_id: visit.product.id,
    platform_id: visit.checkin.platform_id,
    payout_cents: visit.product.payout_cents,
    currency: visit.product.currency,
    validated_at: visit.validatedAt,
    effective_at: visit.validatedAt,
    reverses: null,
    reason: null,
  };
}

/** A JSON item as a CSV record reads back: every value a string, null an empty field. */
export function asCsvRecord(item: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(item).map(([field, value]) => [
      field,
      value === null ? '' : String(value as string | number),
    ]),
  );
}
