import type { Kysely } from 'kysely';

/**
 * Each running `serve` process's delivery settings (README, "Running on PostgreSQL, with several processes"): a
 * process whose settings differ from another's on the same database says so at start. A new table only: a process
 * of the previous release neither writes nor reads it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('process_settings')
    .addColumn('process_id', 'text', (c) => c.primaryKey())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('seen_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('process_settings').execute();
}
