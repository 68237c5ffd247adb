import { sql, type Kysely } from 'kysely';
import { isPostgres, serialPrimaryKey } from '../column-types.js';

/**
 * The event log, and the transactions' commit order for the partner feed: positions a reader can follow without
 * missing a row (src/store/commit-order.ts). SQLite's single writer commits in rowid order; on PostgreSQL the
 * values are drawn under the commit-order lock.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .createTable('events')
    .addColumn('position', ...serialPrimaryKey(db))
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'bigint', (c) => c.notNull())
    .addColumn('partner_id', 'bigint', (c) => c.notNull())
    .addColumn('gym_id', 'bigint', (c) => c.notNull())
    // JSON text; null once the payload has been purged.
    .addColumn('data', 'text')
    .execute();
  await db.schema.createIndex('events_gym_position').on('events').columns(['gym_id', 'position']).execute();
  await db.schema
    .createIndex('events_partner_position')
    .on('events')
    .columns(['partner_id', 'position'])
    .execute();

  // Rows written before this migration keep 0: they come first, in id order, as the feed always listed them.
  await db.schema
    .alterTable('transactions')
    .addColumn('commit_order', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  if (pg) {
    await sql`create sequence transactions_commit_order_seq`.execute(db);
    await sql`alter table transactions alter column commit_order set default nextval('transactions_commit_order_seq')`.execute(
      db,
    );
  }
  await db.schema
    .createIndex('transactions_gym_commit_order')
    .on('transactions')
    .columns(['gym_id', 'commit_order', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('transactions_gym_commit_order').execute();
  await db.schema.alterTable('transactions').dropColumn('commit_order').execute();
  if (isPostgres(db)) await sql`drop sequence transactions_commit_order_seq`.execute(db);
  await db.schema.dropTable('events').execute();
}
