import { describe, expect, test } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { expectReply } from '../fixtures/partner-api.js';

const LIST = { rule: 'list', version: 1 } as const;

/** A member's visit at the network's gym, validated now; its check-in and transaction id. */
async function visitOf(t: TestApp, n: op.Network, member: string) {
  const checkin = await op.createCheckin(t, n.product, { platform_id: member });
  expect((await op.validate(t, n.key.key, n.gym.id, member)).statusCode).toBe(200);
  const row = await t.store.db
    .selectFrom('transactions')
    .select('id')
    .where('checkin_id', '=', checkin.id)
    .executeTakeFirstOrThrow();
  return { checkin, id: Number(row.id) };
}

/** A partner paid 1 visit a member a month, and half a visit's price once its month passed 1000 cents. */
async function pricedNetwork(t: TestApp) {
  const n = await op.arrangeNetwork(t, { payout_cents: 1250, currency: 'BRL', description: 'Day pass' });
  const rules = { monthly_paid_visits_per_member: 1, tiers: [{ after_cents: 1000, rate_pct: 50 }] };
  op.ok(await op.admin(t, 'PUT', `/partners/${n.partner.id}/payout-rules`, rules), 200);
  return n;
}

describe.each(dialects)('payout rules price visits (%s)', (dialect) => {
  const app = op.operatorApp({ dialect, perTest: true, env: { GATEHOUSE_DAILY_VISIT_LIMIT: '0' } });

  test('when visits are priced under a cap and a tier, then the ledger, the partner feed and both views of the settlement show each price with its rule', async () => {
    const t = app();
    const n = await pricedNetwork(t);
    const [ana, bia] = [platformId(), platformId()];
    t.clock.advance(1_000);
    const paid = await visitOf(t, n, ana);
    t.clock.advance(1_000);
    const capped = await visitOf(t, n, ana);
    t.clock.advance(1_000);
    const tiered = await visitOf(t, n, bia);

    const entry = (
      v: { checkin: op.Checkin; id: number },
      second: string,
      paidCents: number,
      rule: object,
    ) => ({
      id: v.id,
      kind: 'visit',
      checkin_id: v.checkin.id,
      platform_id: v.checkin.platform_id,
      payout_cents: paidCents,
      currency: 'BRL',
      validated_at: `2026-03-02T12:00:0${second}Z`,
      effective_at: `2026-03-02T12:00:0${second}Z`,
      reverses: null,
      reason: null,
      pricing: { list_cents: 1250, paid_cents: paidCents, ...rule },
    });
    const entries = [
      entry(paid, '1', 1250, LIST),
      entry(capped, '2', 0, { rule: 'monthly-cap', version: 1 }),
      entry(tiered, '3', 625, { rule: 'volume-tier', version: 1 }),
    ];
    const ids = { partner_id: n.partner.id, gym_id: n.gym.id, product_id: n.product.id };
    expectReply(await op.admin(t, 'GET', `/transactions?gym_id=${n.gym.id}`), 200, {
      items: entries.map((e) => ({ ...e, ...ids })),
      next_cursor: null,
    });
    const product = { Id: n.product.id, description: 'Day pass' };
    const feed = await op.partnerTransactions(t, n.key.key, n.gym.id);
    expect(feed.json<{ results: unknown[] }>().results).toEqual(entries.map((e) => ({ ...e, product })));

    t.clock.set('2026-03-03T00:00:00Z');
    const closed = await op.admin(t, 'POST', '/settlements', {
      period_start: '2026-03-02',
      period_end: '2026-03-03',
      partner_id: n.partner.id,
    });
    const line = {
      gym_id: n.gym.id,
      count: 3,
      total_cents: 1875,
      pricing: [
        { rule: 'list', count: 1, list_cents: 1250, paid_cents: 1250 },
        { rule: 'monthly-cap', count: 1, list_cents: 1250, paid_cents: 0 },
        { rule: 'volume-tier', count: 1, list_cents: 1250, paid_cents: 625 },
      ],
    };
    const settlement = op.ok<{ items: { id: number; lines: unknown[]; total_cents: number }[] }>(closed, 201)
      .items[0];
    expect(settlement?.lines).toEqual([line]);
    expect(settlement?.total_cents).toBe(1875);
    const partnerView = await t.app.inject({
      method: 'GET',
      url: '/access/v1/settlements',
      headers: op.partnerHeaders(n.key.key, n.gym.id),
    });
    expectReply(partnerView, 200, {
      metadata: { total: 1, errors: 0 },
      results: [
        {
          id: settlement?.id,
          currency: 'BRL',
          period_start: '2026-03-02T00:00:00.000Z',
          period_end: '2026-03-03T00:00:00.000Z',
          status: 'closed',
          total_cents: 1875,
          count: 3,
          lines: [line],
          paid_at: null,
          reference: null,
        },
      ],
      next_cursor: null,
    });
    const counters = await t.store.db
      .selectFrom('payout_counters')
      .select(['month', 'gym_id', 'platform_id', 'visits', 'paid_cents'])
      .where('partner_id', '=', n.partner.id)
      .orderBy('platform_id')
      .execute();
    expect(
      counters.map((c) => ({
        ...c,
        gym_id: Number(c.gym_id),
        visits: Number(c.visits),
        paid_cents: Number(c.paid_cents),
      })),
    ).toEqual([{ month: '2026-03', gym_id: 0, platform_id: '', visits: 3, paid_cents: 1875 }]);
    // Each member's visits are counted on their check-ins, under the month and the partner's rules (scope 0).
    const marks = await t.store.db
      .selectFrom('checkins')
      .select(['id', 'platform_id', 'counted_month', 'counted_scope'])
      .where('gym_id', '=', n.gym.id)
      .orderBy('id')
      .execute();
    const counted = { counted_month: '2026-03', counted_scope: 0 };
    expect(marks.map((m) => ({ ...m, counted_scope: Number(m.counted_scope) }))).toEqual([
      { id: paid.checkin.id, platform_id: ana, ...counted },
      { id: capped.checkin.id, platform_id: ana, ...counted },
      { id: tiered.checkin.id, platform_id: bia, ...counted },
    ]);
  });

  test('when a capped visit is reversed, then nothing is left to take back (409), and a tiered one is taken back at what was paid without re-pricing later visits', async () => {
    const t = app();
    const n = await pricedNetwork(t);
    const member = platformId();
    await visitOf(t, n, member);
    const capped = await visitOf(t, n, member);
    const tiered = await visitOf(t, n, platformId());
    const later = await visitOf(t, n, platformId());

    const refused = await op.admin(t, 'POST', `/transactions/${capped.id}/reversals`, { reason: 'disputed' });
    const taken = await op.admin(t, 'POST', `/transactions/${tiered.id}/reversals`, { reason: 'disputed' });

    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ errors: { key: string }[] }>().errors[0]?.key).toBe('transaction.over-reversed');
    expect(taken.json<{ amount_cents: number }>().amount_cents).toBe(-625);
    const ledger = op.ok<{ items: { id: number; payout_cents: number; pricing: object }[] }>(
      await op.admin(t, 'GET', `/transactions?gym_id=${n.gym.id}`),
      200,
    ).items;
    expect(ledger.filter((e) => e.id >= tiered.id).map((e) => [e.payout_cents, e.pricing])).toEqual([
      [625, { list_cents: 1250, paid_cents: 625, rule: 'volume-tier', version: 1 }],
      [625, { list_cents: 1250, paid_cents: 625, rule: 'volume-tier', version: 1 }],
      [-625, { list_cents: -625, paid_cents: -625, rule: 'volume-tier', version: 1 }],
    ]);
    expect(ledger.find((e) => e.id === later.id)?.payout_cents).toBe(625);
  });

  test('when a live process of the release before pricing is on the database, then visits are paid their list price under no version and nothing is counted; once it is gone, the rules price', async () => {
    const t = app();
    const n = await pricedNetwork(t);
    const leave = await op.aliveEarlierRelease(t, '0014-plans');
    const member = platformId();

    const during = await visitOf(t, n, member);
    await leave();
    t.clock.advance(6_000);
    const after = await visitOf(t, n, member);

    const priced = await t.store.db
      .selectFrom('transactions')
      .select(['id', 'payout_cents', 'list_cents', 'pricing_rule', 'rule_version'])
      .where('id', 'in', [during.id, after.id])
      .orderBy('id')
      .execute();
    expect(
      priced.map((row) => [
        Number(row.payout_cents),
        Number(row.list_cents),
        row.pricing_rule,
        row.rule_version,
      ]),
    ).toEqual([
      [1250, 1250, 'list', null],
      [1250, 1250, 'list', 1],
    ]);
  });

  test("when a live process of the release before visit marks is on the database, then a priced visit is counted on the member's counter row; once it is gone, on the check-in, and the cap counts each visit once", async () => {
    const t = app();
    const n = await op.arrangeNetwork(t, { payout_cents: 1250, currency: 'BRL', description: 'Day pass' });
    const rules = { monthly_paid_visits_per_member: 2, tiers: [] };
    op.ok(await op.admin(t, 'PUT', `/partners/${n.partner.id}/payout-rules`, rules), 200);
    const leave = await op.aliveEarlierRelease(t, '0018-member-checkins-by-expiry');
    const member = platformId();

    const during = await visitOf(t, n, member);
    await leave();
    t.clock.advance(6_000);
    const second = await visitOf(t, n, member);
    t.clock.advance(1_000);
    const third = await visitOf(t, n, member);

    const priced = await t.store.db
      .selectFrom('transactions')
      .select(['id', 'payout_cents', 'pricing_rule', 'rule_version'])
      .where('id', 'in', [during.id, second.id, third.id])
      .orderBy('id')
      .execute();
    expect(priced.map((row) => [Number(row.id), Number(row.payout_cents), row.pricing_rule])).toEqual([
      [during.id, 1250, 'list'],
      [second.id, 1250, 'list'],
      [third.id, 0, 'monthly-cap'],
    ]);
    const counters = await t.store.db
      .selectFrom('payout_counters')
      .select(['gym_id', 'platform_id', 'visits', 'paid_cents'])
      .where('partner_id', '=', n.partner.id)
      .where('month', '=', '2026-03')
      .orderBy('platform_id')
      .execute();
    expect(
      counters.map((c) => [Number(c.gym_id), c.platform_id, Number(c.visits), Number(c.paid_cents)]),
    ).toEqual([
      [0, '', 3, 2500],
      [0, member, 1, 0],
    ]);
    const marks = await t.store.db
      .selectFrom('checkins')
      .select(['id', 'counted_month', 'counted_scope'])
      .where('platform_id', '=', member)
      .orderBy('id')
      .execute();
    expect(
      marks.map((m) => [m.id, m.counted_month, m.counted_scope === null ? null : Number(m.counted_scope)]),
    ).toEqual([
      [during.checkin.id, null, null],
      [second.checkin.id, '2026-03', 0],
      [third.checkin.id, '2026-03', 0],
    ]);
  });
});
