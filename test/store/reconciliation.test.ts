import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';

type Network = Awaited<ReturnType<typeof op.arrangeNetwork>>;

/** What can happen to a partner's money, in any order: visits, reversals, periods closed and paid, time passing. */
const step = fc.oneof(
  fc.record({ kind: fc.constant('visit' as const), usd: fc.boolean() }),
  fc.record({
    kind: fc.constant('reverse' as const),
    visit: fc.nat({ max: 20 }),
    cents: fc.option(fc.integer({ min: 1, max: 1500 }), { nil: undefined }),
  }),
  fc.record({ kind: fc.constant('close' as const), backMinutes: fc.integer({ min: 1, max: 600 }) }),
  fc.record({ kind: fc.constant('pay' as const), settlement: fc.nat({ max: 10 }) }),
  fc.record({ kind: fc.constant('wait' as const), minutes: fc.integer({ min: 1, max: 240 }) }),
);
type Step = typeof step extends fc.Arbitrary<infer S> ? S : never;

interface World {
  readonly t: TestApp;
  readonly n: Network;
  readonly usd: { id: number; gym_id: number };
  readonly visits: number[];
  readonly settlements: number[];
}

async function run(world: World, s: Step): Promise<void> {
  const { t, n } = world;
  if (s.kind === 'visit') {
    const product = s.usd ? { ...n.product, id: world.usd.id } : n.product;
    world.visits.push((await op.validatedVisit(t, n, product)).transactionId);
  } else if (s.kind === 'reverse' && world.visits.length > 0) {
    const id = world.visits[s.visit % world.visits.length];
    const body = { reason: 'property', ...(s.cents === undefined ? {} : { amount_cents: s.cents }) };
    const answer = await op.admin(t, 'POST', `/transactions/${id}/reversals`, body);
    expect([201, 409], answer.body).toContain(answer.statusCode);
  } else if (s.kind === 'close') {
    const now = t.clock.now();
    const body = {
      partner_id: n.partner.id,
      period_start: new Date(now - s.backMinutes * 60_000).toISOString(),
      period_end: new Date(now).toISOString(),
    };
    const answer = await op.admin(t, 'POST', '/settlements', body);
    expect([201, 409], answer.body).toContain(answer.statusCode);
    if (answer.statusCode === 201) {
      world.settlements.push(...answer.json<{ items: { id: number }[] }>().items.map((item) => item.id));
    }
  } else if (s.kind === 'pay' && world.settlements.length > 0) {
    const id = world.settlements[s.settlement % world.settlements.length];
    expect(
      (await op.admin(t, 'POST', `/settlements/${id}/paid`, { reference: `ref-${id}` })).statusCode,
    ).toBe(200);
  } else if (s.kind === 'wait') {
    t.clock.advance(s.minutes * 60_000);
  }
}

/**
 * For the partner and each currency: settled plus unsettled equals every entry; every entry is in at most one
 * settlement, with the amount the ledger holds; each settlement's totals are its entries'; no transaction is
 * reversed beyond its amount.
 */
async function expectReconciled(world: World): Promise<void> {
  const { t, n } = world;
  const ledger = await op.admin(t, 'GET', `/transactions?partner_id=${n.partner.id}&limit=1000`);
  const entries = ledger.json<{
    items: { id: number; currency: string; payout_cents: number; kind: string; reverses: number | null }[];
  }>().items;
  const settled = await t.store.db
    .selectFrom('settlement_entries as s')
    .innerJoin('settlements', 'settlements.id', 's.settlement_id')
    .select(['s.entry_id', 's.settlement_id', 's.payout_cents', 'settlements.currency'])
    .where('settlements.partner_id', '=', n.partner.id)
    .execute();
  const settlements = await t.store.db
    .selectFrom('settlements')
    .selectAll()
    .where('partner_id', '=', n.partner.id)
    .execute();

  expect(new Set(settled.map((row) => Number(row.entry_id))).size).toBe(settled.length);
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  for (const row of settled) {
    expect(byId.get(Number(row.entry_id))).toMatchObject({
      payout_cents: Number(row.payout_cents),
      currency: row.currency,
    });
  }
  for (const settlement of settlements) {
    const held = settled.filter((row) => Number(row.settlement_id) === Number(settlement.id));
    expect(Number(settlement.count)).toBe(held.length);
    expect(Number(settlement.total_cents)).toBe(held.reduce((sum, row) => sum + Number(row.payout_cents), 0));
  }
  for (const currency of new Set(entries.map((entry) => entry.currency))) {
    const all = entries.filter((entry) => entry.currency === currency);
    const settledIds = new Set(settled.map((row) => Number(row.entry_id)));
    const unsettled = all.filter((entry) => !settledIds.has(entry.id));
    const settledSum = settlements
      .filter((settlement) => settlement.currency === currency)
      .reduce((sum, settlement) => sum + Number(settlement.total_cents), 0);
    const sum = (rows: { payout_cents: number }[]) =>
      rows.reduce((total, row) => total + row.payout_cents, 0);
    expect(settledSum + sum(unsettled)).toBe(sum(all));
  }
  for (const visit of entries.filter((entry) => entry.kind === 'visit')) {
    const reversed = entries.filter((entry) => entry.reverses === visit.id);
    expect(
      visit.payout_cents + reversed.reduce((sum, entry) => sum + entry.payout_cents, 0),
    ).toBeGreaterThanOrEqual(0);
  }
}

describe.each(dialects)('money reconciles with the ledger, whatever happens (%s)', (dialect) => {
  const app = op.operatorApp({ dialect, env: { GATEHOUSE_DAILY_VISIT_LIMIT: '0' } });

  test('when visits, reversals, closes, payments and time come in any order, then settlements and unsettled entries add up to the ledger, and no entry is settled twice', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        const t = app();
        const n = await op.arrangeNetwork(t);
        const usd = await op.createProduct(t, n.gym.id, { payout_cents: 999, currency: 'USD' });
        const world: World = { t, n, usd, visits: [], settlements: [] };
        for (const s of steps) await run(world, s);
        await expectReconciled(world);
      }),
      { numRuns: 12 },
    );
  });
});
