import { describe, expect, test } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import { checkinRow, expectLedgerInvariants } from '../fixtures/store-state.js';
import { dialects } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';
import { expectReply } from '../fixtures/partner-api.js';

describe.each(dialects)('operator API: check-ins (%s)', (dialect) => {
  const app = op.operatorApp({ dialect });

  test('when a check-in is created, then 201 pending, expiring GATEHOUSE_CHECKIN_TTL_SECONDS (1200) later, and it is stored', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const member = platformId();

    const response = await op.admin(t, 'POST', '/checkins', {
      platform_id: member,
      gym_id: n.gym.id,
      product_id: n.product.id,
    });

    const id = (JSON.parse(response.body) as { id: number }).id;
    expectReply(
      response,
      201,
      op.shownCheckin({ id, platform_id: member, gym_id: n.gym.id, product_id: n.product.id }),
    );
    expect(await checkinRow(t.store, id)).toEqual({
      id,
      platform_id: member,
      gym_id: n.gym.id,
      product_id: n.product.id,
      status: 'pending',
      checked_in_at: op.T0_MS,
      expires_at: op.T0_MS + op.TTL_MS,
      validated_at: null,
      cancelled_at: null,
      created_at: op.T0_MS,
      member: null,
      plan_id: null,
      plan_version: null,
      counted_month: null,
      counted_scope: null,
    });
  });

  test('when member details are sent as "", then those fields are absent: neither stored, nor answered, nor in the event; one stored as "" by an earlier release reads as absent', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const member = platformId();

    const response = await op.admin(t, 'POST', '/checkins', {
      platform_id: member,
      gym_id: n.gym.id,
      product_id: n.product.id,
      member: { first_name: '', last_name: 'Souza', email: '', phone_number: '' },
    });

    const id = (JSON.parse(response.body) as { id: number }).id;
    const shown = op.shownCheckin({ id, platform_id: member, gym_id: n.gym.id, product_id: n.product.id });
    expectReply(response, 201, { ...shown, member: { last_name: 'Souza' } });
    expect(await checkinRow(t.store, id)).toMatchObject({ member: '{"last_name":"Souza"}' });
    const event = await t.store.db
      .selectFrom('events')
      .select('data')
      .where('type', '=', 'checkin.created')
      .orderBy('position', 'desc')
      .executeTakeFirstOrThrow();
    expect((JSON.parse(event.data ?? '{}') as { member?: unknown }).member).toEqual({ last_name: 'Souza' });

    await t.store.db
      .updateTable('checkins')
      .set({ member: '{"first_name":"","email":""}' })
      .where('id', '=', id)
      .execute();
    const listed = await op.admin(t, 'GET', `/checkins?platform_id=${member}`);
    expectReply(listed, 200, { items: [shown], next_cursor: null });
  });

  test('when checked_in_at is given with an offset, then it is that instant; when it is older than the TTL, the check-in shows expired', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);

    const offset = await op.createCheckin(t, n.product, { checked_in_at: '2026-03-02T08:50:00-03:00' });
    const old = await op.createCheckin(t, n.product, { checked_in_at: '2026-03-02T11:40:00' });

    expect(offset).toEqual(
      op.shownCheckin(offset, { checked_in_at: op.at(-600_000), expires_at: op.at(600_000) }),
    );
    expect(old).toEqual(
      op.shownCheckin(old, { status: 'expired', checked_in_at: op.at(-1_200_000), expires_at: op.T0 }),
    );
  });

  test('when a check-in is validated right after its creation returns, then 200 (read-your-writes) and it shows validated', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);

    const checkin = await op.createCheckin(t, n.product);
    const response = await op.validate(t, n.key.key, n.gym.id, checkin.platform_id);

    expectReply(response, 200, {
      metadata: { total: 1, errors: 0 },
      results: {
        user: { platform_id: checkin.platform_id },
        gym: { Id: n.gym.id, product: { Id: n.product.id, description: n.product.description } },
        validated_at: '2026-03-02T12:00:00Z',
      },
    });
    expectReply(await op.admin(t, 'GET', `/checkins?platform_id=${checkin.platform_id}`), 200, {
      items: [op.shownCheckin(checkin, { status: 'validated', validated_at: op.T0 })],
      next_cursor: null,
    });
    await expectLedgerInvariants(t.store);
  });

  test.each([
    [
      'a 12-digit platform_id',
      400,
      'platform_id',
      'must be a string of 13 digits',
      { platform_id: '123456789012' },
    ],
    [
      'a numeric platform_id',
      400,
      'platform_id',
      'must be a string of 13 digits',
      { platform_id: 1234567890123 },
    ],
    ['gym_id as a string', 400, 'gym_id', 'must be integer', { gym_id: '1' }],
    ['no product_id', 400, 'product_id', 'is required', { product_id: undefined }],
    [
      'checked_in_at not ISO-8601',
      400,
      'checked_in_at',
      'must be an ISO-8601 date or date-time',
      { checked_in_at: 'yesterday' },
    ],
    ['an unknown gym', 404, 'gym.not-found', 'gym not found', { gym_id: 999_999 }],
    ['an unknown product', 404, 'product.not-found', 'product not found', { product_id: 999_999 }],
  ])(
    'when a check-in is created with %s, then %i key %s and nothing is written',
    async (_c, status, key, message, override) => {
      const t = app();
      const n = await op.arrangeNetwork(t);
      const before = await op.wholeStore(t);

      const body = { platform_id: platformId(), gym_id: n.gym.id, product_id: n.product.id, ...override };
      expectReply(await op.admin(t, 'POST', '/checkins', body), status, errorEnvelope(key, message));
      expect(await op.wholeStore(t)).toEqual(before);
    },
  );

  test('when a check-in names a product of another gym, then 400 key product_id and nothing is written', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const elsewhere = await op.createProduct(t, (await op.createGym(t, n.partner.id)).id);
    const before = await op.wholeStore(t);

    const body = { platform_id: platformId(), gym_id: n.gym.id, product_id: elsewhere.id };
    const response = await op.admin(t, 'POST', '/checkins', body);

    expectReply(response, 400, errorEnvelope('product_id', 'is not a product of that gym'));
    expect(await op.wholeStore(t)).toEqual(before);
  });

  test('when a pending check-in is cancelled twice, then both answer 200 cancelled with the first cancelled_at, and validate says cancelled', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const checkin = await op.createCheckin(t, n.product);
    t.clock.advance(30_000);

    const first = await op.admin(t, 'POST', `/checkins/${checkin.id}/cancel`);
    t.clock.advance(30_000);
    const second = await op.admin(t, 'POST', `/checkins/${checkin.id}/cancel`);

    const cancelled = op.shownCheckin(checkin, { status: 'cancelled', cancelled_at: op.at(30_000) });
    expectReply(first, 200, cancelled);
    expectReply(second, 200, cancelled);
    expect(await checkinRow(t.store, checkin.id)).toMatchObject({
      status: 'cancelled',
      cancelled_at: op.T0_MS + 30_000,
    });
    expectReply(
      await op.validate(t, n.key.key, n.gym.id, checkin.platform_id),
      400,
      errorEnvelope('checkin.validation.cancelled', 'Check-In cancelled'),
    );
  });

  test('when an expired check-in is cancelled, then 200 cancelled and it is stored cancelled', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const checkin = await op.createCheckin(t, n.product);
    t.clock.advance(op.TTL_MS + 1);

    const response = await op.admin(t, 'POST', `/checkins/${checkin.id}/cancel`);

    expectReply(
      response,
      200,
      op.shownCheckin(checkin, { status: 'cancelled', cancelled_at: op.at(op.TTL_MS + 1) }),
    );
    expect(await checkinRow(t.store, checkin.id)).toMatchObject({
      status: 'cancelled',
      cancelled_at: op.T0_MS + op.TTL_MS + 1,
    });
  });

  test('when a validated check-in is cancelled, then 409 checkin.already.validated and nothing is written', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const checkin = await op.createCheckin(t, n.product);
    await op.validate(t, n.key.key, n.gym.id, checkin.platform_id);
    const before = await op.wholeStore(t);

    const response = await op.admin(t, 'POST', `/checkins/${checkin.id}/cancel`);

    expectReply(response, 409, errorEnvelope('checkin.already.validated', 'Check-In already validated'));
    expect(await op.wholeStore(t)).toEqual(before);
  });

  test('when an unknown or malformed check-in id is cancelled, then 404 checkin.not-found / 400 checkin_id', async () => {
    const t = app();

    expectReply(
      await op.admin(t, 'POST', '/checkins/999999/cancel'),
      404,
      errorEnvelope('checkin.not-found', 'checkin not found'),
    );
    expectReply(
      await op.admin(t, 'POST', '/checkins/0/cancel'),
      400,
      errorEnvelope('checkin_id', 'must be a positive integer'),
    );
  });
});
