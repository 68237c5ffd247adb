import type { Kysely } from 'kysely';
import type { Database } from './database.js';

type Db = Kysely<Database>;

/** Rows per transaction: a purge never holds the database for long, however much is due. */
export const PURGE_BATCH = 1000;

/**
 * One batch of the payload purge: the payloads of events that occurred before `before` (the events stay, with
 * data null). A payload a webhook still has to send is spared: an event the webhook dispatcher has not reached
 * yet (while there is any endpoint to dispatch it to), or one with a delivery still pending. Returns how many it purged; 0 when none is left.
 */
export async function purgeEventPayloads(db: Db, before: number): Promise<number> {
  const due = await db
    .selectFrom('events')
    .select('position')
    .where('occurred_at', '<', before)
    .where('data', 'is not', null)
    .where('position', 'is not', null)
    .where((eb) =>
      eb.and([
        eb.or([
          eb.not(eb.exists(eb.selectFrom('webhook_endpoints').select('webhook_endpoints.id'))),
          eb(
            'events.position',
            '<=',
            eb
              .selectFrom('webhook_dispatch')
              .select('webhook_dispatch.position')
              .where('webhook_dispatch.id', '=', 1),
          ),
        ]),
        eb.not(
          eb.exists(
            eb
              .selectFrom('webhook_deliveries')
              .select('webhook_deliveries.id')
              .whereRef('webhook_deliveries.event_position', '=', 'events.position')
              .where('webhook_deliveries.status', '=', 'pending'),
          ),
        ),
      ]),
    )
    .limit(PURGE_BATCH)
    .execute();
  if (due.length === 0) return 0;
  await db
    .updateTable('events')
    .set({ data: null })
    .where(
      'position',
      'in',
      due.map((row) => row.position),
    )
    .execute();
  return due.length;
}

/** One batch: check-ins made before `before` that never became a transaction deleted, and their member with them. */
export async function purgeUnpaidCheckins(db: Db, before: number): Promise<number> {
  const due = await db
    .selectFrom('checkins')
    .select('id')
    .where('checked_in_at', '<', before)
    .where('status', '!=', 'validated')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('transactions')
            .select('transactions.id')
            .whereRef('transactions.checkin_id', '=', 'checkins.id'),
        ),
      ),
    )
    .limit(PURGE_BATCH)
    .execute();
  if (due.length === 0) return 0;
  await db
    .deleteFrom('checkins')
    .where(
      'id',
      'in',
      due.map((row) => row.id),
    )
    .execute();
  return due.length;
}
