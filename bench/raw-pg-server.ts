import pg from 'pg';
import { DENY, REFUSALS, envelope, send, serveValidate, success } from './baseline-common.js';

/**
 * Baseline "raw-pg": node:http + node-postgres, one round trip per validation: a single statement authenticates
 * the key, checks the gym's scope, classifies the latest check-in and, when it is valid, flips it and records its
 * transaction (`WITH upd AS (UPDATE … RETURNING) INSERT … SELECT`). Usage: raw-pg-server <postgres url>
 */
const [url = ''] = process.argv.slice(2);
pg.types.setTypeParser(20, Number);
const pool = new pg.Pool({ connectionString: url, max: 10 });

const VALIDATE = `
with k as (
  select id, partner_id, scope from api_keys
  where key_hash = $1 and revoked_at is null and (expires_at is null or expires_at > $4)
), g as (
  select gyms.id, gyms.partner_id from gyms join k on k.partner_id = gyms.partner_id
  where gyms.id = $2 and (k.scope = 'all' or exists (select 1 from api_key_gyms where key_id = k.id and gym_id = $2))
), c as (
  select checkins.id, checkins.status, checkins.expires_at, checkins.product_id
  from checkins join g on g.id = checkins.gym_id
  where checkins.gym_id = $2 and checkins.platform_id = $3
  order by checkins.checked_in_at desc, checkins.id desc limit 1
), upd as (
  update checkins set status = 'validated', validated_at = $4
  from c where checkins.id = c.id and checkins.status = 'pending' and c.status = 'pending' and c.expires_at > $4
  returning checkins.id, checkins.product_id
), ins as (
  insert into transactions (checkin_id, partner_id, gym_id, product_id, platform_id, payout_cents, currency, validated_at)
  select upd.id, g.partner_id, $2, upd.product_id, $3, p.payout_cents, p.currency, $4
  from upd join g on true join products p on p.id = upd.product_id
  returning checkin_id
)
select (select count(*) from g) as authorized, c.status, c.expires_at, c.product_id, p.description,
       (select count(*) from ins) as inserted
from (select 1) one left join c on true left join products p on p.id = c.product_id`;

interface Row {
  authorized: number;
  status: string | null;
  expires_at: number | null;
  product_id: number | null;
  description: string | null;
  inserted: number;
}

serveValidate(async (input, response) => {
  const now = Date.now();
  let row: Row | undefined;
  try {
    row = (await pool.query<Row>(VALIDATE, [input.hash, input.gymId, input.platformId, now])).rows[0];
  } catch {
    return send(response, 503, envelope('service.unavailable', 'service temporarily unavailable'));
  }
  if (row === undefined || row.authorized === 0) return send(response, 403, DENY);
  if (row.inserted === 1 && row.product_id !== null) {
    return send(
      response,
      200,
      success(input.platformId, input.gymId, row.product_id, row.description ?? '', now),
    );
  }
  const refusal =
    row.status === null
      ? 'notfound'
      : row.status === 'cancelled'
        ? 'cancelled'
        : row.status === 'pending' && (row.expires_at ?? 0) <= now
          ? 'expired'
          : 'validated';
  const [status, key, message] = REFUSALS[refusal] ?? [500, 'x', 'x'];
  send(response, status, envelope(key, message));
});
