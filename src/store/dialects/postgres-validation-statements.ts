import type pg from 'pg';
import type { ValidationState } from '../../domain/decisions/validation.js';
import { toLatestCheckin, type LatestCheckinRow } from '../change-readers.js';

/**
 * The reads of PostgreSQL's batched validation (postgres-batched-validation.ts), hand-written beside the
 * query-builder readers (src/store/change-readers.ts) they must match. They take the requests of a batch as
 * parallel arrays, so a batch of any size costs the same round trips.
 */

/**
 * BEGIN and the batch's advisory locks in one round trip (a simple-protocol query may hold two statements; the
 * keys are quoted by the driver). The same keys as `store.serialize(trx, memberLockKey(…))`, taken in one stable
 * order so two batches (or a batch and another change) never wait on each other in a cycle; PostgreSQL evaluates
 * volatile functions of the select list after ORDER BY.
 */
export function beginAndLock(client: pg.PoolClient, keys: readonly string[]): string {
  const array = `array[${keys.map((key) => client.escapeLiteral(key)).join(',')}]::text[]`;
  return `begin; select pg_advisory_xact_lock(hashtextextended(k, 0)) from unnest(${array}) as k order by k`;
}

/**
 * What each validation of the batch is decided from, in a snapshot taken after the locks: the member's most
 * recent check-in (greatest checked_in_at, then id) with its product and gym, and the member's code at the gym for
 * the requests that carry one. One row per request, in request order.
 */
export const VALIDATION_STATE = `
select c.id, c.status, c.checked_in_at, c.expires_at, c.product_id, p.description, p.payout_cents, p.currency,
       g.partner_id, case when r.wants_code then cc.code end as code
from unnest($1::bigint[], $2::text[], $3::boolean[]) with ordinality as r(gym_id, platform_id, wants_code, ord)
left join lateral (
  select checkins.id, checkins.status, checkins.checked_in_at, checkins.expires_at, checkins.product_id
  from checkins
  where checkins.gym_id = r.gym_id and checkins.platform_id = r.platform_id
  order by checkins.checked_in_at desc, checkins.id desc
  limit 1
) c on true
left join products p on p.id = c.product_id
left join gyms g on g.id = r.gym_id
left join custom_codes cc on cc.gym_id = r.gym_id and cc.platform_id = r.platform_id
order by r.ord`;

/** A request's row: the latest check-in's columns (all null when there is none) and the member's code. */
export type ValidationStateRow = (LatestCheckinRow | { readonly [K in keyof LatestCheckinRow]: null }) & {
  readonly code: string | null;
};

export function toValidationState(row: ValidationStateRow): ValidationState {
  return { latest: row.id === null ? undefined : toLatestCheckin(row), code: row.code ?? undefined };
}
