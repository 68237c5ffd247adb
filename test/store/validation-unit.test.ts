import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ValidationRequest } from '../../src/store/validation-unit.js';
import { arrangePartner, platformId, type Arranged } from '../helpers/factories.js';
import { checkinRow, customCodeRow, expectLedgerInvariants, transactionsOf } from '../helpers/store-state.js';
import { dialects, startTestApp, type TestApp, type TestDialect } from '../helpers/test-app.js';

/**
 * The validate unit of work, called on the store directly: the query-builder version (PostgreSQL, and SQLite
 * without group commit) and SQLite's hand-tuned group commit must behave the same.
 */
interface Implementation {
  readonly name: string;
  readonly dialect: TestDialect;
  readonly groupCommit: boolean;
}

function implementationsOf(dialect: TestDialect): Implementation[] {
  if (dialect === 'postgres') return [{ name: 'postgres, query builder', dialect, groupCommit: false }];
  return [
    { name: 'sqlite, group commit', dialect, groupCommit: true },
    { name: 'sqlite, query builder', dialect, groupCommit: false },
  ];
}

const implementations = dialects.flatMap(implementationsOf);

describe.each(implementations)('store.validate ($name)', ({ dialect, groupCommit }) => {
  let t: TestApp;
  let a: Arranged;
  beforeAll(async () => {
    t = await startTestApp({ dialect, groupCommit });
    a = await arrangePartner(t.services, { payoutCents: 990, currency: 'USD', description: 'Yoga class' });
  });
  afterAll(() => t.close());

  async function pending(checkedInAt = t.clock.now()) {
    const member = platformId();
    const checkin = await t.services.checkins.create({
      platformId: member,
      gymId: a.gym.id,
      productId: a.product.id,
      checkedInAt,
    });
    return { member, checkin };
  }
  const request = (member: string, customCode?: string): ValidationRequest => ({
    gymId: a.gym.id,
    platformId: member,
    customCode,
    now: t.clock.now(),
  });

  test('when the check-in is pending, then it is validated with its transaction, atomically with the code', async () => {
    const { member, checkin } = await pending();
    expect(await t.store.validate(request(member, 'QR-1'))).toEqual({
      condition: 'valid',
      productId: a.product.id,
      productDescription: 'Yoga class',
      validatedAt: t.clock.now(),
    });
    expect((await checkinRow(t.store, checkin.id)).status).toBe('validated');
    expect(await transactionsOf(t.store, checkin.id)).toEqual([
      {
        id: expect.any(Number) as number,
        checkin_id: checkin.id,
        partner_id: a.partner.id,
        gym_id: a.gym.id,
        product_id: a.product.id,
        platform_id: member,
        payout_cents: 990,
        currency: 'USD',
        validated_at: t.clock.now(),
      },
    ]);
    expect((await customCodeRow(t.store, a.gym.id, member))?.code).toBe('QR-1');
  });

  test('when the check-in is validated, cancelled, expired or absent, then each condition, and the code only where it exists', async () => {
    const validated = await pending();
    await t.store.validate(request(validated.member));
    const cancelled = await pending();
    await t.services.checkins.cancel(cancelled.checkin.id);
    const expired = await pending(t.clock.now() - t.config.checkinTtlSeconds * 1000);
    const absent = platformId();
    const outcomes = await Promise.all(
      [validated.member, cancelled.member, expired.member, absent].map((member) =>
        t.store.validate(request(member, `C-${member.slice(-4)}`)),
      ),
    );
    expect(outcomes).toEqual([
      { condition: 'already-validated' },
      { condition: 'cancelled' },
      { condition: 'expired' },
      { condition: 'notfound' },
    ]);
    for (const member of [validated.member, cancelled.member, expired.member]) {
      expect((await customCodeRow(t.store, a.gym.id, member))?.code).toBe(`C-${member.slice(-4)}`);
    }
    expect(await customCodeRow(t.store, a.gym.id, absent)).toBeUndefined();
    await expectLedgerInvariants(t.store);
  });

  test('when 50 validations of one check-in arrive together, then exactly one is valid and one transaction exists', async () => {
    const { member, checkin } = await pending();
    const outcomes = await Promise.all(Array.from({ length: 50 }, () => t.store.validate(request(member))));
    expect(outcomes.filter((outcome) => outcome.condition === 'valid')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.condition === 'already-validated')).toHaveLength(49);
    expect(await transactionsOf(t.store, checkin.id)).toHaveLength(1);
    await expectLedgerInvariants(t.store);
  });

  test('when one validation of a batch fails, then its neighbours are validated and it leaves nothing behind', async () => {
    const failing = await pending();
    const neighbours = [await pending(), await pending()];
    // No custom_codes table: only the validation that carries a code can fail.
    await t.store.db.schema.alterTable('custom_codes').renameTo('custom_codes_away').execute();
    try {
      const settled = await Promise.allSettled([
        t.store.validate(request(neighbours[0]?.member ?? '')),
        t.store.validate(request(failing.member, 'QR-X')),
        t.store.validate(request(neighbours[1]?.member ?? '')),
      ]);
      expect(settled.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    } finally {
      await t.store.db.schema.alterTable('custom_codes_away').renameTo('custom_codes').execute();
    }
    expect((await checkinRow(t.store, failing.checkin.id)).status).toBe('pending');
    expect(await transactionsOf(t.store, failing.checkin.id)).toEqual([]);
    for (const neighbour of neighbours) {
      expect((await checkinRow(t.store, neighbour.checkin.id)).status).toBe('validated');
    }
    await expectLedgerInvariants(t.store);
  });
});
