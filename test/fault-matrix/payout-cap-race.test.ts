import { describe, expect, test } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { allowCodeWrites, failCodeWrites } from '../fixtures/fault-injection.js';

const TRIALS = 6;

/** Every write path of validation: the dialect's batched fast path, and the query builder's. */
const PATHS = dialects.flatMap((dialect) => [
  { dialect, groupCommit: true },
  { dialect, groupCommit: false },
]);

interface Entry {
  id: number;
  gym_id: number;
  payout_cents: number;
  pricing: { list_cents: number; paid_cents: number; rule: string; version: number | null };
}

/** The member's ledger entries as the operator API lists them, oldest first. */
async function entriesOf(t: TestApp, partnerId: number, member: string) {
  const page = op.ok<{ items: (Entry & { platform_id: string })[] }>(
    await op.admin(t, 'GET', `/transactions?partner_id=${partnerId}&limit=500`),
    200,
  );
  return page.items.filter((item) => item.platform_id === member).sort((a, b) => a.id - b.id);
}

/**
 * A partner of two gyms (1250 a visit) with a tier past 3000 paid a month, two visits already paid this month (one at
 * each gym, 2500), and six members each with a check-in waiting, at the two gyms in turn.
 */
async function sixAtATieredPartner(t: TestApp) {
  const n = await op.arrangeNetwork(t, { payout_cents: 1250 });
  const other = await op.createGym(t, n.partner.id);
  const otherProduct = await op.createProduct(t, other.id, { payout_cents: 1250 });
  const rules = { monthly_paid_visits_per_member: null, tiers: [{ after_cents: 3000, rate_pct: 50 }] };
  op.ok(await op.admin(t, 'PUT', `/partners/${n.partner.id}/payout-rules`, rules), 200);
  const gymOf = (index: number) =>
    index % 2 === 0 ? { id: n.gym.id, product: n.product } : { id: other.id, product: otherProduct };
  for (const index of [0, 1]) {
    const member = platformId();
    await op.createCheckin(t, gymOf(index).product, { platform_id: member });
    expect((await op.validate(t, n.key.key, gymOf(index).id, member)).statusCode).toBe(200);
  }
  const members = Array.from({ length: 6 }, () => platformId());
  for (const [index, member] of members.entries())
    await op.createCheckin(t, gymOf(index).product, { platform_id: member });
  return { n, gymOf, members };
}

describe.each(PATHS)('the last paid visit under a monthly cap, under concurrent validations (%j)', (path) => {
  const app = op.operatorApp(path);

  test('when a member with one paid visit left validates at two gyms of one partner at once, then exactly one visit is paid and the other is priced 0 under monthly-cap', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t, { payout_cents: 1250 });
    const other = await op.createGym(t, n.partner.id);
    const otherProduct = await op.createProduct(t, other.id, { payout_cents: 1250 });
    // A third gym of the partner, where each member's first visit of the month is made.
    const third = await op.createGym(t, n.partner.id);
    const thirdProduct = await op.createProduct(t, third.id, { payout_cents: 1250 });
    const rules = await op.admin(t, 'PUT', `/partners/${n.partner.id}/payout-rules`, {
      monthly_paid_visits_per_member: 2,
      tiers: [],
    });
    expect(rules.statusCode, rules.body).toBe(200);

    for (let trial = 0; trial < TRIALS; trial += 1) {
      const member = platformId();
      // One paid visit already this month: one left.
      await op.createCheckin(t, thirdProduct, { platform_id: member });
      expect((await op.validate(t, n.key.key, third.id, member)).statusCode).toBe(200);
      t.clock.advance(1_000);
      await op.createCheckin(t, n.product, { platform_id: member });
      await op.createCheckin(t, otherProduct, { platform_id: member });

      const replies = await Promise.all([
        op.validate(t, n.key.key, n.gym.id, member),
        op.validate(t, n.key.key, other.id, member),
      ]);

      expect(replies.map((reply) => reply.statusCode)).toEqual([200, 200]);
      const entries = await entriesOf(t, n.partner.id, member);
      const paid = { list_cents: 1250, paid_cents: 1250, rule: 'list', version: 1 };
      const capped = { list_cents: 1250, paid_cents: 0, rule: 'monthly-cap', version: 1 };
      // The reference: in commit order the month's first two visits are paid and the third is not; which of the two
      // concurrent ones committed first is the race's to decide.
      const [first, ...concurrent] = entries.map((entry) => ({
        gym_id: entry.gym_id,
        pricing: entry.pricing,
      }));
      expect(first).toEqual({ gym_id: third.id, pricing: paid });
      expect(concurrent.map((entry) => entry.pricing).sort((a, b) => b.paid_cents - a.paid_cents)).toEqual([
        paid,
        capped,
      ]);
      expect(entries.map((entry) => entry.payout_cents).sort()).toEqual([0, 1250, 1250]);
      // All three counted once each, on their check-ins; none on a counter row of the member.
      const marks = await t.store.db
        .selectFrom('checkins')
        .select(['gym_id', 'counted_month', 'counted_scope'])
        .where('platform_id', '=', member)
        .orderBy('gym_id')
        .execute();
      const counted = marks.map((m) => ({
        ...m,
        gym_id: Number(m.gym_id),
        counted_scope: Number(m.counted_scope),
      }));
      expect(counted).toEqual(
        [n.gym.id, other.id, third.id]
          .sort((a, b) => a - b)
          .map((gym_id) => ({ gym_id, counted_month: '2026-03', counted_scope: 0 })),
      );
      const counters = await t.store.db
        .selectFrom('payout_counters')
        .select('visits')
        .where('platform_id', '=', member)
        .execute();
      expect(counters).toEqual([]);
      t.clock.advance(1_000);
    }
  });

  test("when members validate at once at a partner's gyms as its month's paid total crosses a tier, then exactly the first of them in commit order is paid its list price and every later one the tier's rate", async () => {
    const t = app();
    const { n, gymOf, members } = await sixAtATieredPartner(t);

    const replies = await Promise.all(
      members.map((member, index) => op.validate(t, n.key.key, gymOf(index).id, member)),
    );

    expect(replies.map((reply) => reply.statusCode)).toEqual(members.map(() => 200));
    const paid = await t.store.db
      .selectFrom('transactions')
      .select(['payout_cents', 'pricing_rule'])
      .where('partner_id', '=', n.partner.id)
      .where('platform_id', 'in', members)
      .execute();
    const prices = paid.map((row) => `${row.pricing_rule}:${Number(row.payout_cents)}`).sort();
    // The reference: the first of them finds 2500 paid, not above 3000; each later one finds 3750 or more.
    expect(prices).toEqual(['list:1250', ...members.slice(1).map(() => 'volume-tier:625')]);
    const total = await t.store.db
      .selectFrom('payout_counters')
      .select('paid_cents')
      .where('partner_id', '=', n.partner.id)
      .where('platform_id', '=', '')
      .executeTakeFirstOrThrow();
    expect(Number(total.paid_cents)).toBe(3 * 1250 + 5 * 625);
  });

  test("when a validation among members validating at once as the partner's total crosses a tier fails, then its visit adds nothing: the others are priced in commit order as if it had not been made, and the total holds only what they were paid", async () => {
    const t = app();
    const { n, gymOf, members } = await sixAtATieredPartner(t);
    // The third to arrive fails as it stores the code sent along: its whole validation is rolled back, the changes
    // before it in its batch kept.
    await failCodeWrites(t.store, 'FAIL-9');
    let replies;
    try {
      replies = await Promise.all(
        members.map((member, index) =>
          op.validate(t, n.key.key, gymOf(index).id, member, index === 2 ? 'FAIL-9' : undefined),
        ),
      );
    } finally {
      await allowCodeWrites(t.store);
    }

    expect(replies.map((reply) => reply.statusCode)).toEqual([200, 200, 500, 200, 200, 200]);
    const paid = await t.store.db
      .selectFrom('transactions')
      .select(['platform_id', 'payout_cents', 'pricing_rule'])
      .where('partner_id', '=', n.partner.id)
      .where('platform_id', 'in', members)
      .execute();
    expect(paid.map((row) => row.platform_id).sort()).toEqual(
      members.filter((_, index) => index !== 2).sort(),
    );
    // The reference without the failed visit: the first finds 2500 paid; each later one 3750 or more.
    const prices = paid.map((row) => `${row.pricing_rule}:${Number(row.payout_cents)}`).sort();
    expect(prices).toEqual(['list:1250', ...[1, 3, 4, 5].map(() => 'volume-tier:625')]);
    const failed = await t.store.db
      .selectFrom('checkins')
      .select(['status', 'counted_month', 'counted_scope'])
      .where('platform_id', '=', members[2] ?? '')
      .execute();
    expect(failed).toEqual([{ status: 'pending', counted_month: null, counted_scope: null }]);
    const counters = await t.store.db
      .selectFrom('payout_counters')
      .select(['gym_id', 'platform_id', 'visits', 'paid_cents'])
      .where('partner_id', '=', n.partner.id)
      .execute();
    expect(
      counters.map((row) => ({ ...row, gym_id: Number(row.gym_id), visits: Number(row.visits) })),
    ).toEqual([{ gym_id: 0, platform_id: '', visits: 7, paid_cents: 2 * 1250 + 1250 + 4 * 625 }]);
  });
});
