import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from './database.js';

/**
 * Positions a reader can follow without ever missing a row: the event log's positions and the partner feed's
 * commit order.
 *
 * SQLite has one writer: rows are committed in the order their rowids are assigned, so the rowid is the position
 * (and commit_order stays 0; the feed reads in id order).
 *
 * PostgreSQL runs many writers at once, and an id taken before commit can become visible after a reader has passed
 * a larger one. So a row's place comes from the id of the transaction that wrote it (migration 0004: commit_order
 * is that id; an event's position is that id times 2^20 plus a counter that tells one transaction's events apart),
 * and a reader is shown only the rows below its **horizon**: the oldest transaction still running when its
 * statement's snapshot was taken (`pg_snapshot_xmin`). Every transaction with a smaller id has ended, so no row can
 * ever appear below the horizon again: reading in this order never misses one, and no reader ever sees a row
 * before another that comes earlier. Writers pay nothing for it — no lock, no numbering at commit — and their
 * transaction ids follow their member locks, so one member's changes keep their order.
 *
 * A row just committed can sit above the horizon for as long as an older write transaction runs (milliseconds
 * under load). So that a client sees its own change as soon as it is acknowledged, a reader first waits, for at
 * most READ_YOUR_WRITES_MS, until the horizon has passed every row already committed.
 */

/** Events of one transaction are told apart by the low bits of their positions. */
export const POSITIONS_PER_TRANSACTION = 1_048_576;

/** How long a reader waits for older transactions to end before it answers with what is final. */
const READ_YOUR_WRITES_MS = 1_000;

/** The oldest transaction id still running in the statement's snapshot: every smaller one has ended. */
export const HORIZON: RawBuilder<number> = sql<number>`pg_snapshot_xmin(pg_current_snapshot())::text::bigint`;

/** The first event position of the horizon's transaction: every event below it is final. */
export const HORIZON_POSITION: RawBuilder<number> = sql<number>`${HORIZON} * ${POSITIONS_PER_TRANSACTION}`;

/**
 * The transaction that wrote the newest committed event, and the horizon, read in one snapshot. Every change that
 * writes a ledger row writes its event in the same transaction, so this is the newest commit of either.
 */
async function newestAndHorizon(db: Kysely<Database>): Promise<{ newest: number; horizon: number }> {
  const { rows } = await sql<{ newest: string | number | null; horizon: string | number }>`
    select (select max(position) / ${POSITIONS_PER_TRANSACTION} from events) as newest, ${HORIZON} as horizon
  `.execute(db);
  return { newest: Number(rows[0]?.newest ?? 0), horizon: Number(rows[0]?.horizon ?? 0) };
}

/**
 * On PostgreSQL, before a read that follows the horizon: waits (bounded) until every change committed so far lies
 * below it, so a change acknowledged to a client is in what the client reads next.
 */
export async function awaitCommittedRows(db: Kysely<Database>): Promise<void> {
  const first = await newestAndHorizon(db);
  const { newest } = first;
  let { horizon } = first;
  const deadline = Date.now() + READ_YOUR_WRITES_MS;
  let pause = 1;
  while (newest >= horizon && Date.now() < deadline) {
    await sleep(pause);
    pause = Math.min(pause * 2, 20);
    horizon = (await newestAndHorizon(db)).horizon;
  }
}
