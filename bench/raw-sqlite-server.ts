import SqliteDatabase from 'better-sqlite3';
import {
  CHECKIN_TTL_MS,
  DAILY_LIMIT,
  DAILY_VISIT_LIMIT,
  DENY,
  NO_PRODUCT,
  REFUSALS,
  WRONG_GYM,
  createAuthCache,
  createdCheckin,
  createdEventData,
  validatedEventData,
  dayOf,
  envelope,
  send,
  serveValidate,
  success,
  type CreateInput,
} from './baseline-common.js';
import { newEventId } from '../src/domain/events.js';

/**
 * Baseline "raw-sqlite": node:http + better-sqlite3 prepared statements, one transaction per request, on
 * gatehouse's own schema, with the same checks and replies, keys and gyms' owners cached as gatehouse caches them.
 * It creates check-ins too (`POST /admin/v1/checkins`): the product's gym, the member's validated visits that day
 * against the daily limit, the check-in and its audit row, in one transaction. Each validation and creation also
 * appends its event to the log, as gatehouse must (the same row: a random id, the check-in's facts as JSON), in the
 * same transaction. Usage: raw-sqlite-server <db path> <normal|full>
 */
const [path = '', synchronous = 'normal'] = process.argv.slice(2);
const db = new SqliteDatabase(path, { timeout: 250 });
db.pragma('journal_mode = WAL');
db.pragma(`synchronous = ${synchronous === 'full' ? 'FULL' : 'NORMAL'}`);

const findKey = db.prepare(
  'select id, partner_id, scope from api_keys where key_hash = ? and revoked_at is null and (expires_at is null or expires_at > ?)',
);
const gymOwner = db.prepare('select partner_id from gyms where id = ?').pluck();
const scopeGyms = db.prepare('select gym_id from api_key_gyms where key_id = ?').pluck();
const auth = createAuthCache(
  (hash) => {
    const key = findKey.get(hash, Date.now()) as
      { id: number; partner_id: number; scope: string } | undefined;
    if (key === undefined) return undefined;
    const gyms = key.scope === 'all' ? null : new Set(scopeGyms.all(key.id) as number[]);
    return { id: key.id, partnerId: key.partner_id, gyms };
  },
  (gymId) => gymOwner.get(gymId) as number | undefined,
);
const latest = db.prepare(
  `select c.id, c.status, c.checked_in_at, c.expires_at, c.product_id, p.description, p.payout_cents, p.currency
   from checkins c join products p on p.id = c.product_id
   where c.gym_id = ? and c.platform_id = ? order by c.checked_in_at desc, c.id desc limit 1`,
);
const flip = db.prepare(
  "update checkins set status = 'validated', validated_at = ? where id = ? and status = 'pending'",
);
const record = db.prepare(
  `insert into transactions (checkin_id, partner_id, gym_id, product_id, platform_id, payout_cents, currency, validated_at)
   values (?, ?, ?, ?, ?, ?, ?, ?)`,
);

const appendEvent = db.prepare(
  'insert into events (id, type, occurred_at, partner_id, gym_id, data) values (?, ?, ?, ?, ?, ?)',
);

interface Latest {
  id: number;
  status: string;
  checked_in_at: number;
  expires_at: number;
  product_id: number;
  description: string;
  payout_cents: number;
  currency: string;
}

const validate = db.transaction((gymId: number, partnerId: number, platformId: string, now: number) => {
  const checkin = latest.get(gymId, platformId) as Latest | undefined;
  if (checkin === undefined) return { refusal: 'notfound' };
  if (checkin.status === 'validated') return { refusal: 'validated' };
  if (checkin.status === 'cancelled') return { refusal: 'cancelled' };
  if (now >= checkin.expires_at) return { refusal: 'expired' };
  if (flip.run(now, checkin.id).changes === 0) return { refusal: 'validated' };
  const { lastInsertRowid } = record.run(
    checkin.id,
    partnerId,
    gymId,
    checkin.product_id,
    platformId,
    checkin.payout_cents,
    checkin.currency,
    now,
  );
  const facts = {
    id: checkin.id,
    platformId,
    gymId,
    product: { id: checkin.product_id, description: checkin.description },
    checkedInAt: checkin.checked_in_at,
    expiresAt: checkin.expires_at,
  };
  const data = validatedEventData(
    facts,
    Number(lastInsertRowid),
    now,
    checkin.payout_cents,
    checkin.currency,
  );
  appendEvent.run(newEventId(), 'checkin.validated', now, partnerId, gymId, data);
  return { checkin };
});

const productOf = db.prepare(
  'select p.gym_id, p.description, g.partner_id from products p join gyms g on g.id = p.gym_id where p.id = ?',
);
const visitsThatDay = db
  .prepare(
    'select count(*) from checkins where gym_id = ? and platform_id = ? and validated_at >= ? and validated_at < ?',
  )
  .pluck();
const insertCheckin = db.prepare(
  `insert into checkins (platform_id, gym_id, product_id, status, checked_in_at, expires_at, created_at)
   values (?, ?, ?, 'pending', ?, ?, ?)`,
);
const audit = db.prepare(
  "insert into audit_log (actor, action, entity, entity_id, at) values ('operator', 'create', 'checkin', ?, ?)",
);

const create = db.transaction((input: CreateInput, now: number) => {
  const product = productOf.get(input.productId) as
    { gym_id: number; description: string; partner_id: number } | undefined;
  if (product === undefined) return { refusal: [404, NO_PRODUCT] as const };
  if (product.gym_id !== input.gymId) return { refusal: [400, WRONG_GYM] as const };
  const day = dayOf(now);
  if ((visitsThatDay.get(input.gymId, input.platformId, day.start, day.end) as number) >= DAILY_VISIT_LIMIT) {
    return { refusal: [409, DAILY_LIMIT] as const };
  }
  const { lastInsertRowid } = insertCheckin.run(
    input.platformId,
    input.gymId,
    input.productId,
    now,
    now + CHECKIN_TTL_MS,
    now,
  );
  const id = Number(lastInsertRowid);
  audit.run(String(id), now);
  const data = createdEventData({
    id,
    platformId: input.platformId,
    gymId: input.gymId,
    product: { id: input.productId, description: product.description },
    checkedInAt: now,
    expiresAt: now + CHECKIN_TTL_MS,
  });
  appendEvent.run(newEventId(), 'checkin.created', now, product.partner_id, input.gymId, data);
  return { id };
});

serveValidate(
  (input, response) => {
    const now = Date.now();
    const key = auth.authorize(input.hash, input.gymId, now);
    if (key === undefined) return send(response, 403, DENY);
    try {
      const outcome = validate.immediate(input.gymId, key.partnerId, input.platformId, now);
      if (outcome.checkin === undefined) {
        const [status, k, message] = REFUSALS[outcome.refusal ?? 'notfound'] ?? [500, 'x', 'x'];
        return send(response, status, envelope(k, message));
      }
      const { product_id: productId, description } = outcome.checkin;
      send(response, 200, success(input.platformId, input.gymId, productId, description, now));
    } catch {
      send(response, 503, envelope('service.unavailable', 'service temporarily unavailable'));
    }
  },
  (input, response) => {
    const now = Date.now();
    try {
      const outcome = create.immediate(input, now);
      if (outcome.refusal !== undefined) return send(response, outcome.refusal[0], outcome.refusal[1]);
      send(response, 201, createdCheckin(outcome.id, input, now));
    } catch {
      send(response, 503, envelope('service.unavailable', 'service temporarily unavailable'));
    }
  },
);
