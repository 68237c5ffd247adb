import type { Kysely } from 'kysely';
import { serialPrimaryKey } from '../column-types.js';

/**
 * Every attempt of a webhook delivery, kept beside the delivery's row (which holds only the last one): when it was
 * made, how long it took, the receiver's status or why there was none, and the start of its answer. The body sent
 * is kept only when it is not the delivery's own (the standard body of its event, the same on every attempt), so a
 * busy log does not store each payload again per attempt. Only added: a process of the previous release records
 * attempts as before and leaves this table alone.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', ...serialPrimaryKey(db))
    .addColumn('delivery_id', 'bigint', (c) => c.notNull())
    // The delivery's attempt count after this one: 1 for the first.
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('attempted_at', 'bigint', (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    // null: the delivery's own body (rebuilt from its event while the payload is kept), or purged with it.
    .addColumn('request_body', 'text')
    .addColumn('response_excerpt', 'text')
    .execute();
  await db.schema
    .createIndex('webhook_attempts_delivery')
    .on('webhook_attempts')
    .columns(['delivery_id', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_attempts').execute();
}
