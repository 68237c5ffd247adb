import { parse } from 'csv-parse/sync';
import { asCsvRecord } from '../fixtures/ledger-run.js';
import { describe, expect, test } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { expectReply } from '../fixtures/partner-api.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';

type Network = Awaited<ReturnType<typeof op.arrangeNetwork>>;
interface Shown {
  id: number;
  partner_id: number;
  currency: string;
  total_cents: number;
  status: string;
  lines: unknown[];
}

/** A settlement line's entries paid their list price (no payout rules in these tests). */
const atList = (count: number, cents: number) => ({
  rule: 'list',
  count,
  list_cents: cents,
  paid_cents: cents,
});

/** A validated visit at the network's gym, at the clock's now; its transaction id. */
async function visit(t: TestApp, n: Network): Promise<number> {
  return (await op.validatedVisit(t, n)).transactionId;
}

const close = (t: TestApp, body: Record<string, unknown>) => op.admin(t, 'POST', '/settlements', body);
const DAY_2 = { period_start: '2026-03-02', period_end: '2026-03-03' };
const DAY_3 = { period_start: '2026-03-03', period_end: '2026-03-04' };

describe.each(dialects)('operator API: settlements (%s)', (dialect) => {
  const app = op.operatorApp({ dialect, perTest: true });

  test('when a period is closed for every partner, then one settlement per partner·currency holds exactly its entries, with lines per gym; it can be listed, exported and paid once', async () => {
    const t = app();
    const a = await op.arrangeNetwork(t);
    const b = await op.arrangeNetwork(t, { payout_cents: 999, currency: 'USD' });
    const [a1, a2, b1] = [await visit(t, a), await visit(t, a), await visit(t, b)];
    t.clock.set('2026-03-03T00:00:00Z');
    const late = await visit(t, a);

    const response = await close(t, DAY_2);

    const settlement = (n: Network, id: number, currency: string, cents: number, count: number) => ({
      id,
      partner_id: n.partner.id,
      currency,
      period_start: '2026-03-02T00:00:00.000Z',
      period_end: '2026-03-03T00:00:00.000Z',
      status: 'closed',
      total_cents: cents,
      count,
      lines: [{ gym_id: n.gym.id, count, total_cents: cents, pricing: [atList(count, cents)] }],
      paid_at: null,
      reference: null,
      created_by: 'operator',
      created_at: '2026-03-03T00:00:00.000Z',
    });
    const [first, second] = response.json<{ items: Shown[] }>().items;
    const shownA = settlement(a, first?.id ?? 0, 'BRL', 2500, 2);
    const shownB = settlement(b, second?.id ?? 0, 'USD', 999, 1);
    expectReply(response, 201, { items: [shownA, shownB], next_cursor: null });
    const entries = await op.admin(t, 'GET', `/settlements/${shownA.id}/entries`);
    expect(entries.json<{ items: { id: number }[] }>().items.map((item) => item.id)).toEqual([a1, a2]);
    const csv = await op.admin(t, 'GET', `/settlements/${shownB.id}/entries?format=csv`);
    const csvRows = parse<{ id: string }>(csv.body, { columns: true });
    expect(csvRows.map((row) => Number(row.id))).toEqual([b1]);
    const entriesB = await op.admin(t, 'GET', `/settlements/${shownB.id}/entries`);
    expect(csvRows).toEqual(entriesB.json<{ items: Record<string, unknown>[] }>().items.map(asCsvRecord));
    expectReply(await op.admin(t, 'GET', `/settlements?partner_id=${a.partner.id}`), 200, {
      items: [shownA],
      next_cursor: null,
    });

    t.clock.set('2026-03-04T10:00:00Z');
    const paid = await op.admin(t, 'POST', `/settlements/${shownA.id}/paid`, { reference: 'PIX-123' });
    const again = await op.admin(t, 'POST', `/settlements/${shownA.id}/paid`, { reference: 'PIX-123' });
    const other = await op.admin(t, 'POST', `/settlements/${shownA.id}/paid`, { reference: 'PIX-999' });

    const paidShown = {
      ...shownA,
      status: 'paid',
      paid_at: '2026-03-04T10:00:00.000Z',
      reference: 'PIX-123',
    };
    expectReply(paid, 200, paidShown);
    expectReply(again, 200, paidShown);
    expectReply(
      other,
      409,
      errorEnvelope('settlement.already-paid', 'settlement was already paid with another reference'),
    );
    const listed = await op.admin(t, 'GET', '/settlements?status=paid&format=csv');
    expect(parse(listed.body, { columns: true })).toEqual([
      expect.objectContaining({ id: String(shownA.id), status: 'paid', reference: 'PIX-123' }),
    ]);
    const settled = await t.store.db.selectFrom('settlement_entries').select('entry_id').execute();
    expect(settled.map((row) => Number(row.entry_id)).sort((x, y) => x - y)).toEqual([a1, a2, b1]);
    expect(settled.map((row) => Number(row.entry_id))).not.toContain(late);
    const audit = await t.store.db
      .selectFrom('audit_log')
      .select(['action', 'entity_id'])
      .where('entity', '=', 'settlement')
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      { action: 'close', entity_id: String(shownA.id) },
      { action: 'close', entity_id: String(shownB.id) },
      { action: 'pay', entity_id: String(shownA.id) },
    ]);
  });

  test('when a settled visit is reversed, then the reversal lands in the next period closed and the settled totals never move', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const transactionId = await visit(t, n);
    t.clock.set('2026-03-03T09:00:00Z');
    const [day2] = (await close(t, DAY_2)).json<{ items: Shown[] }>().items;

    const reversal = await op.admin(t, 'POST', `/transactions/${transactionId}/reversals`, {
      reason: 'disputed',
    });
    t.clock.set('2026-03-04T00:00:00Z');
    const [day3] = (await close(t, DAY_3)).json<{ items: Shown[] }>().items;

    expect(reversal.statusCode).toBe(201);
    expectReply(await op.admin(t, 'GET', `/settlements?partner_id=${n.partner.id}`), 200, {
      items: [day2, day3],
      next_cursor: null,
    });
    expect([day2?.total_cents, day3?.total_cents]).toEqual([1250, -1250]);
    const entries = await op.admin(t, 'GET', `/settlements/${day3?.id}/entries`);
    expect(entries.json<{ items: unknown[] }>().items).toEqual([
      expect.objectContaining({ kind: 'reversal', reverses: transactionId, payout_cents: -1250 }),
    ]);
  });

  test('when the same period is closed again, then the same settlements come back and nothing is written', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    await visit(t, n);
    t.clock.set('2026-03-03T00:00:00Z');
    const first = await close(t, DAY_2);
    const before = await op.wholeStore(t);

    const again = await close(t, DAY_2);

    expectReply(again, 201, first.json());
    expect(await op.wholeStore(t)).toEqual(before);
  });

  test('when any partner’s period would overlap one already closed, then 409 settlement.overlap and no partner’s period is closed', async () => {
    const t = app();
    const [a, b] = [await op.arrangeNetwork(t), await op.arrangeNetwork(t)];
    await visit(t, a);
    await visit(t, b);
    t.clock.set('2026-03-03T00:00:00Z');
    expect((await close(t, { ...DAY_2, partner_id: a.partner.id })).statusCode).toBe(201);
    const before = await op.wholeStore(t);

    const overlapping = await close(t, { period_start: '2026-03-02T12:00:00Z', period_end: '2026-03-03' });

    expectReply(
      overlapping,
      409,
      errorEnvelope(
        'settlement.overlap',
        `partner ${a.partner.id} has a settlement that overlaps this period`,
      ),
    );
    expect(await op.wholeStore(t)).toEqual(before);
  });

  test.each([
    [
      { period_start: '2026-03-02', period_end: '2026-03-04' },
      400,
      'period_end',
      'must not be later than now: the period has not ended',
    ],
    [
      { period_start: '2026-03-02', period_end: '2026-03-02' },
      400,
      'period_end',
      'must be later than period_start',
    ],
    [
      { period_start: 'soon', period_end: '2026-03-02' },
      400,
      'period_start',
      'must be an ISO-8601 date or date-time',
    ],
    [{ period_start: '2026-03-01' }, 400, 'period_end', 'is required'],
    [{ ...DAY_2, partner_id: 999_999 }, 404, 'partner.not-found', 'partner not found'],
  ])('when a close asks %j, then %i %s and nothing is written', async (body, status, key, message) => {
    const t = app();
    t.clock.set('2026-03-03T00:00:00Z');
    const before = await op.wholeStore(t);

    expectReply(await close(t, body), status, errorEnvelope(key, message));

    expect(await op.wholeStore(t)).toEqual(before);
  });

  test('when a partner reads its settlements, then it sees its own, with the lines of the gyms its key may see, and their entries', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const other = await op.arrangeNetwork(t);
    const secondGym = await op.admin(t, 'POST', '/gyms', { partner_id: n.partner.id, name: 'Second' });
    const gymId = secondGym.json<{ id: number }>().id;
    const product = (
      await op.admin(t, 'POST', `/gyms/${gymId}/products`, { description: 'Day', payout_cents: 500 })
    ).json<{ id: number; gym_id: number }>();
    const scoped = await op.issueKey(t, n.partner.id, { gym_ids: [gymId] });
    const visited = await visit(t, n);
    const member = platformId();
    await op.admin(t, 'POST', '/checkins', { platform_id: member, gym_id: gymId, product_id: product.id });
    expect((await op.validate(t, n.key.key, gymId, member)).statusCode).toBe(200);
    await visit(t, other);
    t.clock.set('2026-03-03T00:00:00Z');
    const [mine] = (await close(t, DAY_2)).json<{ items: Shown[] }>().items;

    const all = await t.app.inject({
      method: 'GET',
      url: '/access/v1/settlements',
      headers: op.partnerHeaders(n.key.key, n.gym.id),
    });
    const narrow = await t.app.inject({
      method: 'GET',
      url: '/access/v1/settlements',
      headers: op.partnerHeaders(scoped.key, gymId),
    });
    const entries = await t.app.inject({
      method: 'GET',
      url: `/access/v1/settlements/${mine?.id}/entries`,
      headers: op.partnerHeaders(n.key.key, n.gym.id),
    });
    const theirs = await t.app.inject({
      method: 'GET',
      url: `/access/v1/settlements/${(mine?.id ?? 0) + 1}/entries`,
      headers: op.partnerHeaders(n.key.key, n.gym.id),
    });

    const shown = {
      id: mine?.id,
      currency: 'BRL',
      period_start: '2026-03-02T00:00:00.000Z',
      period_end: '2026-03-03T00:00:00.000Z',
      status: 'closed',
      total_cents: 1750,
      count: 2,
      lines: [
        { gym_id: n.gym.id, count: 1, total_cents: 1250, pricing: [atList(1, 1250)] },
        { gym_id: gymId, count: 1, total_cents: 500, pricing: [atList(1, 500)] },
      ],
      paid_at: null,
      reference: null,
    };
    expectReply(all, 200, { metadata: { total: 1, errors: 0 }, results: [shown], next_cursor: null });
    expectReply(narrow, 200, {
      metadata: { total: 1, errors: 0 },
      results: [
        { ...shown, lines: [{ gym_id: gymId, count: 1, total_cents: 500, pricing: [atList(1, 500)] }] },
      ],
      next_cursor: null,
    });
    expect(entries.json<{ results: { id: number }[] }>().results.map((entry) => entry.id)[0]).toBe(visited);
    expectReply(theirs, 404, errorEnvelope('settlement.not-found', 'settlement not found'));
  });
});
