import { sql, type Kysely } from 'kysely';
import type { Database } from './database.js';

/**
 * Positions a reader can follow without ever missing a row: the event log's positions and the partner feed's
 * commit order.
 *
 * SQLite has one writer: rows are committed in the order their rowids are assigned, so the rowid is the position
 * (and commit_order stays 0; the feed reads in id order).
 *
 * PostgreSQL assigns sequence values before commit, and several processes commit at once: a row with a smaller
 * value could become visible after a reader has passed a larger one. So every transaction that appends events or
 * ledger rows takes one advisory lock before its first append and holds it to its commit; positions and
 * commit_order are drawn from their sequences while it is held. The lock is released only once the commit is
 * visible, so whoever draws the next value commits after it: sequence order is commit order. Only that last part
 * of a write is serialised — the reads, the decisions and the member locks before it run concurrently.
 */
export const COMMIT_ORDER_LOCK = 'gatehouse:commit-order';

/** The lock as SQL text, for a statement that must take it itself (see postgres-write-batch.ts). */
export const COMMIT_ORDER_LOCK_SQL = `pg_advisory_xact_lock(hashtextextended('${COMMIT_ORDER_LOCK}', 0))`;

/** Inside a PostgreSQL write transaction, before its first append: see above. */
export async function lockCommitOrder(db: Kysely<Database>): Promise<void> {
  await sql.raw(`select ${COMMIT_ORDER_LOCK_SQL}`).execute(db);
}
