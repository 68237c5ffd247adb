import type { Kysely } from 'kysely';
import type { EventType, LoggedEvent, NewEvent } from '../domain/events.js';
import { newEventId } from '../domain/events.js';
import { isPostgres } from './column-types.js';
import { horizonPosition, readHorizon } from './commit-horizon.js';
import type { Database } from './database.js';

type Db = Kysely<Database>;

/** Appends events; their positions come from the row id (SQLite) or the transaction id (src/store/commit-horizon.ts). */
export async function appendEvents(db: Db, events: readonly NewEvent[]): Promise<void> {
  if (events.length === 0) return;
  await db
    .insertInto('events')
    .values(
      events.map((event) => ({
        id: newEventId(),
        type: event.type,
        occurred_at: event.occurredAt,
        partner_id: event.partnerId,
        gym_id: event.gymId,
        data: JSON.stringify(event.data),
      })),
    )
    .execute();
}

export interface EventFilter {
  /** Only events after this position. */
  readonly after: number;
  readonly type?: EventType;
  readonly partnerId?: number;
  readonly gymId?: number;
}

/**
 * The log in position order, up to limit + 1 events (the extra one tells whether there is more). On PostgreSQL only
 * the events below the horizon, where no event can appear later (src/store/commit-horizon.ts).
 */
export async function listEvents(
  db: Db,
  filter: EventFilter,
  limit: number,
  /** false for a reader that polls anyway (webhook dispatch): it never waits for a client's own change. */
  readYourWrites = true,
): Promise<LoggedEvent[]> {
  let query = db.selectFrom('events').selectAll().where('position', '>', filter.after);
  if (isPostgres(db)) {
    query = query.where('position', '<', horizonPosition(await readHorizon(db, readYourWrites)));
  }
  if (filter.type !== undefined) query = query.where('type', '=', filter.type);
  if (filter.partnerId !== undefined) query = query.where('partner_id', '=', filter.partnerId);
  if (filter.gymId !== undefined) query = query.where('gym_id', '=', filter.gymId);
  const rows = await query
    .orderBy('position')
    .limit(limit + 1)
    .execute();
  return rows.map((row) => ({
    position: row.position,
    id: row.id,
    type: row.type as EventType,
    occurredAt: row.occurred_at,
    partnerId: row.partner_id,
    gymId: row.gym_id,
    data: row.data === null ? null : (JSON.parse(row.data) as Record<string, unknown>),
  }));
}

/**
 * Where "everything committed so far" ends (0 for an empty log): the greatest position a reader may pass — on
 * PostgreSQL the greatest below the horizon, since an older transaction may still commit an event before a greater
 * one (src/store/commit-horizon.ts). A reader that starts here misses nothing that commits later.
 */
export async function latestPosition(db: Db): Promise<number> {
  let query = db.selectFrom('events').select((eb) => eb.fn.max('position').as('last'));
  if (isPostgres(db)) {
    query = query.where('position', '<', horizonPosition(await readHorizon(db, false)));
  }
  const row = await query.executeTakeFirst();
  return Number(row?.last ?? 0);
}
