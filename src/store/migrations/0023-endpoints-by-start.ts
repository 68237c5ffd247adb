import type { Kysely } from 'kysely';

/**
 * The delivery loop asks, before every round and at every poll on every process, where the earliest endpoint
 * starts hearing the log (`min(from_position)`), and each dispatch asks again. Without an index that read every
 * endpoint of the network each time: with a webhook per partner for thousands of partners, thousands of rows a
 * hundred times a second. Indexed, it is one step to the index's first entry.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('webhook_endpoints_by_start')
    .ifNotExists()
    .on('webhook_endpoints')
    .column('from_position')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('webhook_endpoints_by_start').execute();
}
