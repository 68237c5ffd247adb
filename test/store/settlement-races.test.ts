import { setImmediate as tick } from 'node:timers/promises';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';

/**
 * One round: visits and reversals sent together with closes of the period they fall in (one or two closes at once,
 * of the same period or overlapping ones), then time passing. A validation whose clock was read before the close's
 * end but whose write lands after the close's read is a late entry.
 */
const round = fc.record({
  visits: fc.integer({ min: 0, max: 6 }),
  reversals: fc.array(fc.nat({ max: 30 }), { maxLength: 2 }),
  closes: fc.array(fc.integer({ min: 1, max: 90 }), { minLength: 1, maxLength: 2 }),
  waitMinutes: fc.integer({ min: 1, max: 120 }),
});
type Round = typeof round extends fc.Arbitrary<infer R> ? R : never;

interface Entry {
  id: number;
  currency: string;
  payout_cents: number;
  effective_at: string;
}

async function ledger(t: TestApp, partnerId: number): Promise<Entry[]> {
  const answer = await op.admin(t, 'GET', `/transactions?partner_id=${partnerId}&limit=1000`);
  return answer.json<{ items: Entry[] }>().items;
}

async function settled(t: TestApp, partnerId: number) {
  const rows = await t.store.db
    .selectFrom('settlement_entries as s')
    .innerJoin('settlements', 'settlements.id', 's.settlement_id')
    .select(['s.entry_id', 's.settlement_id', 's.payout_cents', 'settlements.period_start'])
    .where('settlements.partner_id', '=', partnerId)
    .execute();
  const settlements = await t.store.db
    .selectFrom('settlements')
    .selectAll()
    .where('partner_id', '=', partnerId)
    .execute();
  return { rows, settlements };
}

/** Sends a round's requests together; answers the ends of the periods it closed. */
async function race(t: TestApp, n: op.Network, visits: number[], r: Round): Promise<number[]> {
  const checkins = [];
  for (let i = 0; i < r.visits; i += 1)
    checkins.push(await op.createCheckin(t, n.product, { platform_id: platformId() }));
  const start = t.clock.now();
  const writes = [
    ...checkins.map((checkin) => op.validate(t, n.key.key, n.gym.id, checkin.platform_id)),
    ...r.reversals
      .filter(() => visits.length > 0)
      .map((pick) =>
        op.admin(t, 'POST', `/transactions/${visits[pick % visits.length]}/reversals`, {
          reason: 'race',
          amount_cents: 100,
        }),
      ),
  ];
  await tick();
  t.clock.advance(1000);
  const end = t.clock.now();
  const closes = r.closes.map((back) =>
    op.admin(t, 'POST', '/settlements', {
      partner_id: n.partner.id,
      period_start: new Date(start - back * 60_000).toISOString(),
      period_end: new Date(end).toISOString(),
    }),
  );
  const answers = await Promise.all([...writes, ...closes]);
  for (const answer of answers.slice(0, checkins.length)) expect(answer.statusCode, answer.body).toBe(200);
  for (const answer of answers.slice(checkins.length))
    expect([201, 409], answer.body).toContain(answer.statusCode);
  t.clock.advance(r.waitMinutes * 60_000);
  return answers.slice(writes.length).some((answer) => answer.statusCode === 201) ? [end] : [];
}

/**
 * Every entry is in at most one settlement with the ledger's amount, each settlement's totals are its entries',
 * settled plus unsettled equals the ledger per currency, and every entry in `due` is settled.
 */
async function expectSettledOnce(t: TestApp, partnerId: number, due: readonly Entry[]): Promise<void> {
  const entries = await ledger(t, partnerId);
  const { rows, settlements } = await settled(t, partnerId);
  const ids = rows.map((row) => Number(row.entry_id));
  expect(new Set(ids).size).toBe(ids.length);
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  for (const row of rows) expect(byId.get(Number(row.entry_id))?.payout_cents).toBe(Number(row.payout_cents));
  for (const settlement of settlements) {
    const held = rows.filter((row) => Number(row.settlement_id) === Number(settlement.id));
    expect([Number(settlement.count), Number(settlement.total_cents)]).toEqual([
      held.length,
      held.reduce((sum, row) => sum + Number(row.payout_cents), 0),
    ]);
  }
  const sum = (list: readonly { payout_cents: number }[]) => list.reduce((s, e) => s + e.payout_cents, 0);
  const settledIds = new Set(ids);
  const settledSum = settlements.reduce((s, row) => s + Number(row.total_cents), 0);
  expect(settledSum + sum(entries.filter((entry) => !settledIds.has(entry.id)))).toBe(sum(entries));
  expect(due.filter((entry) => !settledIds.has(entry.id))).toEqual([]);
}

/** Entries committed before a close that ended at `end`, dated from the partner's first closed period on. */
async function dueBy(t: TestApp, partnerId: number, committed: readonly Entry[], end: number) {
  const { settlements } = await settled(t, partnerId);
  const first = Math.min(...settlements.map((row) => Number(row.period_start)));
  return committed.filter((entry) => {
    const at = Date.parse(entry.effective_at);
    return at >= first && at < end;
  });
}

describe.each(dialects)('every entry settled exactly once, closes racing writes (%s)', (dialect) => {
  const app = op.operatorApp({ dialect, env: { GATEHOUSE_DAILY_VISIT_LIMIT: '0' } });

  test('when visits and reversals are written while their period is closed, by one or two closes at once, then once a later period is closed every entry committed before it is in exactly one settlement and the totals equal the ledger', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(round, { minLength: 2, maxLength: 5 }), async (rounds) => {
        const t = app();
        const n = await op.arrangeNetwork(t);
        const due: Entry[] = [];
        for (const r of rounds) {
          const committed = await ledger(t, n.partner.id);
          const visits = committed.filter((entry) => entry.payout_cents > 0).map((entry) => entry.id);
          for (const end of await race(t, n, visits, r))
            due.push(...(await dueBy(t, n.partner.id, committed, end)));
          await expectSettledOnce(t, n.partner.id, due);
        }
        // A close after every write: nothing from the first closed period on is left behind.
        const committed = await ledger(t, n.partner.id);
        const final = await op.admin(t, 'POST', '/settlements', {
          partner_id: n.partner.id,
          period_start: new Date(t.clock.now() - 60_000).toISOString(),
          period_end: new Date(t.clock.now()).toISOString(),
        });
        expect(final.statusCode, final.body).toBe(201);
        await expectSettledOnce(t, n.partner.id, await dueBy(t, n.partner.id, committed, t.clock.now()));
      }),
      { numRuns: 8 },
    );
  });
});
