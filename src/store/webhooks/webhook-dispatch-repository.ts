import type { Kysely } from 'kysely';
import type { LoggedEvent } from '../../domain/events.js';
import type { Database } from '../database.js';
import { listEvents } from '../events/event-repository.js';
import type { Dialect } from '../store.js';

type Db = Kysely<Database>;

/** A delivery the dispatcher makes of an event for one endpoint. */
export interface NewDelivery {
  readonly endpointId: number;
  readonly event: LoggedEvent;
  readonly memberKey: string;
}

/**
 * Inside a write transaction: the dispatcher's place in the log, locked on PostgreSQL so two processes never
 * fan out the same events (SQLite's single writer already serialises).
 */
export async function lockDispatchCursor(db: Db, dialect: Dialect): Promise<number> {
  const query = db.selectFrom('webhook_dispatch').select('position').where('id', '=', 1);
  const row = await (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirstOrThrow();
  return Number(row.position);
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

/** Writes pending deliveries, due now, in the caller's transaction. Returns the first new one's id. */
export async function insertDeliveries(
  db: Db,
  deliveries: readonly NewDelivery[],
  now: number,
): Promise<number | undefined> {
  let first: number | undefined;
  for (let start = 0; start < deliveries.length; start += 500) {
    const ids = await db
      .insertInto('webhook_deliveries')
      .values(
        deliveries.slice(start, start + 500).map(({ endpointId, event, memberKey }) => ({
          endpoint_id: endpointId,
          event_position: event.position,
          event_id: event.id,
          event_type: event.type,
          member_key: memberKey,
          status: 'pending',
          next_attempt_at: now,
          created_at: now,
        })),
      )
      .returning('id')
      .execute();
    for (const { id } of ids) first = Math.min(first ?? id, id);
  }
  return first;
}

/** Writes the deliveries and moves the cursor, in the caller's transaction. Returns the first new delivery's id. */
export async function recordDispatch(
  db: Db,
  deliveries: readonly NewDelivery[],
  position: number,
  now: number,
): Promise<number | undefined> {
  const first = await insertDeliveries(db, deliveries, now);
  await db.updateTable('webhook_dispatch').set({ position }).where('id', '=', 1).execute();
  return first;
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
