import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import { forgetAttemptBodies } from '../webhooks/webhook-attempt-repository.js';
import { PENDING } from '../webhooks/pending-status.js';

type Db = Kysely<Database>;

/** Events one step of the payload purge reads: each step is one short transaction, however long the log is. */
export const PURGE_WINDOW = 2000;

export interface PurgeStep {
  readonly purged: number;
  /** The position the next step starts after; undefined once the purge is done. */
  readonly next: number | undefined;
}

/**
 * One step of the payload purge: the next `window` events in position order after `after`, and the payloads of
 * those that occurred before `before` (the events stay, with data null). A payload a webhook still has to send is
 * spared: an event the webhook dispatcher has not reached yet (while there is any endpoint to dispatch it to), or
 * one with a delivery still pending to an enabled endpoint. A disabled endpoint pins nothing: once enabled, it is
 * sent what still has its payload.
 *
 * Positions follow time: an event takes its position when its transaction commits, moments after it occurred. So
 * the purge walks the log from its start by position, which is the table's own order, and is done at the first
 * window that holds nothing older than `before`. No index on the time is needed, and appending an event (every
 * validation does) maintains one index fewer. An event that committed later than a whole window of younger ones
 * (a transaction held open for minutes) loses its payload on the next day's run.
 */
export async function purgeEventPayloads(
  db: Db,
  before: number,
  after: number,
  window = PURGE_WINDOW,
): Promise<PurgeStep> {
  const read = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('events')
        .select(['position', 'occurred_at'])
        .where('position', '>', after)
        .orderBy('position')
        .limit(window)
        .as('w'),
    )
    .select((eb) => [eb.fn.max('w.position').as('last'), eb.fn.min('w.occurred_at').as('oldest')])
    .executeTakeFirst();
  if (read?.last == null || read.oldest == null || Number(read.oldest) >= before) {
    return { purged: 0, next: undefined };
  }
  const last = Number(read.last);
  const result = await db
    .updateTable('events')
    .set({ data: null })
    .where('position', '>', after)
    .where('position', '<=', last)
    .where('occurred_at', '<', before)
    .where('data', 'is not', null)
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
              .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
              .select('webhook_deliveries.id')
              .whereRef('webhook_deliveries.event_position', '=', 'events.position')
              .where('webhook_deliveries.status', '=', PENDING)
              .where('webhook_endpoints.status', '=', 'enabled'),
          ),
        ),
      ]),
    )
    .executeTakeFirst();
  await forgetAttemptBodies(db, { from: after, to: last });
  return { purged: Number(result.numUpdatedRows), next: last };
}

/** Rows per transaction of the check-in purge: it never holds the database for long, however much is due. */
export const PURGE_BATCH = 1000;

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
  const ids = due.map((row) => row.id);
  await db.deleteFrom('checkins').where('id', 'in', ids).execute();
  return ids.length;
}
