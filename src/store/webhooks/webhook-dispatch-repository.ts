import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { LoggedEvent } from '../../domain/events.js';
import type { Database } from '../database.js';
import { jsonRows, type JsonColumn } from '../json-rows.js';
import { listEvents } from '../events/event-repository.js';
import type { Dialect } from '../store.js';

type Db = Kysely<Database>;

/** A delivery the dispatcher makes of an event for one endpoint. */
export interface NewDelivery {
  readonly endpointId: number;
  readonly event: LoggedEvent;
  readonly memberKey: string;
  /** Claimed as it is written, by the process that writes it, until then (see webhook-claim-repository.ts). */
  readonly claimedUntil?: number;
}

/** A delivery as written: its id, and the endpoint and event it is of (one delivery per event and endpoint). */
export interface WrittenDelivery {
  readonly id: number;
  readonly endpointId: number;
  readonly eventPosition: number;
}

/**
 * Inside a write transaction: the dispatcher's row, read with what `query` selects, locked on PostgreSQL so two
 * processes never fan out the same events (SQLite's single writer already serialises).
 */
function lockedCursorRow<O>(query: SelectQueryBuilder<Database, 'webhook_dispatch', O>, dialect: Dialect) {
  const row = query.where('id', '=', 1);
  return (dialect === 'postgres' ? row.forUpdate() : row).executeTakeFirstOrThrow();
}

/** Inside a write transaction: the dispatcher's place in the log, locked (see `lockedCursorRow`). */
export async function lockDispatchCursor(db: Db, dialect: Dialect): Promise<number> {
  const row = await lockedCursorRow(db.selectFrom('webhook_dispatch').select('position'), dialect);
  return Number(row.position);
}

/**
 * Inside a write transaction, in one read: the dispatcher's place in the log, locked as `lockDispatchCursor` locks
 * it, and where the earliest endpoint starts (its `fromPosition`; none without endpoints), since events before it
 * are no endpoint's.
 */
export async function lockDispatchStart(
  db: Db,
  dialect: Dialect,
): Promise<{ readonly cursor: number; readonly earliest: number | undefined }> {
  const row = await lockedCursorRow(
    db.selectFrom('webhook_dispatch').select((eb) => [
      'position',
      eb
        .selectFrom('webhook_endpoints')
        .select((endpoints) => endpoints.fn.min('from_position').as('first'))
        .as('earliest'),
    ]),
    dialect,
  );
  return {
    cursor: Number(row.position),
    earliest: row.earliest === null ? undefined : Number(row.earliest),
  };
}

/**
 * Moves the cursor up to `position` (never back), in the caller's transaction: the first endpoint's creation
 * does, since the dispatcher leaves the cursor alone while nobody listens.
 */
export async function advanceDispatchCursor(db: Db, position: number): Promise<void> {
  await db
    .updateTable('webhook_dispatch')
    .set({ position })
    .where('id', '=', 1)
    .where('position', '<', position)
    .execute();
}

/**
 * The next events after the cursor, in commit order: on PostgreSQL those below the horizon (src/store/commit-horizon.ts),
 * without waiting for newer ones — the dispatcher polls, and holds its cursor's lock meanwhile.
 */
export async function eventsAfter(db: Db, position: number, limit: number): Promise<LoggedEvent[]> {
  return (await listEvents(db, position, limit, false)).slice(0, limit);
}

const NEW_DELIVERY: readonly JsonColumn[] = [
  ['endpoint_id', 'bigint'],
  ['event_position', 'bigint'],
  ['event_id', 'text'],
  ['event_type', 'text'],
  ['member_key', 'text'],
  ['next_attempt_at', 'bigint'],
  ['claimed_until', 'bigint'],
];

/** Writes pending deliveries, due now, in the caller's transaction, in order. */
export async function insertDeliveries(
  db: Db,
  deliveries: readonly NewDelivery[],
  now: number,
): Promise<WrittenDelivery[]> {
  if (deliveries.length === 0) return [];
  const values = jsonRows(
    db,
    deliveries.map(({ endpointId, event, memberKey, claimedUntil }) => [
      endpointId,
      event.position,
      event.id,
      event.type,
      memberKey,
      now,
      claimedUntil ?? null,
    ]),
    NEW_DELIVERY,
  );
  const { rows } = await sql<{
    id: number | string;
    endpoint_id: number | string;
    event_position: number | string;
  }>`
    insert into webhook_deliveries
      (endpoint_id, event_position, event_id, event_type, member_key, next_attempt_at, claimed_until, status,
        created_at)
    select v.*, 'pending', v.next_attempt_at from ${values} as v
    returning id, endpoint_id, event_position`.execute(db);
  return rows.map((row) => ({
    id: Number(row.id),
    endpointId: Number(row.endpoint_id),
    eventPosition: Number(row.event_position),
  }));
}

/** Writes the deliveries and moves the cursor, in the caller's transaction. */
export async function recordDispatch(
  db: Db,
  deliveries: readonly NewDelivery[],
  position: number,
  now: number,
): Promise<WrittenDelivery[]> {
  const written = await insertDeliveries(db, deliveries, now);
  await db.updateTable('webhook_dispatch').set({ position }).where('id', '=', 1).execute();
  return written;
}

/**
 * Where an endpoint's deliveries stop in the log: the event of its newest delivery, or its creation's place if it has
 * none. Every event after it that the endpoint wants, up to the dispatcher's cursor, is one it missed while disabled.
 */
export async function lastDispatchedTo(db: Db, endpointId: number): Promise<number> {
  const newest = await db
    .selectFrom('webhook_deliveries')
    .select('event_position')
    .where('endpoint_id', '=', endpointId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const endpoint = await db
    .selectFrom('webhook_endpoints')
    .select('from_position')
    .where('id', '=', endpointId)
    .executeTakeFirstOrThrow();
  return Math.max(Number(endpoint.from_position), Number(newest?.event_position ?? 0));
}
