import { describe, expect, test } from 'vitest';
import { unique } from '../fixtures/factories.js';
import { dialects } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';

const DAY_RULE = { category: 'standard', per: 'day', limit: 1, scope: 'gym' };
const WEEK_RULE = { category: 'standard', per: 'week', limit: 3, scope: 'partner' };

const bodyOf = (response: { body: string }) => JSON.parse(response.body) as Record<string, unknown>;

/*
 * Versions are numbered from the latest: on PostgreSQL two requests at once run in two transactions, and each must
 * see the other's version (or its plan's name) rather than write the same number twice.
 */
describe.each(dialects)('plans and payout rules changed at once (%s)', (dialect) => {
  const app = op.operatorApp({ dialect });

  test('when two versions of one plan are sent at once, then both are kept, numbered 2 and 3', async () => {
    const t = app();
    const created = await op.admin(t, 'POST', '/plans', { name: `Plan ${unique()}`, rules: [DAY_RULE] });
    const id = bodyOf(created).id as number;

    const answers = await Promise.all(
      [DAY_RULE, WEEK_RULE].map((rule) => op.admin(t, 'PUT', `/plans/${id}`, { rules: [rule] })),
    );

    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    expect(answers.map((answer) => bodyOf(answer).version).sort()).toEqual([2, 3]);
    const versions = await t.store.db
      .selectFrom('plan_versions')
      .select(['version', 'rules'])
      .where('plan_id', '=', id)
      .orderBy('version')
      .execute();
    expect(versions.map((row) => row.version)).toEqual([1, 2, 3]);
    expect(
      versions
        .slice(1)
        .map((row) => JSON.parse(row.rules) as unknown)
        .sort(),
    ).toEqual(answers.map((answer) => bodyOf(answer).rules).sort());
  });

  test('when two plans of one name are created at once, then one is created and the other is told it exists', async () => {
    const t = app();
    const name = `Gold ${unique()}`;

    const answers = await Promise.all(
      [DAY_RULE, WEEK_RULE].map((rule) => op.admin(t, 'POST', '/plans', { name, rules: [rule] })),
    );

    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([201, 409]);
    const refused = answers.find((answer) => answer.statusCode === 409);
    expect(bodyOf(refused ?? { body: '{}' })).toEqual(
      errorEnvelope('plan.already-exists', 'plan already exists'),
    );
    const plans = await t.store.db.selectFrom('plans').select('id').where('name', '=', name).execute();
    expect(plans).toHaveLength(1);
  });

  test("when a partner's payout rules are set twice at once, then both versions are kept, numbered 1 and 2", async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const bodies = [
      { monthly_paid_visits_per_member: 8, tiers: [] },
      { monthly_paid_visits_per_member: null, tiers: [{ after_cents: 100_000, rate_pct: 90 }] },
    ];

    const answers = await Promise.all(
      bodies.map((body) => op.admin(t, 'PUT', `/partners/${n.partner.id}/payout-rules`, body)),
    );

    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    expect(answers.map((answer) => bodyOf(answer).version).sort()).toEqual([1, 2]);
    const rows = await t.store.db
      .selectFrom('payout_rules')
      .select(['version', 'monthly_paid_visits_per_member'])
      .where('partner_id', '=', n.partner.id)
      .orderBy('version')
      .execute();
    expect(rows.map((row) => row.version)).toEqual([1, 2]);
    expect(rows.map((row) => row.monthly_paid_visits_per_member).sort()).toEqual(
      answers.map((answer) => bodyOf(answer).monthly_paid_visits_per_member).sort(),
    );
  });
});
