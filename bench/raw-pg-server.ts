import pg from 'pg';
import {
  CHECKIN_TTL_MS,
  DAILY_LIMIT,
  DAILY_VISIT_LIMIT,
  DENY,
  NO_PRODUCT,
  REFUSALS,
  WRONG_GYM,
  createdCheckin,
  dayOf,
  envelope,
  send,
  serveValidate,
  success,
  type CachedKey,
} from './baseline-common.js';
import { newEventId } from '../src/domain/events.js';

/**
 * Baseline "raw-pg": node:http + node-postgres, one round trip per validation: a single statement classifies the
 * latest check-in and, when it is valid, flips it and records its transaction (`WITH upd AS (UPDATE … RETURNING)
 * INSERT … SELECT`), and appends its event to the log as gatehouse must (the same row, its JSON built by the
 * statement; its position, as gatehouse's, comes from the column's default). Keys and gyms' owners are cached as gatehouse caches them (5 s), so a request that hits the
 * cache costs that one statement. It creates check-ins too (`POST /admin/v1/checkins`), also in one round trip:
 * BEGIN, the member's advisory lock (so the daily limit holds under races, as in gatehouse), then in a snapshot taken
 * after it the product's gym, the member's validated visits that day and the insert of the check-in and its audit
 * row and its event, COMMIT. Usage: raw-pg-server <postgres url>
 */
const [url = ''] = process.argv.slice(2);
pg.types.setTypeParser(20, Number);
const pool = new pg.Pool({ connectionString: url, max: 10 });

const FIND_KEY = `
select k.id, k.partner_id, k.scope, array(select gym_id from api_key_gyms where key_id = k.id) as gyms
from api_keys k where key_hash = $1 and revoked_at is null and (expires_at is null or expires_at > $2)`;

const TTL_MS = 5_000;
const keys = new Map<string, { key: CachedKey; until: number }>();
const owners = new Map<number, { owner: number | undefined; until: number }>();

/** The key when it may open the gym, from the cache or the database; undefined for the same 403 whatever the reason. */
async function authorize(hash: string, gymId: number, now: number): Promise<CachedKey | undefined> {
  let entry = keys.get(hash);
  if (entry === undefined || entry.until <= now) {
    const { rows } = await pool.query<{ id: number; partner_id: number; scope: string; gyms: number[] }>(
      FIND_KEY,
      [hash, now],
    );
    const row = rows[0];
    if (row === undefined) return undefined;
    const key = {
      id: row.id,
      partnerId: row.partner_id,
      gyms: row.scope === 'all' ? null : new Set(row.gyms),
    };
    entry = { key, until: now + TTL_MS };
    keys.set(hash, entry);
  }
  let owner = owners.get(gymId);
  if (owner === undefined || owner.until <= now) {
    const { rows } = await pool.query<{ partner_id: number }>('select partner_id from gyms where id = $1', [
      gymId,
    ]);
    owner = { owner: rows[0]?.partner_id, until: now + TTL_MS };
    owners.set(gymId, owner);
  }
  const { key } = entry;
  if (owner.owner !== key.partnerId) return undefined;
  return key.gyms === null || key.gyms.has(gymId) ? key : undefined;
}

/** An instant (ms) as gatehouse writes it in an event: ISO 8601 in UTC, with milliseconds. */
const iso = (ms: string) =>
  `to_char(to_timestamp(${ms} / 1000.0) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const VALIDATE = `
with c as (
  select checkins.id, checkins.status, checkins.expires_at, checkins.product_id
  from checkins
  where checkins.gym_id = $1 and checkins.platform_id = $2
  order by checkins.checked_in_at desc, checkins.id desc limit 1
), upd as (
  update checkins set status = 'validated', validated_at = $3
  from c where checkins.id = c.id and checkins.status = 'pending' and c.status = 'pending' and c.expires_at > $3
  returning checkins.id, checkins.product_id, checkins.checked_in_at, checkins.expires_at
), ins as (
  insert into transactions (checkin_id, partner_id, gym_id, product_id, platform_id, payout_cents, currency, validated_at)
  select upd.id, $4, $1, upd.product_id, $2, p.payout_cents, p.currency, $3
  from upd join products p on p.id = upd.product_id
  returning id, checkin_id, payout_cents, currency
), ev as (
  insert into events (id, type, occurred_at, partner_id, gym_id, data)
  select $5, 'checkin.validated', $3, $4, $1, json_build_object(
    'checkin_id', upd.id, 'platform_id', $2::text, 'gym_id', $1::bigint,
    'product', json_build_object('id', p.id, 'description', p.description), 'status', 'validated',
    'checked_in_at', ${iso('upd.checked_in_at')}, 'expires_at', ${iso('upd.expires_at')},
    'transaction_id', ins.id, 'validated_at', ${iso('$3::bigint')}, 'payout_cents', ins.payout_cents,
    'currency', ins.currency)::text
  from ins join upd on upd.id = ins.checkin_id join products p on p.id = upd.product_id
)
select c.status, c.expires_at, c.product_id, p.description, (select count(*) from ins) as inserted
from (select 1) one left join c on true left join products p on p.id = c.product_id`;

interface Row {
  status: string | null;
  expires_at: number | null;
  product_id: number | null;
  description: string | null;
  inserted: number;
}

serveValidate(
  async (input, response) => {
    const now = Date.now();
    let row: Row | undefined;
    try {
      const key = await authorize(input.hash, input.gymId, now);
      if (key === undefined) return send(response, 403, DENY);
      row = (
        await pool.query<Row>(VALIDATE, [input.gymId, input.platformId, now, key.partnerId, newEventId()])
      ).rows[0];
    } catch {
      return send(response, 503, envelope('service.unavailable', 'service temporarily unavailable'));
    }
    if (row === undefined) return send(response, 503, envelope('service.unavailable', 'no answer'));
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
  },
  async (input, response) => {
    const now = Date.now();
    const day = dayOf(now);
    // Every value was checked to be digits: a simple-protocol query of several statements, one round trip.
    const { platformId, gymId, productId } = input;
    const text = `begin;
select pg_advisory_xact_lock(hashtextextended('member:${gymId}:${platformId}', 0));
with p as (
  select products.gym_id, products.description, gyms.partner_id
  from products join gyms on gyms.id = products.gym_id where products.id = ${productId}
),
v as (
  select count(*) as n from checkins
  where gym_id = ${gymId} and platform_id = '${platformId}' and validated_at >= ${day.start} and validated_at < ${day.end}
),
ins as (
  insert into checkins (platform_id, gym_id, product_id, status, checked_in_at, expires_at, created_at)
  select '${platformId}', ${gymId}, ${productId}, 'pending', ${now}, ${now + CHECKIN_TTL_MS}, ${now}
  from p, v where p.gym_id = ${gymId} and v.n < ${DAILY_VISIT_LIMIT}
  returning id
),
a as (
  insert into audit_log (actor, action, entity, entity_id, at)
  select 'operator', 'create', 'checkin', ins.id::text, ${now} from ins
),
e as (
  insert into events (id, type, occurred_at, partner_id, gym_id, data)
  select '${newEventId()}', 'checkin.created', ${now}, p.partner_id, ${gymId}, json_build_object(
    'checkin_id', ins.id, 'platform_id', '${platformId}', 'gym_id', ${gymId},
    'product', json_build_object('id', ${productId}, 'description', p.description), 'status', 'pending',
    'checked_in_at', '${new Date(now).toISOString()}', 'expires_at', '${new Date(now + CHECKIN_TTL_MS).toISOString()}')::text
  from ins, p
)
select (select gym_id from p) as gym_id, (select n from v) as visits, (select id from ins) as id;
commit;`;
    let row: { gym_id: number | null; visits: number; id: number | null } | undefined;
    let client: pg.PoolClient | undefined;
    try {
      client = await pool.connect();
      const results = (await client.query(text)) as unknown as pg.QueryResult[];
      row = results[2]?.rows[0] as typeof row;
      client.release();
    } catch {
      // A failed statement leaves the transaction open and aborted: the connection is dropped, not reused.
      client?.release(true);
      return send(response, 503, envelope('service.unavailable', 'service temporarily unavailable'));
    }
    if (row === undefined) return send(response, 503, envelope('service.unavailable', 'no answer'));
    if (row.gym_id === null) return send(response, 404, NO_PRODUCT);
    if (row.gym_id !== gymId) return send(response, 400, WRONG_GYM);
    if (row.id === null) return send(response, 409, DAILY_LIMIT);
    send(response, 201, createdCheckin(row.id, input, now));
  },
);
