import { describe, expect, test } from 'vitest';
import { platformId, unique } from '../fixtures/factories.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { expectReply } from '../fixtures/partner-api.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';

const DAY_RULE = { category: 'standard', per: 'day', limit: 1, scope: 'gym' };
const MONTH_RULE = { category: 'premium', per: 'month', limit: 4, scope: 'network' };

async function createPlan(t: TestApp, rules: unknown[] = [DAY_RULE]) {
  const response = await op.admin(t, 'POST', '/plans', { name: `Plan ${unique()}`, rules });
  expect(response.statusCode, response.body).toBe(201);
  return JSON.parse(response.body) as { id: number; name: string };
}

async function auditTail(t: TestApp) {
  const rows = await t.store.db
    .selectFrom('audit_log')
    .select(['actor', 'action', 'entity', 'entity_id'])
    .orderBy('id', 'desc')
    .limit(1)
    .execute();
  return rows[0];
}

async function asRole(t: TestApp, role: string) {
  const issued = await op.admin(t, 'POST', '/operators', { name: `${role}-${unique()}`, role });
  const { token, name } = JSON.parse(issued.body) as { token: string; name: string };
  const call = (method: 'PUT' | 'GET', url: string, body?: unknown) =>
    t.app.inject({
      method,
      url: `/admin/v1${url}`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  return { call, name };
}

describe.each(dialects)('plans as versioned data (%s)', (dialect) => {
  const app = op.operatorApp({ dialect });

  test('when a plan is created, then 201 with version 1 from now; it reads back alone and in the list, and the audit log names it', async () => {
    const t = app();
    const name = `Standard ${unique()}`;

    const created = await op.admin(t, 'POST', '/plans', { name, rules: [DAY_RULE, MONTH_RULE] });

    const id = (JSON.parse(created.body) as { id: number }).id;
    const version = { version: 1, rules: [DAY_RULE, MONTH_RULE], effective_from: op.T0 };
    expectReply(created, 201, { id, name, ...version });
    expectReply(await op.admin(t, 'GET', `/plans/${id}`), 200, { id, name, ...version, versions: [version] });
    const list = JSON.parse((await op.admin(t, 'GET', '/plans')).body) as { items: unknown[] };
    expect(list.items).toContainEqual({ id, name, ...version, versions: [version] });
    expect(await auditTail(t)).toEqual({
      actor: 'operator',
      action: 'create',
      entity: 'plan',
      entity_id: String(id),
    });
  });

  test('when a plan gets a new version from a later instant, then 200 with version 2; the plan reads at its latest with both versions', async () => {
    const t = app();
    const plan = await createPlan(t);
    const later = op.at(3_600_000);

    const versioned = await op.admin(t, 'PUT', `/plans/${plan.id}`, {
      rules: [MONTH_RULE],
      effective_from: later,
    });

    expectReply(versioned, 200, {
      id: plan.id,
      name: plan.name,
      version: 2,
      rules: [MONTH_RULE],
      effective_from: later,
    });
    expectReply(await op.admin(t, 'GET', `/plans/${plan.id}`), 200, {
      id: plan.id,
      name: plan.name,
      version: 2,
      rules: [MONTH_RULE],
      effective_from: later,
      versions: [
        { version: 1, rules: [DAY_RULE], effective_from: op.T0 },
        { version: 2, rules: [MONTH_RULE], effective_from: later },
      ],
    });
    expect(await auditTail(t)).toEqual({
      actor: 'operator',
      action: 'update',
      entity: 'plan',
      entity_id: String(plan.id),
    });
  });

  test.each([
    [[DAY_RULE, DAY_RULE], 'rules[1]', 'repeats the rule for standard per day at gym scope'],
    [
      [{ ...DAY_RULE, category: 'Gold!' }],
      'rules[0].category',
      'must be 1 to 32 lowercase letters, digits or -',
    ],
    [[{ ...DAY_RULE, per: 'year' }], 'rules[0].per', 'must be one of day, week, month'],
    [[{ ...DAY_RULE, scope: 'city' }], 'rules[0].scope', 'must be one of gym, partner, network'],
    [[{ ...DAY_RULE, limit: 1.5 }], 'rules[0].limit', 'must be a whole number from 0 to 1000'],
  ])(
    'when a plan’s rules are %j, then 400 naming %s, and nothing is written',
    async (rules, key, message) => {
      const t = app();
      const before = await op.wholeStore(t);
      const response = await op.admin(t, 'POST', '/plans', { name: `Plan ${unique()}`, rules });
      expectReply(response, 400, errorEnvelope(key, message));
      expect(await op.wholeStore(t)).toEqual(before);
    },
  );

  test.each([
    ['2026-03-02T11:59:59Z', 'must not be in the past: versions are never retroactive'],
    ['soon', 'must be an ISO-8601 date or date-time'],
  ])(
    'when a version is to take effect from %s, then 400 effective_from, and nothing is written',
    async (from, message) => {
      const t = app();
      const plan = await createPlan(t);
      const before = await op.wholeStore(t);
      const response = await op.admin(t, 'PUT', `/plans/${plan.id}`, {
        rules: [DAY_RULE],
        effective_from: from,
      });
      expectReply(response, 400, errorEnvelope('effective_from', message));
      expect(await op.wholeStore(t)).toEqual(before);
    },
  );

  test('when a plan name is taken, or a version is sent for no plan, then 409 plan.already-exists and 404 plan.not-found, and nothing is written', async () => {
    const t = app();
    const plan = await createPlan(t);
    const before = await op.wholeStore(t);

    expectReply(
      await op.admin(t, 'POST', '/plans', { name: plan.name, rules: [] }),
      409,
      errorEnvelope('plan.already-exists', 'plan already exists'),
    );
    expectReply(
      await op.admin(t, 'PUT', '/plans/999999', { rules: [DAY_RULE] }),
      404,
      errorEnvelope('plan.not-found', 'plan not found'),
    );
    expectReply(
      await op.admin(t, 'GET', '/plans/999999'),
      404,
      errorEnvelope('plan.not-found', 'plan not found'),
    );
    expect(await op.wholeStore(t)).toEqual(before);
  });
});

describe.each(dialects)("members' plans (%s)", (dialect) => {
  const app = op.operatorApp({ dialect });

  test("when the member app sets a member's plan, then 200 from now; a later change keeps the history; erasure removes it", async () => {
    const t = app();
    const [first, second] = [await createPlan(t), await createPlan(t)];
    const member = platformId();
    const memberApp = await asRole(t, 'member-app');
    const later = op.at(60_000);

    const set = await memberApp.call('PUT', `/members/${member}/plan`, { plan_id: first.id });
    const changed = await memberApp.call('PUT', `/members/${member}/plan`, {
      plan_id: second.id,
      effective_from: later,
    });

    expectReply(set, 200, { platform_id: member, plan_id: first.id, effective_from: op.T0, set_at: op.T0 });
    expectReply(changed, 200, {
      platform_id: member,
      plan_id: second.id,
      effective_from: later,
      set_at: op.T0,
    });
    expect(await auditTail(t)).toEqual({
      actor: `operator:${memberApp.name}`,
      action: 'update',
      entity: 'member',
      entity_id: member,
    });
    expectReply(await op.admin(t, 'GET', `/members/${member}/plan`), 200, {
      platform_id: member,
      plans: [
        { plan_id: first.id, effective_from: op.T0, set_at: op.T0 },
        { plan_id: second.id, effective_from: later, set_at: op.T0 },
      ],
    });

    expect((await op.admin(t, 'POST', `/members/${member}/erase`)).statusCode).toBe(200);
    expect(
      await t.store.db.selectFrom('member_plans').where('platform_id', '=', member).selectAll().execute(),
    ).toEqual([]);
  });

  test('when the plan does not exist, or the role is finance, then 404 plan.not-found or 403, and nothing is written', async () => {
    const t = app();
    const plan = await createPlan(t);
    const finance = await asRole(t, 'finance');
    const member = platformId();
    const before = await op.wholeStore(t);

    expectReply(
      await op.admin(t, 'PUT', `/members/${member}/plan`, { plan_id: 999_999 }),
      404,
      errorEnvelope('plan.not-found', 'plan not found'),
    );
    expectReply(
      await finance.call('PUT', `/members/${member}/plan`, { plan_id: plan.id }),
      403,
      errorEnvelope('authorization', 'the finance role may not create or cancel check-ins'),
    );
    expect(await op.wholeStore(t)).toEqual(before);
  });
});

describe.each(dialects)('payout rules as versioned data (%s)', (dialect) => {
  const app = op.operatorApp({ dialect });
  const rules = { monthly_paid_visits_per_member: 8, tiers: [{ after_cents: 100_000, rate_pct: 90.5 }] };

  test("when a partner's rules and a gym's override are set, then each owner has its own versions", async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const later = op.at(86_400_000);

    const partner1 = await op.admin(t, 'PUT', `/partners/${n.partner.id}/payout-rules`, rules);
    const partner2 = await op.admin(t, 'PUT', `/partners/${n.partner.id}/payout-rules`, {
      monthly_paid_visits_per_member: null,
      tiers: [],
      effective_from: later,
    });
    const gym1 = await op.admin(t, 'PUT', `/gyms/${n.gym.id}/payout-rules`, { ...rules, tiers: [] });

    expectReply(partner1, 200, { version: 1, ...rules, effective_from: op.T0 });
    expectReply(partner2, 200, {
      version: 2,
      monthly_paid_visits_per_member: null,
      tiers: [],
      effective_from: later,
    });
    expectReply(gym1, 200, { version: 1, ...rules, tiers: [], effective_from: op.T0 });
    expectReply(await op.admin(t, 'GET', `/partners/${n.partner.id}/payout-rules`), 200, {
      versions: [
        { version: 1, ...rules, effective_from: op.T0 },
        { version: 2, monthly_paid_visits_per_member: null, tiers: [], effective_from: later },
      ],
    });
    expectReply(await op.admin(t, 'GET', `/gyms/${n.gym.id}/payout-rules`), 200, {
      versions: [{ version: 1, ...rules, tiers: [], effective_from: op.T0 }],
    });
    expect(await auditTail(t)).toEqual({
      actor: 'operator',
      action: 'update',
      entity: 'payout-rules',
      entity_id: `gym:${n.gym.id}`,
    });
  });

  test('when the rules are wrong or their owner does not exist, then 400 naming the field or 404, and nothing is written', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const before = await op.wholeStore(t);
    const put = (url: string, body: unknown) => op.admin(t, 'PUT', url, body);

    expectReply(
      await put(`/partners/${n.partner.id}/payout-rules`, {
        ...rules,
        tiers: [{ after_cents: 5, rate_pct: 33.333 }],
      }),
      400,
      errorEnvelope('tiers[0].rate_pct', 'must be from 0 to 100, with at most two decimals'),
    );
    expectReply(
      await put(`/partners/${n.partner.id}/payout-rules`, {
        ...rules,
        tiers: [
          { after_cents: 5, rate_pct: 50 },
          { after_cents: 5, rate_pct: 40 },
        ],
      }),
      400,
      errorEnvelope('tiers[1].after_cents', 'repeats another tier’s'),
    );
    expectReply(
      await put('/partners/999999/payout-rules', rules),
      404,
      errorEnvelope('partner.not-found', 'partner not found'),
    );
    expectReply(
      await put('/gyms/999999/payout-rules', rules),
      404,
      errorEnvelope('gym.not-found', 'gym not found'),
    );
    expect(await op.wholeStore(t)).toEqual(before);
  });
});

describe.each(dialects)('product categories (%s)', (dialect) => {
  const app = op.operatorApp({ dialect });

  test('when a product is created or changed with a category that is not a slug, then 400 key category, and nothing is written', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const before = await op.wholeStore(t);
    const invalid = errorEnvelope('category', 'must match pattern "^[a-z0-9][a-z0-9-]{0,31}$"');

    expectReply(
      await op.admin(t, 'POST', `/gyms/${n.gym.id}/products`, { description: 'Gold', category: 'Gold!' }),
      400,
      invalid,
    );
    expectReply(await op.admin(t, 'PATCH', `/products/${n.product.id}`, { category: '' }), 400, invalid);
    expect(await op.wholeStore(t)).toEqual(before);
  });
});
