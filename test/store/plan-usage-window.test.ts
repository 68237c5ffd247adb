import { sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import { USAGE_LOOKBACK_MS } from '../../src/domain/plans/admission.js';
import { planUsage } from '../../src/store/plans/plan-repository.js';
import { planUsageSql } from '../../src/store/plans/plan-state.js';
import { platformId } from '../fixtures/factories.js';
import * as op from '../fixtures/operator-api.js';
import { queryPlan } from '../fixtures/query-plan.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';

const DAY_MS = 86_400_000;
const TTL_MS = 1_200_000;

/** A check-in of the member at the network's gym at `at`: validated a minute later, else left to expire. */
async function checkinAt(t: TestApp, n: op.Network, member: string, at: number, validated: boolean) {
  const row = await t.store.db
    .insertInto('checkins')
    .values({
      platform_id: member,
      gym_id: n.gym.id,
      product_id: n.product.id,
      status: validated ? 'validated' : 'pending',
      checked_in_at: at,
      expires_at: at + TTL_MS,
      validated_at: validated ? at + 60_000 : null,
      created_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

describe.each(dialects)("a member's check-ins a plan may count, read by expiry (%s)", (dialect) => {
  const app = op.operatorApp({ dialect });

  test("when a member has a year of check-ins, then the read returns those of the plan's window and the unexpired, seeking to them by the member's expiry", async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const member = platformId();
    const now = op.T0_MS + 400 * DAY_MS;
    const since = now - USAGE_LOOKBACK_MS;
    for (let day = 400; day > 40; day -= 3) await checkinAt(t, n, member, now - day * DAY_MS, true);
    const validatedInWindow = await checkinAt(t, n, member, since + DAY_MS, true);
    await checkinAt(t, n, member, now - 2 * DAY_MS, false);
    const waiting = await checkinAt(t, n, member, now - 60_000, false);
    await checkinAt(t, n, platformId(), now - DAY_MS, true);

    const usage = await planUsage(t.store.db, member, since, now);

    expect(usage.map((checkin) => checkin.id).sort((a, b) => a - b)).toEqual([validatedInWindow, waiting]);
    const plan = await queryPlan(t, dialect, sql.raw(planUsageSql(`'${platformId()}'`, '0', '1')));
    expect(plan).toContain('checkins_member_expiry');
    expect(plan).toMatch(dialect === 'sqlite' ? /platform_id=\? AND expires_at>\?/ : /expires_at >= /);
  });
});
