import type { WebhookFormat } from '../../domain/webhooks/endpoint.js';
import { sql, type Kysely } from 'kysely';
import type { DeliveryStatus } from '../../domain/webhooks/delivery.js';
import { groupedBy } from '../../domain/grouped.js';
import type { Database } from '../database.js';
import { jsonRows, type JsonColumn } from '../json-rows.js';
import { PENDING } from './pending-status.js';

type Db = Kysely<Database>;

/** A delivery a process has claimed: its attempt is this process's alone until `claimedUntil`. */
export interface ClaimedDelivery {
  readonly id: number;
  readonly endpointId: number;
  readonly partnerId: number;
  readonly url: string;
  readonly format: WebhookFormat;
  readonly timeoutMs: number;
  readonly eventPosition: number;
  readonly eventId: string;
  readonly roundFailures: number;
  readonly failingSince: number | null;
  readonly claimedUntil: number;
}

/**
 * Margin past an endpoint's timeout before a claim of a crashed process may be taken over. A process that records
 * later than that finds its claim taken and records nothing: the delivery may then be sent twice, never lost.
 */
const CLAIM_MARGIN_MS = 5_000;

/** Until when a claim made now holds: the endpoint's timeout and the margin. */
export function leaseUntil(now: number, timeoutMs: number): number {
  return now + timeoutMs + CLAIM_MARGIN_MS;
}

/** A due delivery a claim may take, before it is taken. */
export type DueDelivery = Omit<ClaimedDelivery, 'claimedUntil'>;

/**
 * The first `limit` due deliveries of enabled endpoints, in the order they fell due, leaving out the `busy`
 * endpoints and partners (those at their cap of attempts in flight) and every delivery that waits for an earlier one
 * of the same member·gym to the same endpoint. Read through the index of due deliveries, in order, so a claim costs
 * the rows it reads, not the backlog: a busy endpoint's rows are passed over, and the fair share
 * (src/domain/webhooks/fair-share.ts) chooses among the rest. Nothing is claimed yet: see `claimDeliveries`.
 *
 * The deliveries are read alone, the endpoints they may not come from as a set the database builds once, and the
 * chosen deliveries' endpoints afterwards: joined in one read, PostgreSQL (whose row estimates for a queue that
 * fills and empties are rarely current) walked every endpoint's pending deliveries and sorted them all, the whole
 * backlog read for each claim of 128.
 */
export async function dueDeliveries(
  db: Db,
  options: {
    now: number;
    limit: number;
    busy: { readonly endpoints: readonly number[]; readonly partners: readonly number[] };
  },
): Promise<DueDelivery[]> {
  const { now, limit, busy } = options;
  let due = db
    .selectFrom('webhook_deliveries as d')
    .select(['d.id', 'd.endpoint_id', 'd.event_position', 'd.event_id', 'd.round_failures'])
    .where('d.status', '=', PENDING)
    .where('d.next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('d.claimed_until', 'is', null), eb('d.claimed_until', '<', now)]))
    .where('d.endpoint_id', 'not in', (eb) =>
      eb
        .selectFrom('webhook_endpoints as e')
        .select('e.id')
        .where((ee) =>
          ee.or([
            ee('e.status', '<>', 'enabled'),
            ...(busy.partners.length > 0 ? [ee('e.partner_id', 'in', busy.partners)] : []),
          ]),
        ),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('webhook_deliveries as p')
            .select('p.id')
            .whereRef('p.endpoint_id', '=', 'd.endpoint_id')
            .whereRef('p.member_key', '=', 'd.member_key')
            .where('p.status', '=', PENDING)
            .whereRef('p.event_position', '<', 'd.event_position'),
        ),
      ),
    );
  if (busy.endpoints.length > 0) due = due.where('d.endpoint_id', 'not in', busy.endpoints);
  const rows = await due.orderBy('d.next_attempt_at').orderBy('d.id').limit(limit).execute();
  if (rows.length === 0) return [];
  const endpoints = new Map(
    (
      await db
        .selectFrom('webhook_endpoints')
        .select(['id', 'partner_id', 'url', 'format', 'timeout_ms', 'failing_since'])
        .where('id', 'in', [...new Set(rows.map((row) => row.endpoint_id))])
        .where('status', '=', 'enabled')
        .execute()
    ).map((endpoint) => [endpoint.id, endpoint]),
  );
  return rows.flatMap((row) => {
    // An endpoint disabled or removed since the first read: its deliveries wait for another claim.
    const endpoint = endpoints.get(row.endpoint_id);
    return endpoint === undefined
      ? []
      : [
          {
            id: row.id,
            endpointId: row.endpoint_id,
            partnerId: endpoint.partner_id,
            url: endpoint.url,
            format: endpoint.format as WebhookFormat,
            timeoutMs: endpoint.timeout_ms,
            eventPosition: Number(row.event_position),
            eventId: row.event_id,
            roundFailures: row.round_failures,
            failingSince: endpoint.failing_since === null ? null : Number(endpoint.failing_since),
          },
        ];
  });
}

/**
 * Claims the given due deliveries: each becomes this process's until its lease ends (the endpoint's timeout and a
 * margin). A delivery another process claimed meanwhile is left out: the guarded update takes only rows still
 * unclaimed (on PostgreSQL a concurrent claim of the same row waits for the first and then finds it taken), so
 * processes claim disjoint sets.
 */
export async function claimDeliveries(
  db: Db,
  due: readonly DueDelivery[],
  now: number,
): Promise<ClaimedDelivery[]> {
  // One statement per lease length (one per endpoint timeout), not one per row.
  const byLease = groupedBy(due, (delivery) => leaseUntil(now, delivery.timeoutMs));
  const claimed: ClaimedDelivery[] = [];
  for (const [claimedUntil, deliveries] of byLease) {
    const taken = await db
      .updateTable('webhook_deliveries')
      .set({ claimed_until: claimedUntil })
      .where(
        sql<boolean>`id in (select v.id from ${jsonRows(
          db,
          deliveries.map((delivery) => [delivery.id]),
          ID,
        )} as v)`,
      )
      .where('status', '=', PENDING)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
      .returning('id')
      .execute();
    const ids = new Set(taken.map((row) => row.id));
    for (const delivery of deliveries) if (ids.has(delivery.id)) claimed.push({ ...delivery, claimedUntil });
  }
  return claimed;
}

const MEMBER_OF_ENDPOINT: readonly JsonColumn[] = [
  ['endpoint_id', 'bigint'],
  ['member_key', 'text'],
];

/**
 * Of these endpoint·member·gym pairs, those with a delivery still pending (claimed or not): a new delivery of the
 * pair waits for it, so one member·gym's deliveries to one endpoint go out in event order. One probe of the index
 * by member per pair.
 */
export async function pendingMembers(
  db: Db,
  pairs: readonly (readonly [endpointId: number, memberKey: string])[],
): Promise<{ endpointId: number; memberKey: string }[]> {
  if (pairs.length === 0) return [];
  const { rows } = await sql<{ endpoint_id: number | string; member_key: string }>`
    select v.endpoint_id, v.member_key from ${jsonRows(db, pairs, MEMBER_OF_ENDPOINT)} as v
    where exists (select 1 from webhook_deliveries p
      where p.endpoint_id = v.endpoint_id and p.member_key = v.member_key and p.status = ${PENDING})`.execute(
    db,
  );
  return rows.map((row) => ({ endpointId: Number(row.endpoint_id), memberKey: row.member_key }));
}

/**
 * What a delivery round would find, in one cheap read before its write transaction: events after the dispatcher's
 * place (past the earliest endpoint's creation; none without endpoints), and due deliveries nobody holds. "Any event
 * after it" is asked as "the newest event is after it": one step down the position index, where an `exists` over
 * `position > …` was planned by PostgreSQL as a scan of the whole log (its estimate of the rows found was a third).
 * "Any due delivery" walks the index of due deliveries in order: as an `exists`, PostgreSQL scanned the whole table
 * whenever its statistics said many were pending, though every one was claimed (in flight).
 */
export function deliveryWorkQuery(now: number) {
  return sql<{ events: unknown; due: unknown }>`
    select
      (select max(position) from events) > (
        select case when w.position > e.first then w.position else e.first end
        from webhook_dispatch w, (select min(from_position) as first from webhook_endpoints) e
        where w.id = 1) as events,
      (select 1 from webhook_deliveries where status = ${PENDING} and next_attempt_at <= ${now}
        and (claimed_until is null or claimed_until < ${now})
        order by next_attempt_at limit 1) is not null as due`;
}

export async function deliveryWork(db: Db, now: number): Promise<{ events: boolean; due: boolean }> {
  const { rows } = await deliveryWorkQuery(now).execute(db);
  const [row] = rows;
  return { events: Boolean(Number(row?.events ?? 0)), due: Boolean(Number(row?.due ?? 0)) };
}

export interface AttemptRecord {
  readonly status: DeliveryStatus;
  readonly roundFailures: number;
  readonly nextAttemptAt: number;
  readonly lastStatusCode: number | null;
  readonly lastError: string | null;
  readonly deliveredAt: number | null;
}

/** The claimed delivery's row, while the claim is still this process's. */
function whileClaimed(db: Db, claim: Pick<ClaimedDelivery, 'id' | 'claimedUntil'>) {
  return db
    .updateTable('webhook_deliveries')
    .where('id', '=', claim.id)
    .where('claimed_until', '=', claim.claimedUntil);
}

/** What the delivery log keeps of one attempt beyond its outcome (the status or error is the record's). */
export interface AttemptDetail {
  readonly durationMs: number;
  /** The body sent, when it is not the delivery's own (null: rebuilt from the event, or none was sent). */
  readonly requestBody: string | null;
  /** The start of the receiver's answer, made safe; null when there was no answer. */
  readonly responseExcerpt: string | null;
}

/** One attempt to record: the claim it was made under, what it leaves the delivery, and what the log keeps of it. */
export interface AttemptToRecord {
  readonly claim: Pick<ClaimedDelivery, 'id' | 'claimedUntil'>;
  readonly record: AttemptRecord;
  readonly at: number;
  readonly detail: AttemptDetail;
}

const ID: readonly JsonColumn[] = [['id', 'bigint']];

const RECORDED: readonly JsonColumn[] = [
  ['id', 'bigint'],
  ['claimed_until', 'bigint'],
  ['status', 'text'],
  ['round_failures', 'integer'],
  ['next_attempt_at', 'bigint'],
  ['last_status_code', 'integer'],
  ['last_error', 'text'],
  ['attempted_at', 'bigint'],
  ['delivered_at', 'bigint'],
];

const KEPT: readonly JsonColumn[] = [
  ['delivery_id', 'bigint'],
  ['attempt', 'integer'],
  ['attempted_at', 'bigint'],
  ['duration_ms', 'integer'],
  ['status_code', 'integer'],
  ['error', 'text'],
  ['request_body', 'text'],
  ['response_excerpt', 'text'],
];

/**
 * Records attempts, each only while its claim is still this process's (a claim taken over after its lease ran out
 * is the other process's to record), in two statements: an update joined to the list of their values, and the
 * insert of the recorded ones into the attempts kept (one row per attempt, in the same transaction). Returns the ids
 * of the deliveries recorded.
 */
export async function recordAttempts(db: Db, attempts: readonly AttemptToRecord[]): Promise<Set<number>> {
  if (attempts.length === 0) return new Set();
  const values = jsonRows(
    db,
    attempts.map(({ claim, record, at }) => [
      claim.id,
      claim.claimedUntil,
      record.status,
      record.roundFailures,
      record.nextAttemptAt,
      record.lastStatusCode,
      record.lastError,
      at,
      record.deliveredAt,
    ]),
    RECORDED,
  );
  const { rows } = await sql<{ id: number | string; attempts: number | string }>`
    update webhook_deliveries set status = v.status, attempts = attempts + 1, round_failures = v.round_failures,
      next_attempt_at = v.next_attempt_at, last_status_code = v.last_status_code, last_error = v.last_error,
      last_attempt_at = v.attempted_at, delivered_at = v.delivered_at, claimed_until = null
    from ${values} as v
    where webhook_deliveries.id = v.id and webhook_deliveries.claimed_until = v.claimed_until
    returning webhook_deliveries.id, webhook_deliveries.attempts`.execute(db);
  await keepAttempts(db, attempts, rows);
  return new Set(rows.map((row) => Number(row.id)));
}

/** The recorded attempts' rows in the log of attempts, numbered by the delivery's count after each. */
async function keepAttempts(
  db: Db,
  attempts: readonly AttemptToRecord[],
  recorded: readonly { id: number | string; attempts: number | string }[],
): Promise<void> {
  const counts = new Map(recorded.map((row) => [Number(row.id), Number(row.attempts)]));
  const rows = attempts.flatMap(({ claim, record, at, detail }) => {
    const attempt = counts.get(claim.id);
    return attempt === undefined
      ? []
      : [
          [
            claim.id,
            attempt,
            at,
            detail.durationMs,
            record.lastStatusCode,
            record.lastError,
            detail.requestBody,
            detail.responseExcerpt,
          ],
        ];
  });
  if (rows.length === 0) return;
  await sql`insert into webhook_attempts (${sql.join(KEPT.map(([name]) => sql.ref(name)))})
    select * from ${jsonRows(db, rows, KEPT)} as v`.execute(db);
}

/** Gives a claim back without an attempt counted (the process is stopping): it is due again at once. */
export async function releaseClaim(
  db: Db,
  claim: Pick<ClaimedDelivery, 'id' | 'claimedUntil'>,
): Promise<void> {
  await whileClaimed(db, claim).set({ claimed_until: null }).execute();
}

/** After attempts: a success clears the endpoint's run of failures (only rows that had one are written). */
export async function noteEndpointsHealthy(db: Db, endpointIds: readonly number[]): Promise<void> {
  if (endpointIds.length === 0) return;
  await db
    .updateTable('webhook_endpoints')
    .set({ failing_since: null })
    .where('id', 'in', endpointIds)
    .where('failing_since', 'is not', null)
    .execute();
}

/** After a failed attempt: it starts the endpoint's run of failures if none is running. */
export async function noteEndpointFailing(db: Db, endpointId: number, now: number): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set((eb) => ({ failing_since: eb.fn.coalesce('failing_since', sql.lit(now)) }))
    .where('id', '=', endpointId)
    .execute();
}
