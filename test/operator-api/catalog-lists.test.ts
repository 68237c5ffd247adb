import { describe, expect, test } from 'vitest';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';
import { expectReply } from '../fixtures/partner-api.js';

const rowsOf = (t: TestApp, table: 'gyms' | 'products') =>
  t.store.db.selectFrom(table).selectAll().orderBy('id').execute();

const GYM_NAME: unknown = expect.stringMatching(/^Gym /);
/** A gym row's columns that these tests leave at their defaults. */
const GYM_ROW = { timezone: null, retired_at: null, created_at: op.T0_MS };

const cursorOf = (body: string) => (JSON.parse(body) as { next_cursor: string }).next_cursor;

describe.each(dialects)('operator API: lists and generated ids (%s)', (dialect) => {
  // A fresh store per test: generated ids and whole lists are then known exactly.
  const app = op.operatorApp({ dialect, perTest: true });

  test('when partners are listed with limit=2, then pages follow next_cursor in ascending id until it is null', async () => {
    const t = app();
    for (const name of ['A', 'B', 'C']) await op.createPartner(t, name);

    const first = await op.admin(t, 'GET', '/partners?limit=2');
    const second = await op.admin(t, 'GET', `/partners?limit=2&cursor=${cursorOf(first.body)}`);

    expectReply(first, 200, {
      items: [
        { id: 1, name: 'A', offboarded_at: null, created_at: op.T0 },
        { id: 2, name: 'B', offboarded_at: null, created_at: op.T0 },
      ],
      next_cursor: op.A_CURSOR,
    });
    expectReply(second, 200, {
      items: [{ id: 3, name: 'C', offboarded_at: null, created_at: op.T0 }],
      next_cursor: null,
    });
  });

  test('when a page ends exactly at the last row, then next_cursor is null', async () => {
    const t = app();
    for (const name of ['A', 'B']) await op.createPartner(t, name);

    const page = await op.admin(t, 'GET', '/partners?limit=2');

    expect(cursorOf(page.body)).toBeNull();
  });

  test('when partners are listed without limit, then a page holds 100 and the rest follows the cursor', async () => {
    const t = app();
    for (let i = 1; i <= 101; i += 1) await op.createPartner(t, `P${i}`);

    const first = await op.admin(t, 'GET', '/partners');
    const rest = await op.admin(t, 'GET', `/partners?cursor=${cursorOf(first.body)}`);
    const all = await op.admin(t, 'GET', '/partners?limit=1000');

    const ids = (body: string) =>
      (JSON.parse(body) as { items: { id: number }[] }).items.map((item) => item.id);
    expect(ids(first.body)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expectReply(rest, 200, {
      items: [{ id: 101, name: 'P101', offboarded_at: null, created_at: op.T0 }],
      next_cursor: null,
    });
    expect(ids(all.body)).toHaveLength(101);
  });

  test('when gyms are created with and without an id, then the given id is kept and a missing one is the next free id', async () => {
    const t = app();
    const partner = await op.createPartner(t);

    const chosen = await op.admin(t, 'POST', '/gyms', { id: 7001, partner_id: partner.id, name: 'Paulista' });
    const generated = await op.admin(t, 'POST', '/gyms', { partner_id: partner.id, name: 'Faria Lima' });

    expectReply(chosen, 201, {
      id: 7001,
      partner_id: partner.id,
      name: 'Paulista',
      timezone: null,
      retired_at: null,
      created_at: op.T0,
    });
    expectReply(generated, 201, {
      id: 7002,
      partner_id: partner.id,
      name: 'Faria Lima',
      timezone: null,
      retired_at: null,
      created_at: op.T0,
    });
    expect(await rowsOf(t, 'gyms')).toEqual([
      { ...GYM_ROW, id: 7001, partner_id: partner.id, name: 'Paulista' },
      { ...GYM_ROW, id: 7002, partner_id: partner.id, name: 'Faria Lima' },
    ]);
  });

  test('when gyms are listed by partner_id, then only that partner’s gyms come, in id order; an unknown partner: empty', async () => {
    const t = app();
    const [first, second] = [await op.createPartner(t), await op.createPartner(t)];
    await op.createGym(t, first.id, 30);
    await op.createGym(t, second.id, 10);
    await op.createGym(t, first.id, 20);
    const gym = (id: number, partnerId: number) => ({
      id,
      partner_id: partnerId,
      name: GYM_NAME,
      timezone: null,
      retired_at: null,
      created_at: op.T0,
    });

    const mine = await op.admin(t, 'GET', `/gyms?partner_id=${first.id}`);
    const page = await op.admin(t, 'GET', '/gyms?limit=2');
    const rest = await op.admin(t, 'GET', `/gyms?limit=2&cursor=${cursorOf(page.body)}`);
    const none = await op.admin(t, 'GET', '/gyms?partner_id=999');

    expectReply(mine, 200, { items: [gym(20, first.id), gym(30, first.id)], next_cursor: null });
    expectReply(page, 200, {
      items: [gym(10, second.id), gym(20, first.id)],
      next_cursor: op.A_CURSOR,
    });
    expectReply(rest, 200, { items: [gym(30, first.id)], next_cursor: null });
    expectReply(none, 200, { items: [], next_cursor: null });
    expectReply(
      await op.admin(t, 'GET', '/gyms?partner_id=abc'),
      400,
      errorEnvelope('partner_id', 'must be a positive integer'),
    );
  });

  test('when products are created without ids, then they take the next free global id, across gyms', async () => {
    const t = app();
    const partner = await op.createPartner(t);
    const [a, b] = [await op.createGym(t, partner.id), await op.createGym(t, partner.id)];

    await op.createProduct(t, a.id, { id: 40, description: 'Chosen' });
    const next = await op.admin(t, 'POST', `/gyms/${b.id}/products`, { description: 'Generated' });

    const generated = {
      id: 41,
      gym_id: b.id,
      description: 'Generated',
      payout_cents: 0,
      currency: 'BRL',
      retired_at: null,
      category: 'standard',
    };
    expectReply(next, 201, generated);
    expectReply(await op.admin(t, 'GET', `/gyms/${b.id}/products`), 200, {
      items: [generated],
      next_cursor: null,
    });
  });
});
