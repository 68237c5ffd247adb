import { sql, type Kysely } from 'kysely';
import type { Database } from './database.js';

/**
 * Positions a reader can follow without ever missing a row: the event log's positions and the partner feed's
 * commit order.
 *
 * SQLite has one writer: rows are committed in the order their rowids are assigned, so the rowid is the position
 * (and commit_order stays 0; the feed reads in id order).
 *
 * PostgreSQL assigns ids before commit, and several processes commit at once: a row with a smaller id can become
 * visible after a reader has passed a larger one. So positions are given inside COMMIT. A transaction that appends
 * events or ledger rows writes them unnumbered and inserts one row into commit_marks; that table's deferred
 * trigger (migration 0003) runs as the transaction commits: it takes one advisory lock, numbers the transaction's
 * rows after the greatest committed ones, and the lock is released only once the commit is visible — so numbering
 * order is commit order. Only that step is serialised, and no round trip to the client happens inside it.
 */
export const COMMIT_MARK_SQL = 'insert into commit_marks default values on conflict do nothing';

/** Inside a PostgreSQL write transaction that appends: numbers its rows at commit (see above). Idempotent. */
export async function markForCommitOrder(db: Kysely<Database>): Promise<void> {
  await sql.raw(COMMIT_MARK_SQL).execute(db);
}
