import { sql, type Kysely } from 'kysely';

/**
 * The two indexes the dispatcher finds its work by — deliveries falling due, and a member·gym's earlier delivery
 * still pending to the same endpoint — hold pending deliveries only. Indexed by status as well, they held every
 * delivery ever made: each new delivery went into a large index at a random place (its member), and each result
 * moved its entry within both. Now a delivery enters them when it is fanned out and leaves them with its result, and
 * they stay as small as the backlog. The queries that use them say `status = 'pending'` in their text.
 *
 * A process of the previous release asks the same with the status as a parameter: PostgreSQL plans each of its
 * statements with the value and uses them; SQLite does too, planning such a statement again at each run. Its
 * dispatcher keeps working during a rolling upgrade, a little slower, never wrong.
 *
 * Building an index holds writes to the table meanwhile; on a large PostgreSQL database the operator builds them first
 * without that (README: "Backups and upgrades"), and the migration keeps them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index if not exists webhook_deliveries_pending_due
    on webhook_deliveries (next_attempt_at) where status = 'pending'`.execute(db);
  await sql`create index if not exists webhook_deliveries_pending_member
    on webhook_deliveries (endpoint_id, member_key, event_position) where status = 'pending'`.execute(db);
  await db.schema.dropIndex('webhook_deliveries_due').ifExists().execute();
  await db.schema.dropIndex('webhook_deliveries_member').ifExists().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_member')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'member_key', 'status', 'event_position'])
    .execute();
  await db.schema.dropIndex('webhook_deliveries_pending_member').execute();
  await db.schema.dropIndex('webhook_deliveries_pending_due').execute();
}
