import { sql, type Kysely } from 'kysely';
import type { Database } from '../database.js';
import { waitingAt } from './rule-sql.js';

/** The tables whose ids a decision names before its write: check-ins, and ledger entries (visits, reversals). */
export type ReservedIn = 'checkins' | 'transactions';

/**
 * The next id of a table, as an SQL expression each write path reads with its state, so the decision (and its
 * event) can name the row it writes. On PostgreSQL the table's own sequence hands it out (an id reserved for a
 * change that is refused is skipped: ids are unique and increasing, not consecutive; a process that inserts
 * without an id draws from the same sequence). On SQLite the caller holds the write lock, and the next id is one
 * past the greatest ever handed out. A visit's transaction and a reversal share the transactions' id space, so
 * a ledger lists both in one id order: on SQLite a reversal moves the transactions' AUTOINCREMENT counter past its
 * id (insertReversal), and an insert with an id past the counter moves it too.
 */
export const NEXT_ID: { readonly [D in 'postgres' | 'sqlite']: { readonly [T in ReservedIn]: string } } = {
  postgres: {
    checkins: `nextval(pg_get_serial_sequence('checkins', 'id'))`,
    transactions: `nextval(pg_get_serial_sequence('transactions', 'id'))`,
  },
  sqlite: {
    checkins: `(coalesce((select seq from sqlite_sequence where name = 'checkins'), 0) + 1)`,
    transactions: `(max(
      coalesce((select seq from sqlite_sequence where name = 'transactions'), 0),
      coalesce((select max(id) from reversals), 0)) + 1)`,
  },
};

export const nextId = (postgres: boolean, table: ReservedIn): string =>
  NEXT_ID[postgres ? 'postgres' : 'sqlite'][table];

/**
 * The id a validation's transaction takes, read as a column of the member's latest check-in (`checkin` is its
 * alias, `now` the validation's time as SQL): reserved only where that check-in still waits at `now`, the one
 * case a validation writes a transaction.
 */
export const reservedTransactionId = (postgres: boolean, checkin: string, now: string): string =>
  `case when ${waitingAt(checkin, now)} then ${nextId(postgres, 'transactions')} end`;

/** Reserves one id on its own. */
export async function reserveId(db: Kysely<Database>, postgres: boolean, table: ReservedIn): Promise<number> {
  const { rows } = await sql<{ id: number }>`select ${sql.raw(nextId(postgres, table))} as id`.execute(db);
  const id = rows[0]?.id;
  if (id === undefined) throw new Error(`no id could be reserved in ${table}`);
  return Number(id);
}
