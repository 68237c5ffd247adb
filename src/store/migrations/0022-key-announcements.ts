import type { Kysely } from 'kysely';

/**
 * SQLite has no LISTEN/NOTIFY: a process learns that another one committed from `PRAGMA data_version`, which moves
 * at every commit of another connection, validations included. Under load in a shared file that emptied every
 * process's key and payout-rule caches several times a second. One row counts the changes that announce
 * themselves (a key revoked, a partner offboarded, rules set…), bumped in their own transaction: the caches are
 * emptied when it moves, not at every commit. PostgreSQL keeps NOTIFY and never reads it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('key_announcements')
    .ifNotExists()
    .addColumn('id', 'integer', (column) => column.primaryKey())
    .addColumn('version', 'integer', (column) => column.notNull())
    .execute();
  await db
    .insertInto('key_announcements')
    .values({ id: 1, version: 0 })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('key_announcements').execute();
}
