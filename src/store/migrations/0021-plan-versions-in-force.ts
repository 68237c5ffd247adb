import type { Kysely } from 'kysely';

/**
 * Every check-in creation of a member on a plan reads the version of the plan in force: the latest effective at
 * now, by its start and then its number. Indexed in that order, the read seeks to it; by the primary key (plan,
 * number) alone, it sorted the plan's versions at every creation.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('plan_versions_in_force')
    .ifNotExists()
    .on('plan_versions')
    .columns(['plan_id', 'effective_from', 'version'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('plan_versions_in_force').execute();
}
