import { describe, expect, test } from 'vitest';
import { platformId, unique } from '../fixtures/factories.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { expectReply } from '../fixtures/partner-api.js';
import { DAILY_LIMIT } from '../fixtures/wire-bodies.js';

type Rule = { category: string; per: string; limit: number; scope: string };

/** A member on a new plan of these rules, from now. */
async function memberOn(t: TestApp, rules: Rule[]) {
  const plan = await op.admin(t, 'POST', '/plans', { name: `Plan ${unique()}`, rules });
  expect(plan.statusCode, plan.body).toBe(201);
  const member = platformId();
  const id = (JSON.parse(plan.body) as { id: number }).id;
  expect((await op.admin(t, 'PUT', `/members/${member}/plan`, { plan_id: id })).statusCode).toBe(200);
  return member;
}

/** A second gym of another partner, with its product and key. */
const anotherNetwork = (t: TestApp) => op.arrangeNetwork(t);

async function visit(t: TestApp, n: op.Network, member: string) {
  expect((await op.postCheckin(t, n, member)).statusCode).toBe(201);
  expect((await op.validate(t, n.key.key, n.gym.id, member)).statusCode).toBe(200);
}

async function expectRefused(t: TestApp, n: op.Network, member: string, body: unknown) {
  const before = await op.wholeStore(t);
  expectReply(await op.postCheckin(t, n, member), 409, body);
  expect(await op.wholeStore(t)).toEqual(before);
}

const refusal = (key: string, message: string, details: Record<string, unknown>) => ({
  metadata: { total: 0, errors: 1 },
  errors: [{ message, key, details }],
});

/** Every write path of check-in creation: the dialect's batched fast path, and the query builder's. */
const PATHS = dialects.flatMap((dialect) => [
  { dialect, groupCommit: true },
  { dialect, groupCommit: false },
]);

describe.each(PATHS)('check-in creation decided by the member’s plan (%j)', ({ dialect, groupCommit }) => {
  const app = op.operatorApp({ dialect, groupCommit });

  test('when the plan does not include the product’s category, then 409 checkin.plan.not-included with the category, and nothing is written', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const member = await memberOn(t, [{ category: 'premium', per: 'day', limit: 1, scope: 'gym' }]);

    await expectRefused(
      t,
      n,
      member,
      refusal('checkin.plan.not-included', "the member's plan does not include standard", {
        category: 'standard',
      }),
    );
  });

  test('when products have categories, then the plan admits the one it includes and refuses the other; a product moved into the included category by PATCH is admitted', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t, { payout_cents: 1250, category: 'premium' });
    const standard = await op.createProduct(t, n.gym.id);
    const member = await memberOn(t, [{ category: 'premium', per: 'week', limit: 3, scope: 'gym' }]);
    const create = (product: op.Product) =>
      op.admin(t, 'POST', '/checkins', { platform_id: member, gym_id: n.gym.id, product_id: product.id });

    const premium = await create(n.product);
    const before = await op.wholeStore(t);
    const refused = await create(standard);
    const unchanged = await op.wholeStore(t);
    const patched = await op.admin(t, 'PATCH', `/products/${standard.id}`, { category: 'premium' });
    const admitted = await create(standard);

    expect(premium.statusCode, premium.body).toBe(201);
    expectReply(
      refused,
      409,
      refusal('checkin.plan.not-included', "the member's plan does not include standard", {
        category: 'standard',
      }),
    );
    expect(unchanged).toEqual(before);
    expectReply(patched, 200, { ...standard, category: 'premium' });
    expect(admitted.statusCode, admitted.body).toBe(201);
  });

  test('when a check-in is admitted under a plan, then its answer and its row name the plan and version it was decided under', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const plan = await op.admin(t, 'POST', '/plans', {
      name: `Plan ${unique()}`,
      rules: [{ category: 'standard', per: 'day', limit: 1, scope: 'gym' }],
    });
    const id = (JSON.parse(plan.body) as { id: number }).id;
    await op.admin(t, 'PUT', `/plans/${id}`, {
      rules: [{ category: 'standard', per: 'day', limit: 2, scope: 'gym' }],
    });
    const member = platformId();
    await op.admin(t, 'PUT', `/members/${member}/plan`, { plan_id: id });

    const created = await op.postCheckin(t, n, member);

    const body = JSON.parse(created.body) as { id: number };
    expectReply(
      created,
      201,
      op.shownCheckin(
        { ...body, platform_id: member, gym_id: n.gym.id, product_id: n.product.id },
        {
          plan: { id, version: 2 },
        },
      ),
    );
    const row = await t.store.db
      .selectFrom('checkins')
      .select(['plan_id', 'plan_version'])
      .where('id', '=', body.id)
      .executeTakeFirstOrThrow();
    expect({ plan_id: Number(row.plan_id), plan_version: Number(row.plan_version) }).toEqual({
      plan_id: id,
      plan_version: 2,
    });
  });

  test('when a network-scope day rule’s visit is used at one partner’s gym, then another partner’s gym refuses with the rule, the count and the next local midnight', async () => {
    const t = app();
    const [a, b] = [await op.arrangeNetwork(t), await anotherNetwork(t)];
    const member = await memberOn(t, [{ category: 'standard', per: 'day', limit: 1, scope: 'network' }]);
    await visit(t, a, member);

    await expectRefused(
      t,
      b,
      member,
      refusal(
        'checkin.plan.limit-reached',
        'plan limit reached: 1 of 1 standard visits per day (network), until 2026-03-03T00:00:00.000Z',
        {
          category: 'standard',
          per: 'day',
          scope: 'network',
          limit: 1,
          used: 1,
          resets_at: '2026-03-03T00:00:00.000Z',
        },
      ),
    );
  });

  test('when a pending check-in waits at one gym, then it uses the last visit of a partner-scope rule at the partner’s other gym', async () => {
    const t = app();
    const a = await op.arrangeNetwork(t);
    const otherGym = await op.createGym(t, a.partner.id);
    const otherProduct = await op.createProduct(t, otherGym.id);
    const member = await memberOn(t, [{ category: 'standard', per: 'week', limit: 1, scope: 'partner' }]);
    expect((await op.postCheckin(t, a, member)).statusCode).toBe(201);

    const before = await op.wholeStore(t);
    const response = await op.admin(t, 'POST', '/checkins', {
      platform_id: member,
      gym_id: otherGym.id,
      product_id: otherProduct.id,
    });

    expectReply(
      response,
      409,
      refusal(
        'checkin.plan.limit-reached',
        'plan limit reached: 1 of 1 standard visits per week (partner), until 2026-03-09T00:00:00.000Z',
        {
          category: 'standard',
          per: 'week',
          scope: 'partner',
          limit: 1,
          used: 1,
          resets_at: '2026-03-09T00:00:00.000Z',
        },
      ),
    );
    expect(await op.wholeStore(t)).toEqual(before);
  });

  test('when a member’s plan allows two visits a day at a gym, then it replaces the daily visit limit for them alone: a second visit is admitted, a third refused; a member with no plan keeps today’s limit', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const member = await memberOn(t, [{ category: 'standard', per: 'day', limit: 2, scope: 'gym' }]);
    const planless = platformId();
    await visit(t, n, member);
    await visit(t, n, member);
    await visit(t, n, planless);

    await expectRefused(
      t,
      n,
      member,
      refusal(
        'checkin.plan.limit-reached',
        'plan limit reached: 2 of 2 standard visits per day (gym), until 2026-03-03T00:00:00.000Z',
        {
          category: 'standard',
          per: 'day',
          scope: 'gym',
          limit: 2,
          used: 2,
          resets_at: '2026-03-03T00:00:00.000Z',
        },
      ),
    );
    await expectRefused(t, n, planless, DAILY_LIMIT);
  });

  test('when the member’s plan takes effect later, then until then they are decided as before', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const plan = await op.admin(t, 'POST', '/plans', { name: `Plan ${unique()}`, rules: [] });
    const member = platformId();
    const id = (JSON.parse(plan.body) as { id: number }).id;
    await op.admin(t, 'PUT', `/members/${member}/plan`, { plan_id: id, effective_from: op.at(3_600_000) });

    const created = await op.postCheckin(t, n, member);

    expect(created.statusCode, created.body).toBe(201);
  });
});

describe.each(PATHS)('GATEHOUSE_DEFAULT_PLAN (%j)', ({ dialect, groupCommit }) => {
  const name = `Default ${unique()}`;
  const app = op.operatorApp({ dialect, groupCommit, env: { GATEHOUSE_DEFAULT_PLAN: name } });

  test('when a member has no plan, then the default plan decides for them; a member with a plan of their own is decided by it; before the default plan exists, the daily limit decides', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const early = platformId();
    await visit(t, n, early);
    await expectRefused(t, n, early, DAILY_LIMIT);
    const created = await op.admin(t, 'POST', '/plans', {
      name,
      rules: [{ category: 'premium', per: 'day', limit: 1, scope: 'gym' }],
    });
    expect(created.statusCode, created.body).toBe(201);
    const own = await memberOn(t, [{ category: 'standard', per: 'day', limit: 1, scope: 'gym' }]);

    await expectRefused(
      t,
      n,
      platformId(),
      refusal('checkin.plan.not-included', "the member's plan does not include standard", {
        category: 'standard',
      }),
    );
    expect((await op.postCheckin(t, n, own)).statusCode).toBe(201);
  });
});
