import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Plan, PlanRule, PlanVersion } from '../../domain/plans/plan.js';
import type { PlanUsage } from '../../domain/plans/admission.js';
import { groupedBy } from '../../domain/grouped.js';
import type { Database } from '../database.js';
import { toPlanUsage } from './plan-state.js';
import { checkinsAtGyms } from '../access/checkins-at-gyms.js';

type Db = Kysely<Database>;

function toVersion(row: {
  plan_id: number | string;
  version: number | string;
  rules: string;
  effective_from: number | string;
}): PlanVersion {
  return {
    planId: Number(row.plan_id),
    version: Number(row.version),
    rules: JSON.parse(row.rules) as PlanRule[],
    effectiveFrom: Number(row.effective_from),
  };
}

/** Whether any plan exists: until one does, no check-in creation has a plan to read. */
export async function anyPlan(db: Db): Promise<boolean> {
  return (await db.selectFrom('plans').select('id').limit(1).executeTakeFirst()) !== undefined;
}

export async function planNamed(db: Db, name: string): Promise<number | undefined> {
  const row = await db.selectFrom('plans').select('id').where('name', '=', name).executeTakeFirst();
  return row && Number(row.id);
}

/** A new plan and its first version; answers the plan's id. */
export async function insertPlan(db: Db, name: string, now: number): Promise<number> {
  const row = await db
    .insertInto('plans')
    .values({ name, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** The plan's next version (its first is 1), in force from `effectiveFrom`. */
export async function insertPlanVersion(
  db: Db,
  planId: number,
  rules: readonly PlanRule[],
  effectiveFrom: number,
  now: number,
): Promise<PlanVersion> {
  const last = await db
    .selectFrom('plan_versions')
    .select((eb) => eb.fn.max('version').as('version'))
    .where('plan_id', '=', planId)
    .executeTakeFirst();
  const version = Number(last?.version ?? 0) + 1;
  const stored = rules.map(({ category, per, limit, scope }) => ({ category, per, limit, scope }));
  await db
    .insertInto('plan_versions')
    .values({
      plan_id: planId,
      version,
      rules: JSON.stringify(stored),
      effective_from: effectiveFrom,
      created_at: now,
    })
    .execute();
  return { planId, version, rules: stored, effectiveFrom };
}

/** Plans with their versions, by id: all of them, or the ones named. */
export async function findPlans(db: Db, ids?: readonly number[]): Promise<Plan[]> {
  if (ids?.length === 0) return [];
  let plans = db.selectFrom('plans').select(['id', 'name']).orderBy('id');
  let versions = db.selectFrom('plan_versions').selectAll().orderBy('plan_id').orderBy('version');
  if (ids !== undefined) {
    plans = plans.where('id', 'in', ids);
    versions = versions.where('plan_id', 'in', ids);
  }
  const byPlan = groupedBy((await versions.execute()).map(toVersion), (version) => version.planId);
  return (await plans.execute()).map((row) => ({
    id: Number(row.id),
    name: row.name,
    versions: byPlan.get(Number(row.id)) ?? [],
  }));
}

export async function findPlan(db: Db, id: number): Promise<Plan | undefined> {
  return (await findPlans(db, [id]))[0];
}

/**
 * Of rows that take effect from an instant on (a member's plans, a plan's versions), the one in force at `now`: the
 * last to take effect by then; of two taking effect at one instant, the later made (`tiebreak`).
 */
const inForceAt =
  (now: number, tiebreak: 'id' | 'version') =>
  <QB extends SelectQueryBuilder<Database, 'member_plans' | 'plan_versions', object>>(qb: QB): QB =>
    qb
      .where(sql.ref('effective_from'), '<=', now)
      .orderBy(sql.ref('effective_from'), 'desc')
      .orderBy(sql.ref(tiebreak), 'desc')
      .limit(1) as QB;

/** The version in force at `now` of the plan the member has at `now` (else the default plan); undefined: none. */
export async function memberPlanVersionAt(
  db: Db,
  platformId: string,
  now: number,
  defaultPlan: string | undefined,
): Promise<PlanVersion | undefined> {
  const own = await db
    .selectFrom('member_plans')
    .select('plan_id')
    .where('platform_id', '=', platformId)
    .$call(inForceAt(now, 'id'))
    .executeTakeFirst();
  const planId = own?.plan_id ?? (defaultPlan === undefined ? undefined : await planNamed(db, defaultPlan));
  if (planId === undefined) return undefined;
  const row = await db
    .selectFrom('plan_versions')
    .select(['plan_id', 'version', 'rules', 'effective_from'])
    .where('plan_id', '=', planId)
    .$call(inForceAt(now, 'version'))
    .executeTakeFirst();
  return row && toVersion(row);
}

/**
 * The member's check-ins at any gym that may use a plan's visits: validated since `since`, or unexpired at `now`;
 * all of them expire at `since` or later (plan-state.ts says why).
 */
export async function planUsage(
  db: Db,
  platformId: string,
  since: number,
  now: number,
): Promise<PlanUsage[]> {
  const rows = await checkinsAtGyms(db)
    .select([
      'checkins.id',
      'checkins.gym_id',
      'gyms.partner_id',
      'products.category',
      'checkins.status',
      'checkins.checked_in_at',
      'checkins.expires_at',
      'checkins.validated_at',
    ])
    .where('checkins.platform_id', '=', platformId)
    .where('checkins.expires_at', '>=', since)
    .where((eb) => eb.or([eb('checkins.validated_at', '>=', since), eb('checkins.expires_at', '>', now)]))
    .execute();
  return rows.map(toPlanUsage);
}
