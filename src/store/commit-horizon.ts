import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
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
 * before another that comes earlier. Writers pay nothing for it — no lock, no numbering at commit — and their transaction ids
 * follow their member locks, so one member's changes keep their order.
 *
 * The oldest running transaction may be anyone's: another application's, a schema's next door, an operator's psql
 * session left open. So that none of them holds the readers back, a reader whose plain horizon lags looks at the
 * server's lock table (refinedHorizon): a transaction writes a row here only after it has opened one of this
 * schema's tables, and keeps that lock to its end, so a running transaction whose backend holds no lock on any of
 * them was given its id before it touched this schema, and never writes a row a reader could miss. Every process
 * that writes here, of any release, does so through these tables: there is nothing for a writer to do.
 *
 * A database restored into another server meets transaction ids lower than its rows were written with: every id is
 * taken with an offset added (the one row of `transaction_id_offset`, 0 until a restore; migration 0010), in the
 * column defaults and in every horizon, and the start raises it so new rows come after the restored ones
 * (src/store/dialects/postgres/restored-database.ts).
 *
 * A row just committed can sit above the horizon for as long as an older write of ours runs (milliseconds under
 * load). So that a client sees its own change as soon as it is acknowledged, a reader first waits, for at most
 * READ_YOUR_WRITES_MS, until the horizon has passed every row already committed.
 */

/** Events of one transaction are told apart by the low bits of their positions. */
export const POSITIONS_PER_TRANSACTION = 1_048_576;

/** How long a reader waits for older transactions to end before it answers with what is final. */
const READ_YOUR_WRITES_MS = 1_000;

/** What is added to every transaction id (0 until a restore), read in the horizon's own statement. */
const XID_OFFSET = sql<string>`coalesce((select xid_offset from transaction_id_offset where id = 1), 0)`;

/** The oldest transaction id still running in the statement's snapshot: every smaller one has ended. */
const PLAIN_HORIZON = sql<string>`(pg_snapshot_xmin(pg_current_snapshot())::text::bigint + ${XID_OFFSET})`;

/**
 * The oldest transaction id in the snapshot that may still write rows here: the running ones whose backends hold no
 * lock on this schema's tables are passed over. The lock table is read after the snapshot was taken: a transaction
 * of the snapshot that ended in between is not found there and still counts (it only holds the horizon back until
 * the next read); one that still runs and writes here holds the table lock it took before its id. (pg_locks lists
 * transaction ids in 32 bits: they are compared on the low bits.)
 */
const REFINED_HORIZON = sql<string>`(
  with locks as materialized (
    select pid, locktype, database, relation, transactionid, mode, granted from pg_locks
  ),
  here as (
    select c.oid from pg_class c
    where c.relnamespace = (select relnamespace from pg_class where oid = 'events'::regclass)
  ),
  ours as (
    select pid from locks
    where locktype = 'relation' and relation in (select oid from here)
      and database = (select oid from pg_database where datname = current_database())
  ),
  others as (
    select transactionid::text::bigint as xid from locks
    where locktype = 'transactionid' and mode = 'ExclusiveLock' and granted and pid is not null
      and pid not in (select pid from ours where pid is not null)
  ),
  snapshot as (select pg_current_snapshot() as s)
  select ${XID_OFFSET} + coalesce(
    (select min(x::text::bigint) from snapshot, pg_snapshot_xip(snapshot.s) as x
     where x::text::bigint % 4294967296 not in (select xid from others)),
    (select pg_snapshot_xmax(s)::text::bigint from snapshot)
  )
)`;

/** The first event position of a horizon's transaction: every event below it is final. */
export function horizonPosition(horizon: number): number {
  return horizon * POSITIONS_PER_TRANSACTION;
}

/**
 * The transaction that wrote the newest committed event, and a horizon, read in one snapshot. Every change that
 * writes a ledger row writes its event in the same transaction, so this is the newest commit of either.
 */
async function newestAndHorizon(
  db: Kysely<Database>,
  refined: boolean,
): Promise<{ newest: number; horizon: number }> {
  const { rows } = await sql<{ newest: string | number | null; horizon: string | number }>`
    select (select max(position) / ${POSITIONS_PER_TRANSACTION} from events) as newest,
           ${refined ? REFINED_HORIZON : PLAIN_HORIZON} as horizon
  `.execute(db);
  return { newest: Number(rows[0]?.newest ?? 0), horizon: Number(rows[0]?.horizon ?? 0) };
}

/**
 * On PostgreSQL, the horizon a read follows: every row it shows below it is final. Cheap when nothing committed
 * lies above the plain horizon; otherwise the lock table tells which running transactions are gatehouse writers.
 * With `readYourWrites` it waits (bounded) until every change committed so far lies below it, so a change
 * acknowledged to a client is in what the client reads next; without, it answers at once (a poller reads again).
 */
export async function readHorizon(db: Kysely<Database>, readYourWrites: boolean): Promise<number> {
  const plain = await newestAndHorizon(db, false);
  if (plain.newest < plain.horizon) return plain.horizon;
  const deadline = Date.now() + READ_YOUR_WRITES_MS;
  let pause = 1;
  for (;;) {
    const { newest, horizon } = await newestAndHorizon(db, true);
    if (newest < horizon || !readYourWrites || Date.now() >= deadline) return horizon;
    await sleep(pause);
    pause = Math.min(pause * 2, 20);
  }
}
