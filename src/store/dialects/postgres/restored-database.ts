import { sql, type Kysely } from 'kysely';
import { POSITIONS_PER_TRANSACTION } from '../../commit-horizon.js';
import type { Database } from '../../database.js';
import { advanceSequences } from './postgres-sequences.js';

/**
 * How far past the restored log's end new rows start, in transaction ids: readers outside the database (an event
 * stream's Last-Event-ID, a feed's cursor) may hold a position the lost server handed out after the backup was
 * taken, and a new row placed below it would be skipped by them. 2^26 ids is more than a week of a busy network's
 * transactions, and a position stays below 2^53 for over a hundred restores.
 */
export const RESTORE_HEADROOM = 67_108_864;

/** Held while one process checks, so that starters on one database raise the offset once. */
const LOCK_KEY = 'gatehouse:restored-database';

/**
 * At start, after the migrations and before anything is served or sent: makes a database restored into another
 * server (a dump, a new cluster by logical replication) continue. Positions and commit orders are made from the
 * writing transaction's id plus an offset (src/store/commit-horizon.ts). When the server's next id plus that
 * offset is not above the greatest stored position's transaction part, the ids restarted lower: the offset is
 * raised so every new row comes after the restored ones, and the column defaults get it as a constant, so a write
 * pays nothing for it. Sequences behind their tables' greatest id (logical replication carries none) are moved
 * past it. Returns a line for the log for each thing it did; nothing on a database that was not restored.
 */
export async function continueAfterRestore(db: Kysely<Database>): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtextextended(${LOCK_KEY}, 0))`.execute(trx);
    const notes: string[] = [];
    const raised = await raiseOffset(trx);
    if (raised !== undefined) {
      notes.push(
        `restored database detected: transaction ids restarted below the stored positions (newest at ` +
          `transaction ${raised.stored}, this server at ${raised.current}); new positions start after ` +
          `transaction ${raised.current + raised.offset} (offset ${raised.offset})`,
      );
    }
    const advanced = await advanceSequences(trx);
    if (advanced.length > 0) {
      notes.push(
        `restored database detected: sequences behind their tables' ids moved past them: ${advanced.join(', ')}`,
      );
    }
    return notes;
  });
}

interface Raised {
  readonly stored: number;
  readonly current: number;
  readonly offset: number;
}

async function raiseOffset(trx: Kysely<Database>): Promise<Raised | undefined> {
  const { rows } = await sql<{ current: number; xid_offset: number; stored: number }>`
    select pg_current_xact_id()::text::bigint as current,
           (select xid_offset from transaction_id_offset where id = 1) as xid_offset,
           greatest(
             (select max(position) from events),
             (select max(position) from webhook_dispatch),
             (select max(position) from nats_feed),
             0
           ) / ${POSITIONS_PER_TRANSACTION} as stored`.execute(trx);
  const { current, xid_offset: offset, stored } = rows[0]!;
  // Every later transaction of this server has a greater id than this one.
  if (current + offset > stored) return undefined;
  const raised = stored - current + RESTORE_HEADROOM;
  await sql`update transaction_id_offset set xid_offset = ${raised} where id = 1`.execute(trx);
  await setDefaults(trx, raised);
  return { stored, current, offset: raised };
}

/**
 * The column defaults of migrations 0004 and 0007 with the offset added as a constant. Altering a default locks its
 * table for a moment; in this transaction, which the offset's row commits with, so no writer ever sees one
 * without the other.
 */
async function setDefaults(trx: Kysely<Database>, offset: number): Promise<void> {
  const xid = sql.raw(`(pg_current_xact_id()::text::bigint + ${Math.trunc(offset)})`);
  await sql`alter table events alter column position set default
    (${xid} * ${sql.lit(POSITIONS_PER_TRANSACTION)} + nextval('events_position_low') % ${sql.lit(POSITIONS_PER_TRANSACTION)})`.execute(
    trx,
  );
  await sql`alter table transactions alter column commit_order set default ${xid}`.execute(trx);
  await sql`alter table reversals alter column commit_order set default ${xid}`.execute(trx);
}
