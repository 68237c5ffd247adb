import type { CancellationState, CreationState } from '../../../domain/decisions/checkin.js';
import type { CodeState } from '../../../domain/decisions/custom-code.js';
import type { ValidationRequest, ValidationState } from '../../../domain/decisions/validation.js';
import { MARKED_VISITS, toCounts, type CountsRow } from '../../plans/payout-counter-repository.js';
import type { BatchCounts } from './postgres-batch-counts.js';
import { nextId, reservedTransactionId } from '../../changes/id-reservation.js';
import { latestFirst, validatedBetween } from '../../changes/rule-sql.js';
import { toCheckin, toLatestCheckin, toReservedId, type LatestCheckinRow } from '../../changes/rows.js';
import type { CheckinRow } from '../../database.js';
import {
  memberPlanVersionSql,
  planUsageSql,
  toPlanUsage,
  toPlanVersion,
  type PlanUsageRow,
} from '../../plans/plan-state.js';

/**
 * The reads of PostgreSQL's batched changes (postgres-batched-changes.ts), hand-written beside the query-builder
 * readers (src/store/changes/change-readers.ts) they must match. Each takes the requests of one kind as one json array of
 * rows (postgres-json-rows.ts) and returns one row per request, in request order, so a batch of any size costs one
 * statement per kind it holds, all of them sent with BEGIN and the locks in one round trip (postgres-pipeline.ts).
 */

/**
 * The batch's transaction: BEGIN, then the members' advisory locks — the same keys as
 * `store.serialize(trx, key)` for each of `memberLockKeys(…)`, taken in their one stable order (`collate "C"`) so two batches (or a batch and another
 * change) never wait on each other in a cycle; PostgreSQL evaluates volatile functions of the select list after
 * ORDER BY. The keys are one json array of strings.
 */
export const BEGIN = 'begin';
export const MEMBER_LOCKS = `
select pg_advisory_xact_lock(hashtextextended(k, 0)) from json_array_elements_text($1::json) as k order by k collate "C"`;
export const COMMIT = 'commit';

/**
 * What each validation is decided from, in a snapshot taken after the locks: the member's most recent check-in
 * (greatest checked_in_at, then id) with its product and gym, and the member's code at the gym for the requests
 * that carry one.
 */
export const VALIDATION_STATE = `
select c.id, c.status, c.checked_in_at, c.expires_at, c.product_id, p.description, p.payout_cents, p.currency,
       g.partner_id, c.member, case when r.wants_code then cc.code end as code,
       ${reservedTransactionId(true, 'c', 'r.now')} as transaction_id,
       case when r.priced then coalesce(mv.visits, 0)
         + ${MARKED_VISITS('r.platform_id', 'r.marks_since', 'r.month', 'r.scope', 'r.partner_id')} end as member_visits,
       case when r.priced then coalesce(pt.paid_cents, 0) end as partner_paid_cents
from rows from (json_to_recordset($1::json)
  as (gym_id bigint, platform_id text, wants_code boolean, now bigint, priced boolean, partner_id bigint,
      month text, scope bigint, marks_since bigint))
  with ordinality as r(gym_id, platform_id, wants_code, now, priced, partner_id, month, scope, marks_since, ord)
left join lateral (
  select checkins.id, checkins.status, checkins.checked_in_at, checkins.expires_at, checkins.product_id,
         checkins.member
  from checkins
  where checkins.gym_id = r.gym_id and checkins.platform_id = r.platform_id
  order by ${latestFirst('checkins')}
  limit 1
) c on true
left join lateral (
  -- The product of the one check-in found, on its own. Joined plainly, it was planned inside each request's lookup
  -- as a hash join, built again for every request (a batch of 14 read in 0.41 ms against 0.24 on a network of 100
  -- products); OFFSET 0 keeps this subquery from being merged back into that plan.
  select products.description, products.payout_cents, products.currency
  from products
  where products.id = c.product_id
  offset 0
) p on true
left join gyms g on g.id = r.gym_id
left join custom_codes cc on cc.gym_id = r.gym_id and cc.platform_id = r.platform_id
left join payout_counters mv
  on r.priced and mv.partner_id = r.partner_id and mv.month = r.month and mv.gym_id = r.scope
  and mv.platform_id = r.platform_id
left join payout_counters pt
  on r.priced and pt.partner_id = r.partner_id and pt.month = r.month and pt.gym_id = 0 and pt.platform_id = ''
order by r.ord`;

/**
 * A request's row: the latest check-in's columns (all null when there is none), the member's code, and the month's
 * counts where the visit is priced (the member's: their counter row and marked check-ins).
 */
export type ValidationStateRow = (LatestCheckinRow | { readonly [K in keyof LatestCheckinRow]: null }) & {
  readonly code: string | null;
} & CountsRow;

/** The state of a validation; `counts` adds what the batch's earlier visits counted (postgres-batch-counts.ts). */
export function toValidationState(
  row: ValidationStateRow,
  request: ValidationRequest,
  counts: BatchCounts,
): ValidationState {
  const latest = row.id === null ? undefined : toLatestCheckin(row);
  const code = row.code ?? undefined;
  const transactionId = toReservedId(row.transaction_id);
  const terms = request.pricing;
  if (terms === undefined || transactionId === undefined) return { latest, code, transactionId };
  // One literal, not the state spread into another (V8 clones a spread literal through a map it does not cache).
  return { latest, code, transactionId, counts: counts.adjust(terms, request.platformId, toCounts(row)) };
}

/**
 * What each check-in creation is decided from: the gym (partner, time zone, retired), the product, the member's plan
 * version with the check-ins that may use its visits or else when the member's validations at the gym around now were
 * made (for the daily visit limit), and the id the new check-in will take (refused creations skip theirs, as the
 * query-builder reservation does).
 */
export const CREATION_STATE = `
select g.partner_id, g.timezone, g.retired_at as gym_retired_at,
       p.id as product_id, p.gym_id as product_gym_id, p.description, p.retired_at as product_retired_at,
       p.category,
       case when v.plan_id is null then array(select c.validated_at from checkins c
        where c.gym_id = r.gym_id and c.platform_id = r.platform_id
          and ${validatedBetween('c', 'r.since', 'r.until')}) else '{}' end as validations,
       v.plan_id, v.version as plan_version, v.rules as plan_rules, v.effective_from as plan_effective_from,
       case when v.plan_id is null then null else
         (select coalesce(json_agg(u), '[]'::json) from (${planUsageSql('r.platform_id', 'r.usage_since', 'r.now')}) u)
       end as plan_usage,
       ${nextId(true, 'checkins')} as checkin_id
from rows from (json_to_recordset($1::json)
  as (gym_id bigint, platform_id text, product_id bigint, since bigint, until bigint, now bigint, usage_since bigint,
      plans boolean, default_plan text))
  with ordinality as r(gym_id, platform_id, product_id, since, until, now, usage_since, plans, default_plan, ord)
left join gyms g on g.id = r.gym_id
left join products p on p.id = r.product_id
left join lateral (${memberPlanVersionSql('r.platform_id', 'r.now', 'r.default_plan', 'r.plans')}) v on true
order by r.ord`;

export interface CreationStateRow {
  readonly partner_id: number | null;
  readonly timezone: string | null;
  readonly gym_retired_at: number | null;
  readonly product_id: number | null;
  readonly product_gym_id: number | null;
  readonly description: string | null;
  readonly product_retired_at: number | null;
  readonly category: string | null;
  readonly validations: readonly (number | string)[];
  readonly plan_id: number | string | null;
  readonly plan_version: number | null;
  readonly plan_rules: string | null;
  readonly plan_effective_from: number | string | null;
  readonly plan_usage: readonly PlanUsageRow[] | null;
  readonly checkin_id: number;
}

function planOf(row: CreationStateRow): CreationState['plan'] {
  if (row.plan_id === null || row.plan_version === null || row.plan_rules === null) return undefined;
  const version = toPlanVersion({
    plan_id: row.plan_id,
    version: row.plan_version,
    rules: row.plan_rules,
    effective_from: row.plan_effective_from ?? 0,
  });
  return { version, usage: (row.plan_usage ?? []).map(toPlanUsage) };
}

export function toCreationState(row: CreationStateRow): CreationState {
  return {
    gym:
      row.partner_id === null
        ? undefined
        : { partnerId: row.partner_id, timezone: row.timezone, retired: row.gym_retired_at !== null },
    product:
      row.product_id === null
        ? undefined
        : {
            id: row.product_id,
            gymId: row.product_gym_id ?? 0,
            description: row.description ?? '',
            retired: row.product_retired_at !== null,
            category: row.category ?? 'standard',
          },
    plan: planOf(row),
    recentValidations: row.validations.map(Number),
    checkinId: row.checkin_id,
  };
}

/** What each cancellation is decided from: the check-in as it is now, its gym's partner and its product. */
export const CANCELLATION_STATE = `
select c.*, g.partner_id, p.description
from rows from (json_to_recordset($1::json) as (id bigint)) with ordinality as r(id, ord)
left join checkins c on c.id = r.id
left join gyms g on g.id = c.gym_id
left join products p on p.id = c.product_id
order by r.ord`;

export type CancellationStateRow = (CheckinRow | { readonly [K in keyof CheckinRow]: null }) & {
  readonly partner_id: number | null;
  readonly description: string | null;
};

export function toCancellationState(row: CancellationStateRow): CancellationState {
  if (row.id === null) return { checkin: undefined };
  if (row.partner_id === null || row.description === null)
    throw new Error(`check-in ${row.id} lost its gym or product`);
  const checkin = toCheckin(row);
  return {
    checkin: {
      ...checkin,
      partnerId: row.partner_id,
      product: { id: checkin.productId, description: row.description },
    },
  };
}

/** What each custom-code write is decided from: the member's code at the gym, and the gym's partner. */
export const CODE_STATE = `
select cc.code, cc.updated_at, g.partner_id
from rows from (json_to_recordset($1::json) as (gym_id bigint, platform_id text))
  with ordinality as r(gym_id, platform_id, ord)
left join custom_codes cc on cc.gym_id = r.gym_id and cc.platform_id = r.platform_id
left join gyms g on g.id = r.gym_id
order by r.ord`;

export interface CodeStateRow {
  readonly code: string | null;
  readonly updated_at: number | null;
  readonly partner_id: number | null;
}

export function toCodeState(key: { gymId: number; platformId: string }, row: CodeStateRow): CodeState {
  return {
    existing:
      row.code === null
        ? undefined
        : { gymId: key.gymId, platformId: key.platformId, code: row.code, updatedAt: row.updated_at ?? 0 },
    partnerId: row.partner_id ?? undefined,
  };
}
