import type { Kysely } from 'kysely';

/**
 * Each partner's compatibility profile (docs/contract.md, "Compatibility profiles"): defaulted to the spec's
 * answers, so a process of the previous release, which never reads them, answers exactly as before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('partners')
    .addColumn('cancelled_spelling', 'text', (c) => c.notNull().defaultTo('cancelled'))
    .execute();
  await db.schema
    .alterTable('partners')
    .addColumn('gym_from_key', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('partners').dropColumn('gym_from_key').execute();
  await db.schema.alterTable('partners').dropColumn('cancelled_spelling').execute();
}
