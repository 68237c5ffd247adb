import type { Kysely } from 'kysely';

/**
 * A check-in creation under a plan reads the member's check-ins that may still count: validated within the plan's
 * longest window, or not yet expired. Those all expire within the window or after it (a check-in is validated
 * before it expires), so the member's check-ins are indexed by expiry as well: the read seeks to the window
 * instead of reading the member's whole history, which grows by a check-in a visit for as long as the member
 * stays. The index by member alone goes: this one serves every lookup by member, of any release.
 *
 * Building an index holds writes to the table meanwhile; on a large PostgreSQL database the operator builds it first
 * without that (`create index concurrently`, README: "Backups and upgrades"), and the migration keeps it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('checkins_member_expiry')
    .ifNotExists()
    .on('checkins')
    .columns(['platform_id', 'expires_at'])
    .execute();
  await db.schema.dropIndex('checkins_member').ifExists().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('checkins_member').on('checkins').column('platform_id').execute();
  await db.schema.dropIndex('checkins_member_expiry').execute();
}
