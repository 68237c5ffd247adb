import { describe, expect, test } from 'vitest';
import { platformId, unique } from '../fixtures/factories.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { EXPLICIT_DENY } from '../fixtures/wire-bodies.js';
import { expectReply } from '../fixtures/partner-api.js';

const ANA = {
  first_name: 'Ana',
  last_name: 'Souza',
  email: 'ana@example.com',
  phone_number: '+5511999990000',
};

/** A sandbox partner with a gym (two products: the first is the default) and a key, made through the API. */
async function arrangeSandbox(t: TestApp) {
  const created = await op.admin(t, 'POST', '/partners', { name: `Sandbox ${unique()}`, sandbox: true });
  const partner = JSON.parse(created.body) as { id: number; name: string };
  const gymName = `Test gym ${unique()}`;
  const gym = JSON.parse(
    (await op.admin(t, 'POST', '/gyms', { partner_id: partner.id, name: gymName })).body,
  ) as {
    id: number;
  };
  const first = await op.createProduct(t, gym.id, { description: 'Day pass', payout_cents: 1500 });
  const second = await op.createProduct(t, gym.id, { description: 'Yoga', payout_cents: 900 });
  const key = await op.issueKey(t, partner.id);
  return { created, partner, gym: { id: gym.id, name: gymName }, first, second, key };
}

function sandboxCheckin(t: TestApp, key: string, gymId: number, body: unknown) {
  return t.app.inject({
    method: 'POST',
    url: '/access/v1/sandbox/checkins',
    headers: {
      authorization: `Bearer ${key}`,
      'x-gym-id': String(gymId),
      'content-type': 'application/json',
    },
    payload: JSON.stringify(body),
  });
}

function simulate(t: TestApp, key: string, gymId: number | string, body: unknown) {
  return t.app.inject({
    method: 'POST',
    url: `/helper/v1/gyms/${gymId}/simulate/checkins`,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
}

describe.each(dialects)('the sandbox (%s)', (dialect) => {
  const app = op.operatorApp({ dialect });

  test('when a sandbox partner is created, then it says so, and its keys start ghk_test_', async () => {
    const t = app();

    const s = await arrangeSandbox(t);

    expectReply(s.created, 201, {
      id: s.partner.id,
      name: s.partner.name,
      sandbox: true,
      offboarded_at: null,
      created_at: op.T0,
    });
    expect(s.key.key).toMatch(/^ghk_test_[0-9a-f]{8}_[0-9a-f]{40}$/);
    expect(s.key.prefix).toMatch(/^ghk_test_[0-9a-f]{8}$/);
  });

  test('when a sandbox key simulates a check-in, then 201 with the pending check-in at the first product, stored with its member details and its event', async () => {
    const t = app();
    const s = await arrangeSandbox(t);
    const member = platformId();

    const response = await sandboxCheckin(t, s.key.key, s.gym.id, { gympass_id: member, member: ANA });

    const id = (JSON.parse(response.body) as { results: { id: number } }).results.id;
    expectReply(response, 201, {
      metadata: { total: 1, errors: 0 },
      results: {
        id,
        platform_id: member,
        gym_id: s.gym.id,
        product_id: s.first.id,
        status: 'pending',
        checked_in_at: op.T0,
        expires_at: op.at(op.TTL_MS),
        validated_at: null,
        cancelled_at: null,
        member: ANA,
      },
    });
    const events = await t.store.db
      .selectFrom('events')
      .select(['type', 'gym_id'])
      .where('gym_id', '=', s.gym.id)
      .execute();
    expect(events).toEqual([{ type: 'checkin.created', gym_id: s.gym.id }]);
  });

  test("when Wellhub's helper route is called with a sandbox key, then 201 with the checkin payload (the member's absent details left out), and the check-in validates", async () => {
    const t = app();
    const s = await arrangeSandbox(t);
    const member = platformId();

    const response = await simulate(t, s.key.key, s.gym.id, {
      gympass_user_id: member,
      product_id: s.second.id,
    });

    expectReply(response, 201, {
      event_type: 'checkin',
      event_data: {
        user: { unique_token: member },
        gym: { id: s.gym.id, title: s.gym.name, product: { id: s.second.id, description: 'Yoga' } },
        timestamp: Date.parse(op.T0) / 1000,
      },
    });
    // Byte for byte, as a handler written for Wellhub parses it: no empty string, no null.
    expect(response.body).toContain(`"user":{"unique_token":"${member}"},"gym":`);
    expect(response.body).not.toMatch(/""|null/);
    expect((await op.validate(t, s.key.key, s.gym.id, member)).statusCode).toBe(200);
  });

  test('when sandbox visits are validated, then they never count in payouts, and the operator lists them apart, flagged', async () => {
    const t = app();
    const live = await op.arrangeNetwork(t);
    const s = await arrangeSandbox(t);
    const [liveMember, sandboxMember] = [platformId(), platformId()];
    await op.admin(t, 'POST', '/checkins', {
      platform_id: liveMember,
      gym_id: live.gym.id,
      product_id: live.product.id,
    });
    await sandboxCheckin(t, s.key.key, s.gym.id, { platform_id: sandboxMember });
    expect((await op.validate(t, live.key.key, live.gym.id, liveMember)).statusCode).toBe(200);
    expect((await op.validate(t, s.key.key, s.gym.id, sandboxMember)).statusCode).toBe(200);

    const period = `from=${op.T0}&to=${op.at(86_400_000)}`;
    const payouts = JSON.parse((await op.admin(t, 'GET', `/payouts?${period}`)).body) as {
      items: { gym_id: number }[];
    };
    const listed = JSON.parse((await op.admin(t, 'GET', `/transactions?${period}`)).body) as {
      items: { gym_id: number }[];
    };
    const apart = JSON.parse((await op.admin(t, 'GET', `/transactions?${period}&sandbox=true`)).body) as {
      items: { gym_id: number; platform_id: string; sandbox?: boolean }[];
    };

    expect(payouts.items.map((line) => line.gym_id)).toContain(live.gym.id);
    expect(payouts.items.map((line) => line.gym_id)).not.toContain(s.gym.id);
    expect(listed.items.map((row) => row.gym_id)).toContain(live.gym.id);
    expect(listed.items.map((row) => row.gym_id)).not.toContain(s.gym.id);
    expect(apart.items.filter((row) => row.gym_id === s.gym.id)).toEqual([
      expect.objectContaining({ platform_id: sandboxMember, sandbox: true }),
    ]);
    expect(apart.items.map((row) => row.gym_id)).not.toContain(live.gym.id);
  });

  test("when a sandbox key checks in a live member's id, then the visit stays out of the member's history and daily limit, and is listed apart, flagged", async () => {
    const t = app();
    const live = await op.arrangeNetwork(t);
    const s = await arrangeSandbox(t);
    const member = platformId();
    const liveCheckin = await op.createCheckin(t, live.product, { platform_id: member });
    expect((await op.validate(t, live.key.key, live.gym.id, member)).statusCode).toBe(200);

    const simulated = await sandboxCheckin(t, s.key.key, s.gym.id, { platform_id: member });
    expect(simulated.statusCode, simulated.body).toBe(201);
    const sandboxValidation = await op.validate(t, s.key.key, s.gym.id, member);

    expect(sandboxValidation.statusCode, sandboxValidation.body).toBe(200);
    const sandboxCheckinId = (JSON.parse(simulated.body) as { results: { id: number } }).results.id;
    const shown = (id: number, gymId: number, productId: number) =>
      op.shownCheckin(
        { id, platform_id: member, gym_id: gymId, product_id: productId },
        { status: 'validated', validated_at: op.T0 },
      );
    expectReply(await op.admin(t, 'GET', `/checkins?platform_id=${member}`), 200, {
      items: [shown(liveCheckin.id, live.gym.id, live.product.id)],
      next_cursor: null,
    });
    expectReply(await op.admin(t, 'GET', `/checkins?platform_id=${member}&sandbox=true`), 200, {
      items: [{ ...shown(sandboxCheckinId, s.gym.id, s.first.id), sandbox: true }],
      next_cursor: null,
    });
    // The live gym's daily limit counted the live visit only: a second live gym takes the member the same day.
    const other = await op.arrangeNetwork(t);
    await op.createCheckin(t, other.product, { platform_id: member });
    expect((await op.validate(t, other.key.key, other.gym.id, member)).statusCode).toBe(200);
  });

  /** Both sandbox routes, called with `key` at `gymId`: 403 explicit deny each, and nothing written. */
  async function expectBothRoutesDenied(t: TestApp, key: string, gymId: number) {
    const before = await op.wholeStore(t);

    const simulated = await sandboxCheckin(t, key, gymId, { platform_id: platformId() });
    const helped = await simulate(t, key, gymId, { gympass_user_id: platformId() });

    expectReply(simulated, 403, EXPLICIT_DENY);
    expectReply(helped, 403, EXPLICIT_DENY);
    expect(await op.wholeStore(t)).toEqual(before);
  }

  test('when a live key calls either sandbox route, then 403 explicit deny and nothing is written', async () => {
    const t = app();
    const live = await op.arrangeNetwork(t);

    await expectBothRoutesDenied(t, live.key.key, live.gym.id);
  });

  test("when a sandbox key names a live partner's gym, then 403 explicit deny on both routes and nothing is written", async () => {
    const t = app();
    const live = await op.arrangeNetwork(t);
    const s = await arrangeSandbox(t);

    await expectBothRoutesDenied(t, s.key.key, live.gym.id);
  });

  test.each([
    ['no member id', {}, 'platform_id', 'must be a string of 13 digits'],
    ['a product of another gym', { product_id: 'other' }, 'product_id', 'is not a product of that gym'],
    [
      'a member detail of 101 characters',
      { member: { last_name: 'x'.repeat(101) } },
      'member',
      'must NOT have more than 100 characters',
    ],
  ])('when a sandbox check-in has %s, then 400 and nothing is written', async (_, fields, key, message) => {
    const t = app();
    const s = await arrangeSandbox(t);
    const other = await arrangeSandbox(t);
    const body = {
      ...(Object.keys(fields).length === 0 ? {} : { platform_id: platformId() }),
      ...fields,
      ...('product_id' in fields ? { product_id: other.first.id } : {}),
    };
    const before = await op.wholeStore(t);

    const response = await sandboxCheckin(t, s.key.key, s.gym.id, body);

    expectReply(response, 400, { metadata: { total: 0, errors: 1 }, errors: [{ message, key }] });
    expect(await op.wholeStore(t)).toEqual(before);
  });

  test('when the helper is called with a gym id that is not a number, then 400 key gym_id', async () => {
    const t = app();
    const s = await arrangeSandbox(t);

    const response = await simulate(t, s.key.key, 'abc', { gympass_user_id: platformId() });

    expectReply(response, 400, {
      metadata: { total: 0, errors: 1 },
      errors: [{ message: 'must be a positive integer', key: 'gym_id' }],
    });
  });
});
