import type { PlanUsage } from '../../domain/plans/admission.js';
import type { PlanRule, PlanVersion } from '../../domain/plans/plan.js';

/** The columns of the version read that name a version: with planVersionCache, its rules are read once. */
export const PLAN_VERSION_KEY_COLUMNS = 'v.plan_id, v.version, v.effective_from';

/**
 * What a check-in creation reads of the member's plan, as SQL every write path repeats (the query builder's reads
 * in plan-repository.ts are the same): the version in force at `now` of the plan the member has at `now` (else the
 * default plan, by name), and the
 * member's check-ins at any gym that may use its visits (validated since `since`, or not expired at `now`).
 */
export function memberPlanVersionSql(
  platformId: string,
  now: string,
  defaultPlan: string,
  /**
   * A condition on the outer row that must hold for anything to be read: inside the read, so that PostgreSQL
   * checks it once before any of its lookups (in a lateral join's ON it would only filter what they found).
   */
  onlyWhen = 'true',
  /** Without the rules (PLAN_VERSION_KEY_COLUMNS): the reader has the version's already (planVersionCache). */
  columns = `${PLAN_VERSION_KEY_COLUMNS}, v.rules`,
): string {
  return `select ${columns} from plan_versions v
   where ${onlyWhen} and v.plan_id = coalesce((select mp.plan_id from member_plans mp
                               where mp.platform_id = ${platformId} and mp.effective_from <= ${now}
                               order by mp.effective_from desc, mp.id desc limit 1),
                              (select d.id from plans d where d.name = ${defaultPlan}))
     and v.effective_from <= ${now}
   order by v.effective_from desc, v.version desc limit 1`;
}

/**
 * The member's check-ins that may use a plan's visits. Every one expires at `since` or later — a check-in is
 * validated before it expires, and `since` is before `now` — which the first condition states so that the read
 * seeks to them through the member's check-ins by expiry (migration 0018) rather than reading every one. Each
 * check-in's gym and product (which always exist: foreign keys) are looked up for it alone: joined, PostgreSQL's
 * batched read planned them as hash joins built again for every request of the batch, every gym and product read
 * each time (0.43 of the 0.66 ms a batch of 14 creations took on a network of 100 gyms).
 */
export function planUsageSql(platformId: string, since: string, now: string): string {
  return `select c.id, c.gym_id, (select g.partner_id from gyms g where g.id = c.gym_id) as partner_id,
          (select p.category from products p where p.id = c.product_id) as category,
          c.status, c.checked_in_at, c.expires_at, c.validated_at
   from checkins c
   where c.platform_id = ${platformId} and c.expires_at >= ${since}
     and (c.validated_at >= ${since} or c.expires_at > ${now})`;
}

type Num = number | string;

export interface PlanVersionRow {
  readonly plan_id: Num;
  readonly version: Num;
  readonly rules: string | readonly PlanRule[];
  readonly effective_from: Num;
}

export interface PlanUsageRow {
  readonly id: Num;
  readonly gym_id: Num;
  readonly partner_id: Num;
  readonly category: string;
  readonly status: string;
  readonly checked_in_at: Num;
  readonly expires_at: Num;
  readonly validated_at: Num | null;
}

/**
 * Rules as parsed, by their stored text: every check-in creation of a member on a plan reads its version's rules,
 * and a network has few versions. Keyed by the text itself, so an entry can never name other rules (versions are
 * never changed, but a process may serve more than one database); the rules are read-only.
 */
const parsedRules = new Map<string, readonly PlanRule[]>();
const PARSED_RULES_KEPT = 256;

function parseRules(text: string): readonly PlanRule[] {
  const kept = parsedRules.get(text);
  if (kept !== undefined) return kept;
  // Frozen: shared by every creation that reads them.
  const rules = Object.freeze((JSON.parse(text) as PlanRule[]).map((rule) => Object.freeze(rule)));
  if (parsedRules.size >= PARSED_RULES_KEPT) parsedRules.clear();
  parsedRules.set(text, rules);
  return rules;
}

export function toPlanVersion(row: PlanVersionRow): PlanVersion {
  return {
    planId: Number(row.plan_id),
    version: Number(row.version),
    rules: typeof row.rules === 'string' ? parseRules(row.rules) : row.rules,
    effectiveFrom: Number(row.effective_from),
  };
}

/** A version as the read without its rules finds it. */
export type PlanVersionKey = Omit<PlanVersionRow, 'rules'>;

/**
 * The plan versions a store has read, by plan and number. A version never changes once made, so its rules are read
 * and parsed once per store, not at every creation of a member on it; bounded, as a network has few versions.
 */
export function planVersionCache(rulesOf: (planId: number, version: number) => string | undefined) {
  const kept = new Map<number, Map<number, PlanVersion>>();
  let size = 0;
  return (key: PlanVersionKey): PlanVersion => {
    const planId = Number(key.plan_id);
    const number = Number(key.version);
    const found = kept.get(planId)?.get(number);
    if (found !== undefined) return found;
    const rules = rulesOf(planId, number);
    if (rules === undefined) throw new Error(`plan ${planId} lost its version ${number}`);
    const version = toPlanVersion({ ...key, rules });
    if (size >= PARSED_RULES_KEPT) {
      kept.clear();
      size = 0;
    }
    const versions = kept.get(planId) ?? new Map<number, PlanVersion>();
    kept.set(planId, versions.set(number, version));
    size += 1;
    return version;
  };
}

export function toPlanUsage(row: PlanUsageRow): PlanUsage {
  return {
    id: Number(row.id),
    gymId: Number(row.gym_id),
    partnerId: Number(row.partner_id),
    category: row.category,
    status: row.status,
    checkedInAt: Number(row.checked_in_at),
    expiresAt: Number(row.expires_at),
    validatedAt: row.validated_at === null ? null : Number(row.validated_at),
  };
}
