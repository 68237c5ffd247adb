import type { Kysely } from 'kysely';
import type { EventType, LoggedEvent, NewEvent } from '../domain/events.js';
import { newEventId } from '../domain/events.js';
import type { Database } from './database.js';

type Db = Kysely<Database>;

/** Appends events in order; on PostgreSQL the caller marks its transaction so they are numbered at commit (src/store/commit-order.ts). */
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

/** The log in position order, up to limit + 1 events (the extra one tells whether there is more). */
export async function listEvents(db: Db, filter: EventFilter, limit: number): Promise<LoggedEvent[]> {
  let query = db.selectFrom('events').selectAll().where('position', '>', filter.after);
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
