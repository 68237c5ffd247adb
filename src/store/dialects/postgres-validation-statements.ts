import type { CheckinStatus } from '../../domain/checkin-condition.js';

/**
 * The statements of PostgreSQL's batched validation (postgres-batched-validation.ts), hand-written beside the
 * query-builder unit of work (src/store/validation-unit.ts) they must match. Every one takes the requests of a
 * batch as parallel arrays, so a batch of any size costs the same round trips.
 */

/**
 * The advisory locks of a batch, the same keys as `store.serialize(trx, memberLockKey(…))`, taken in one stable
 * order so two batches (or a batch and a check-in creation) can never wait on each other in a cycle. The sort
 * runs before the lock calls: PostgreSQL evaluates volatile functions of the select list after ORDER BY.
 */
export const LOCK_MEMBERS = `
select pg_advisory_xact_lock(hashtextextended(k, 0))
from unnest($1::text[]) as k
order by k`;

/**
 * The whole batch in one statement, in a snapshot taken after the locks. `req` numbers the requests; `latest`
 * is each member's most recent check-in (greatest checked_in_at, then id), as latestCheckin reads it; `flipped`
 * validates the ones that are valid, re-checking `status = 'pending'` in the update itself; `recorded` writes
 * their transactions (payout and currency from the product, partner from the gym); `coded` upserts the custom
 * code of every request whose check-in exists. One row per request comes back, in request order.
 */
export const VALIDATE_BATCH = `
with req as (
  select r.ord, r.gym_id, r.platform_id, r.code, r.at
  from unnest($1::bigint[], $2::text[], $3::text[], $4::bigint[])
    with ordinality as r(gym_id, platform_id, code, at, ord)
), latest as (
  select req.ord, req.gym_id, req.platform_id, req.at, c.id, c.status, c.expires_at, c.product_id,
         p.description, p.payout_cents, p.currency, g.partner_id
  from req
  join lateral (
    select checkins.id, checkins.status, checkins.expires_at, checkins.product_id
    from checkins
    where checkins.gym_id = req.gym_id and checkins.platform_id = req.platform_id
    order by checkins.checked_in_at desc, checkins.id desc
    limit 1
  ) c on true
  join products p on p.id = c.product_id
  join gyms g on g.id = req.gym_id
), flipped as (
  update checkins set status = 'validated', validated_at = latest.at
  from latest
  where checkins.id = latest.id and checkins.status = 'pending'
    and latest.status = 'pending' and latest.expires_at > latest.at
  returning checkins.id
), recorded as (
  insert into transactions
    (checkin_id, partner_id, gym_id, product_id, platform_id, payout_cents, currency, validated_at)
  select latest.id, latest.partner_id, latest.gym_id, latest.product_id, latest.platform_id,
         latest.payout_cents, latest.currency, latest.at
  from latest join flipped on flipped.id = latest.id
  returning checkin_id
), coded as (
  insert into custom_codes (gym_id, platform_id, code, created_at, updated_at)
  select req.gym_id, req.platform_id, req.code, req.at, req.at
  from req join latest on latest.ord = req.ord
  where req.code is not null
  on conflict (gym_id, platform_id) do update set code = excluded.code, updated_at = excluded.updated_at
)
select req.ord, latest.status, latest.expires_at, latest.product_id, latest.description,
       exists (select 1 from recorded where recorded.checkin_id = latest.id) as validated
from req left join latest on latest.ord = req.ord
order by req.ord`;

/** One row of VALIDATE_BATCH: the latest check-in as it was read (nulls: none), and whether this batch paid it. */
export interface BatchRow {
  readonly status: CheckinStatus | null;
  readonly expires_at: number | null;
  readonly product_id: number | null;
  readonly description: string | null;
  readonly validated: boolean;
}

/**
 * The latest check-ins again, in a fresh snapshot: for the rare request whose check-in looked valid but changed
 * under the update (a cancel committed meanwhile), as validation-unit.ts re-reads it.
 */
export const LATEST_AGAIN = `
select c.status, c.expires_at
from unnest($1::bigint[], $2::text[]) with ordinality as r(gym_id, platform_id, ord)
left join lateral (
  select checkins.status, checkins.expires_at
  from checkins
  join products on products.id = checkins.product_id
  join gyms on gyms.id = checkins.gym_id
  where checkins.gym_id = r.gym_id and checkins.platform_id = r.platform_id
  order by checkins.checked_in_at desc, checkins.id desc
  limit 1
) c on true
order by r.ord`;

export interface LatestAgainRow {
  readonly status: CheckinStatus | null;
  readonly expires_at: number | null;
}
