import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../column-types.js';

/**
 * PostgreSQL: what is added to the writing transaction's id wherever a position or a commit order is made, and to
 * every horizon (src/store/commit-horizon.ts). A database restored into another server (pg_restore, or a new
 * cluster fed by logical replication) meets transaction ids lower than the ones its rows were written with; the
 * start raises the offset so new rows come after every restored one (src/store/dialects/postgres/restored-database.ts).
 *
 * Until a restore it is 0 and the column defaults stay as migration 0004 made them, so a process of the previous
 * release, which knows nothing of the offset, keeps working during a rolling upgrade. SQLite's positions are rowids
 * kept in the file itself: a restored copy continues them as they are.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`
    create table transaction_id_offset (
      id smallint primary key check (id = 1),
      xid_offset bigint not null check (xid_offset >= 0)
    )`.execute(db);
  await sql`insert into transaction_id_offset (id, xid_offset) values (1, 0)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop table transaction_id_offset`.execute(db);
}
