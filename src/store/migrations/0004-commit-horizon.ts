import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../column-types.js';

/**
 * PostgreSQL: positions and commit_order come from the writing transaction's id, as defaults, instead of being
 * numbered inside COMMIT under one lock (migration 0003), which made every commit wait for the one before it to
 * reach the disk. Readers follow a horizon instead (src/store/commit-horizon.ts).
 *
 * A process of the previous release may still be running during a rolling upgrade: it inserts its rows without
 * positions, which these defaults now give them, and marks its transactions in commit_marks, whose trigger now only
 * clears the mark. The table and its function go a release later. SQLite is unchanged: its rowid is its position.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  // The low 20 bits tell a transaction's events apart; the transaction id orders them (commit-horizon.ts).
  await sql`create sequence events_position_low as bigint`.execute(db);
  await sql`
    alter table events alter column position set default
      (pg_current_xact_id()::text::bigint * 1048576 + nextval('events_position_low') % 1048576)`.execute(db);
  await sql`
    alter table transactions alter column commit_order set default (pg_current_xact_id()::text::bigint)`.execute(
    db,
  );
  await sql`
    create or replace function gatehouse_take_commit_order() returns trigger language plpgsql as $$
    begin
      delete from commit_marks where xid = new.xid;
      return null;
    end $$`.execute(db);
  // Nothing is written without its position any more: the indexes that found such rows, and the one that found
  // the greatest commit_order, would only cost every insert (readers find the newest commit through the events:
  // every change that writes a ledger row writes its event too). Dropping an index never breaks an older process.
  await sql`drop index events_unpositioned`.execute(db);
  await sql`drop index transactions_unordered`.execute(db);
  await sql`drop index transactions_commit_order`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`alter table events alter column position drop default`.execute(db);
  await sql`alter table transactions alter column commit_order drop default`.execute(db);
  await sql`drop sequence events_position_low`.execute(db);
  await sql`create index events_unpositioned on events (seq) where position is null`.execute(db);
  await sql`create index transactions_unordered on transactions (id) where commit_order is null`.execute(db);
  await sql`create index transactions_commit_order on transactions (commit_order)`.execute(db);
}
