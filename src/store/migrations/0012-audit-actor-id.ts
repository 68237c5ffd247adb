import type { Kysely } from 'kysely';

/**
 * The audit log names an operator by its id as well as by its name at the time: a revoked operator's name may be
 * given to a new one, and the two are different actors. Only added (nullable): rows written before, and by a
 * process of the previous release during an upgrade, keep their name alone.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('audit_log').addColumn('actor_id', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('audit_log').dropColumn('actor_id').execute();
}
