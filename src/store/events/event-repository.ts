import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import type { EventType, LoggedEvent, NewEvent } from '../../domain/events.js';
import { dataAsRead, EVENT_SCAN } from '../../domain/events.js';
import { eventRow } from '../changes/rows.js';
import { isPostgres } from '../column-types.js';
import { horizonPosition, readHorizon } from '../commit-horizon.js';
import type { Database, EventsTable } from '../database.js';

type Db = Kysely<Database>;

/** Appends events; their positions come from the row id (SQLite) or the transaction id (src/store/commit-horizon.ts). */
export async function appendEvents(db: Db, events: readonly NewEvent[]): Promise<void> {
  if (events.length === 0) return;
  await db.insertInto('events').values(events.map(eventRow)).execute();
}

export interface EventFilter {
  /** Only events after this position. */
  readonly after: number;
  readonly type?: EventType;
  readonly partnerId?: number;
  readonly gymId?: number;
}

export interface EventScan {
  /** The matching events in position order, up to limit + 1 (the extra one tells whether there is more). */
  readonly events: LoggedEvent[];
  /**
   * The last position the read looked at, matching or not (undefined when it found no event at all). Nothing
   * between `after` and here matches but `events`.
   */
  readonly readTo: number | undefined;
  /** The read stopped after EVENT_SCAN events, short of the log's end: more may match after `readTo`. */
  readonly cut: boolean;
}

/**
 * The log in position order, up to limit + 1 matching events. On PostgreSQL only the events below the horizon, where
 * no event can appear later (src/store/commit-horizon.ts). The log has no index but its order: a filtered read
 * (a type, a partner, a gym) looks through at most `scan` events after `after` and says where it stopped, so a
 * reader resumes there and never misses an event, and appending an event (every change does) maintains no index
 * for the filters.
 */
export async function scanEvents(
  db: Db,
  filter: EventFilter,
  limit: number,
  /** false for a reader that polls anyway (webhook dispatch): it never waits for a client's own change. */
  readYourWrites = true,
  scan = EVENT_SCAN,
): Promise<EventScan> {
  const below = isPostgres(db) ? horizonPosition(await readHorizon(db, readYourWrites)) : undefined;
  let window = db.selectFrom('events').where('position', '>', filter.after);
  if (below !== undefined) window = window.where('position', '<', below);
  const filtered = filter.type !== undefined || filter.partnerId !== undefined || filter.gymId !== undefined;
  if (!filtered) {
    const events = (
      await window
        .selectAll()
        .select(partnerSandbox)
        .orderBy('position')
        .limit(limit + 1)
        .execute()
    ).map(toEvent);
    return { events, readTo: events.at(-1)?.position, cut: false };
  }
  const looked = window
    .select(['position', 'type', 'partner_id', 'gym_id'])
    .orderBy('position')
    .limit(scan)
    .as('looked');
  // The window's end first, and the matches read up to it: an event appended in between (SQLite's log has no
  // horizon) lies beyond it, so `readTo` never passes an event the read did not return.
  const extent = await db
    .selectFrom(looked)
    .select((eb) => [eb.fn.countAll().as('count'), eb.fn.max('looked.position').as('last')])
    .executeTakeFirst();
  if (extent?.last == null) return { events: [], readTo: undefined, cut: false };
  const last = Number(extent.last);
  let matching = db.selectFrom(looked).select('looked.position').where('looked.position', '<=', last);
  if (filter.type !== undefined) matching = matching.where('looked.type', '=', filter.type);
  if (filter.partnerId !== undefined) matching = matching.where('looked.partner_id', '=', filter.partnerId);
  if (filter.gymId !== undefined) matching = matching.where('looked.gym_id', '=', filter.gymId);
  const rows = await db
    .selectFrom('events')
    .selectAll()
    .select(partnerSandbox)
    .where('position', 'in', matching.orderBy('looked.position').limit(limit + 1))
    .orderBy('position')
    .execute();
  const events = rows.map(toEvent);
  if (events.length > limit) return { events, readTo: events.at(-1)?.position, cut: false };
  return { events, readTo: last, cut: Number(extent.count) >= scan };
}

/** The log in position order, up to limit + 1 events of every kind (the readers that take them all). */
export async function listEvents(
  db: Db,
  after: number,
  limit: number,
  readYourWrites = true,
): Promise<LoggedEvent[]> {
  return (await scanEvents(db, { after }, limit, readYourWrites)).events;
}

/** The event's partner's sandbox flag, beside its row: what dataAsRead marks the event by. */
function partnerSandbox(eb: ExpressionBuilder<Database, 'events'>) {
  return eb
    .selectFrom('partners')
    .select('partners.sandbox')
    .whereRef('partners.id', '=', 'events.partner_id')
    .as('partner_sandbox');
}

type EventRow = Selectable<EventsTable> & { readonly partner_sandbox: number | null };

function toEvent(row: EventRow): LoggedEvent {
  const data = row.data === null ? null : (JSON.parse(row.data) as Record<string, unknown>);
  return {
    position: row.position,
    id: row.id,
    type: row.type as EventType,
    occurredAt: row.occurred_at,
    partnerId: row.partner_id,
    gymId: row.gym_id,
    data: dataAsRead(data, Number(row.partner_sandbox) === 1),
  };
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

/**
 * One event by its position, without the horizon: for a reader that knows the event is committed (a delivery names
 * it), so nothing before it can still appear and there is nothing to wait for.
 */
export async function findEvent(db: Db, position: number): Promise<LoggedEvent | undefined> {
  return (await findEvents(db, [position])).get(position);
}

/** Several events by position in one read (as `findEvent`): a delivery round sends retries of many. */
export async function findEvents(db: Db, positions: readonly number[]): Promise<Map<number, LoggedEvent>> {
  if (positions.length === 0) return new Map();
  const rows = await db
    .selectFrom('events')
    .selectAll()
    .select(partnerSandbox)
    .where('position', 'in', positions)
    .execute();
  return new Map(rows.map((row) => [Number(row.position), toEvent(row)]));
}
