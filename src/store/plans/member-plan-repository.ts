import type { Kysely } from 'kysely';
import type { Database } from '../database.js';

type Db = Kysely<Database>;

/** A member's plan from an instant on (until a later row's `effectiveFrom`). */
export interface MemberPlan {
  readonly planId: number;
  readonly effectiveFrom: number;
  readonly setAt: number;
}

export async function insertMemberPlan(
  db: Db,
  platformId: string,
  plan: { planId: number; effectiveFrom: number },
  now: number,
): Promise<MemberPlan> {
  await db
    .insertInto('member_plans')
    .values({
      platform_id: platformId,
      plan_id: plan.planId,
      effective_from: plan.effectiveFrom,
      created_at: now,
    })
    .execute();
  return { ...plan, setAt: now };
}

/** The member's plans in the order they were set (the later of two rows of one instant wins). */
export async function memberPlanHistory(db: Db, platformId: string): Promise<MemberPlan[]> {
  const rows = await db
    .selectFrom('member_plans')
    .select(['plan_id', 'effective_from', 'created_at'])
    .where('platform_id', '=', platformId)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    planId: Number(row.plan_id),
    effectiveFrom: Number(row.effective_from),
    setAt: Number(row.created_at),
  }));
}
