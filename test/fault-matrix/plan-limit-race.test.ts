import { describe, expect, test } from 'vitest';
import { platformId, unique } from '../fixtures/factories.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';

const TRIALS = 8;

/** Every write path of check-in creation: the dialect's batched fast path, and the query builder's. */
const PATHS = dialects.flatMap((dialect) => [
  { dialect, groupCommit: true },
  { dialect, groupCommit: false },
]);

async function planOf(t: TestApp, rule: { per: string; limit: number; scope: string }) {
  const plan = await op.admin(t, 'POST', '/plans', {
    name: `Plan ${unique()}`,
    rules: [{ category: 'standard', ...rule }],
  });
  expect(plan.statusCode, plan.body).toBe(201);
  return (JSON.parse(plan.body) as { id: number }).id;
}

/** The member's creations at every product at once: how many were created, and each refusal's key and count. */
async function createAtOnce(t: TestApp, member: string, products: op.Product[]) {
  const replies = await Promise.all(
    products.map((product) =>
      op.admin(t, 'POST', '/checkins', {
        platform_id: member,
        gym_id: product.gym_id,
        product_id: product.id,
      }),
    ),
  );
  const created = replies.filter((reply) => reply.statusCode === 201).length;
  const refused = replies
    .filter((reply) => reply.statusCode !== 201)
    .map((reply) => {
      const body = reply.json<{ errors: { key: string; details: { used: number } }[] }>();
      return { status: reply.statusCode, key: body.errors[0]?.key, used: body.errors[0]?.details.used };
    });
  const stored = await t.store.db
    .selectFrom('checkins')
    .select('id')
    .where('platform_id', '=', member)
    .execute();
  return { created, refused, stored: stored.length };
}

describe.each(PATHS)('a plan limit wider than a gym, under concurrent creations (%j)', (path) => {
  const app = op.operatorApp(path);

  test('when a member creates check-ins at four gyms of two partners at once against 2 a day network-wide, then exactly 2 are created and the rest are 409 limit-reached with 2 used', async () => {
    const t = app();
    const [a, b] = [await op.arrangeNetwork(t), await op.arrangeNetwork(t)];
    const more = [await op.createGym(t, a.partner.id), await op.createGym(t, b.partner.id)];
    const products = [
      a.product,
      b.product,
      ...(await Promise.all(more.map((g) => op.createProduct(t, g.id)))),
    ];
    const plan = await planOf(t, { per: 'day', limit: 2, scope: 'network' });

    for (let trial = 0; trial < TRIALS; trial += 1) {
      const member = platformId();
      await op.admin(t, 'PUT', `/members/${member}/plan`, { plan_id: plan });

      const outcome = await createAtOnce(t, member, products);

      const refused = { status: 409, key: 'checkin.plan.limit-reached', used: 2 };
      expect(outcome).toEqual({ created: 2, refused: [refused, refused], stored: 2 });
    }
  });

  test('when a member creates check-ins at three gyms of one partner at once against 1 a month partner-wide, then exactly 1 is created', async () => {
    const t = app();
    const a = await op.arrangeNetwork(t);
    const gyms = [await op.createGym(t, a.partner.id), await op.createGym(t, a.partner.id)];
    const products = [a.product, ...(await Promise.all(gyms.map((g) => op.createProduct(t, g.id))))];
    const plan = await planOf(t, { per: 'month', limit: 1, scope: 'partner' });

    for (let trial = 0; trial < TRIALS; trial += 1) {
      const member = platformId();
      await op.admin(t, 'PUT', `/members/${member}/plan`, { plan_id: plan });

      const outcome = await createAtOnce(t, member, products);

      const refused = { status: 409, key: 'checkin.plan.limit-reached', used: 1 };
      expect(outcome).toEqual({ created: 1, refused: [refused, refused], stored: 1 });
    }
  });
});
