import { type Kysely } from 'kysely';
import { updatedAt } from '../column-types.js';

/**
 * Member details stored with a check-in (JSON, null when none were given), sandbox partners (whose visits never
 * count in payouts), and the broker feed's place in the event log.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('checkins').addColumn('member', 'text').execute();
  await db.schema
    .alterTable('partners')
    .addColumn('sandbox', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('nats_feed')
    .addColumn('stream', 'text', (c) => c.primaryKey())
    .addColumn('position', 'bigint', (c) => c.notNull())
    .$call(updatedAt)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('nats_feed').execute();
  await db.schema.alterTable('partners').dropColumn('sandbox').execute();
  await db.schema.alterTable('checkins').dropColumn('member').execute();
}
