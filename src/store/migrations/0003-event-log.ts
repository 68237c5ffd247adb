import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import { isPostgres } from '../column-types.js';

/**
 * The event log, and the transactions' commit order for the partner feed: positions a reader can follow without
 * missing a row (src/store/commit-order.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await postgres(db);
  else await sqlite(db);
  // Every index costs each validation a page write per commit, and a random key (the event id) touches a different
  // page each time: the log keeps one index besides its order, for a gym's events. Event ids are 128 random bits,
  // unique by construction.
  await db.schema.createIndex('events_gym_position').on('events').columns(['gym_id', 'position']).execute();
}

/**
 * SQLite's single writer commits in rowid order: the rowid is the position, and commit_order stays 0 (the feed reads
 * a gym's rows in id order, as before, with no index of its own).
 */
async function sqlite(db: Kysely<any>): Promise<void> {
  await eventColumns(
    db.schema.createTable('events').addColumn('position', 'integer', (c) => c.primaryKey().autoIncrement()),
  ).execute();
  await addCommitOrder(db);
}

/** What every event holds, whatever orders it. */
function eventColumns(table: CreateTableBuilder<'events'>): CreateTableBuilder<'events'> {
  return (
    table
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('occurred_at', 'bigint', (c) => c.notNull())
      .addColumn('partner_id', 'bigint', (c) => c.notNull())
      .addColumn('gym_id', 'bigint', (c) => c.notNull())
      // JSON text; null once the payload has been purged.
      .addColumn('data', 'text')
  );
}

/** Existing transactions get 0: they come first in the feed, in id order, as it always listed them. */
async function addCommitOrder(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('transactions')
    .addColumn('commit_order', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}

/**
 * PostgreSQL: rows are written with no position (events) or commit_order (transactions); a transaction that wrote
 * some also inserts a row into commit_marks, whose deferred trigger runs inside COMMIT: it takes the commit-order
 * lock, numbers the transaction's rows after the greatest committed ones, and the lock is released only once the
 * commit is visible. Rows written before this migration keep commit_order 0 and come first, in id order.
 */
async function postgres(db: Kysely<any>): Promise<void> {
  await eventColumns(
    db.schema
      .createTable('events')
      .addColumn('seq', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      .addColumn('position', 'bigint', (c) => c.unique()),
  ).execute();
  await sql`create index events_unpositioned on events (seq) where position is null`.execute(db);
  await addCommitOrder(db);
  await sql`alter table transactions alter column commit_order drop not null, alter column commit_order drop default`.execute(
    db,
  );
  await sql`create index transactions_commit_order on transactions (commit_order)`.execute(db);
  await db.schema
    .createIndex('transactions_gym_commit_order')
    .on('transactions')
    .columns(['gym_id', 'commit_order', 'id'])
    .execute();
  await sql`create index transactions_unordered on transactions (id) where commit_order is null`.execute(db);
  await sql`create table commit_marks (xid xid8 primary key default pg_current_xact_id())`.execute(db);
  // Every step below is an index lookup on this transaction's own rows (the partial indexes) or on the greatest
  // committed value: the serialised part of a commit stays short however large the tables grow. Positions keep
  // the events' insertion order (their seq) and may leave gaps; every ledger row of one commit shares its number.
  await sql`
    create function gatehouse_take_commit_order() returns trigger language plpgsql as $$
    declare last bigint; first bigint;
    begin
      perform pg_advisory_xact_lock(hashtextextended('gatehouse:commit-order', 0));
      select min(seq) into first from events where position is null;
      if first is not null then
        select coalesce(max(position), 0) into last from events;
        update events set position = last + seq - first + 1 where position is null;
      end if;
      select coalesce(max(commit_order), 0) into last from transactions;
      update transactions set commit_order = last + 1 where commit_order is null;
      delete from commit_marks where xid = new.xid;
      return null;
    end $$`.execute(db);
  await sql`
    create constraint trigger take_commit_order after insert on commit_marks
    deferrable initially deferred for each row execute function gatehouse_take_commit_order()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop table commit_marks`.execute(db);
    await sql`drop function gatehouse_take_commit_order()`.execute(db);
  }
  if (isPostgres(db)) await db.schema.dropIndex('transactions_gym_commit_order').execute();
  await db.schema.alterTable('transactions').dropColumn('commit_order').execute();
  await db.schema.dropTable('events').execute();
}
