import { describe, expect, test } from 'vitest';
import { platformId, unique } from '../fixtures/factories.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { expectReply } from '../fixtures/partner-api.js';
import { NEWEST_MIGRATION } from '../../src/services/release.js';

const NOT_INCLUDED = {
  metadata: { total: 0, errors: 1 },
  errors: [
    {
      message: "the member's plan does not include standard",
      key: 'checkin.plan.not-included',
      details: { category: 'standard' },
    },
  ],
};

/** A member whose plan does not include the standard category. */
async function memberWithoutStandard(t: TestApp) {
  const plan = await op.admin(t, 'POST', '/plans', {
    name: `Plan ${unique()}`,
    rules: [{ category: 'premium', per: 'day', limit: 1, scope: 'gym' }],
  });
  const member = platformId();
  const id = (JSON.parse(plan.body) as { id: number }).id;
  expect((await op.admin(t, 'PUT', `/members/${member}/plan`, { plan_id: id })).statusCode).toBe(200);
  return member;
}

describe.each(dialects)('plans during a rolling upgrade (%s)', (dialect) => {
  const app = op.operatorApp({ dialect, perTest: true });

  test('when the app is ready, then it is in the registry with the release it runs and a heartbeat', async () => {
    const t = app();
    await t.app.ready();

    const rows = await t.store.db.selectFrom('processes').selectAll().execute();

    expect(rows).toEqual([
      {
        id: t.services.fleet.id,
        newest_migration: NEWEST_MIGRATION,
        started_at: op.T0_MS,
        heartbeat_at: op.T0_MS,
      },
    ]);
  });

  test('when the process stops, then it leaves the registry; when it beats again, a process silent for a day is forgotten', async () => {
    const t = app();
    await t.app.ready();
    const crashed = { id: 'crashed', newest_migration: '0014-plans', started_at: 0 };
    await t.store.db
      .insertInto('processes')
      .values({ ...crashed, heartbeat_at: op.T0_MS - 86_400_001 })
      .execute();

    await t.services.fleet.stop();
    const stopped = await t.store.db.selectFrom('processes').select('id').execute();
    await t.services.fleet.start();
    const started = await t.store.db.selectFrom('processes').select('id').execute();

    expect(stopped).toEqual([{ id: 'crashed' }]);
    expect(started).toEqual([{ id: t.services.fleet.id }]);
  });

  test('when a live process of the previous release is on the database, then plans decide nothing: the daily limit does, as that process would; once its heartbeat is stale, the plan decides', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const member = await memberWithoutStandard(t);
    const old = { id: 'previous', newest_migration: '0012-audit-actor-id', started_at: op.T0_MS };
    await t.store.db
      .insertInto('processes')
      .values({ ...old, heartbeat_at: op.T0_MS - 14_000 })
      .execute();

    const duringRollout = await op.postCheckin(t, n, member);
    await t.store.db
      .updateTable('processes')
      .set({ heartbeat_at: op.T0_MS - 15_001 })
      .where('id', '=', 'previous')
      .execute();
    const before = await op.wholeStore(t);
    const afterRollout = await op.postCheckin(t, n, member);

    expect(duringRollout.statusCode, duringRollout.body).toBe(201);
    expectReply(afterRollout, 409, NOT_INCLUDED);
    expect(await op.wholeStore(t)).toEqual(before);
  });
});
