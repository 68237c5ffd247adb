import { sql, type Kysely } from 'kysely';
import { createdAt, serialPrimaryKey, updatedAt } from '../column-types.js';

/**
 * Webhooks: the endpoints, one delivery row per event and endpoint (the delivery log), and the dispatcher's
 * place in the event log. Deliveries are fanned out from the log after the cursor, in the same transaction that
 * moves it, so each event reaches each matching endpoint's log exactly once whatever process does it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', ...serialPrimaryKey(db))
    .addColumn('partner_id', 'bigint', (c) => c.notNull().references('partners.id'))
    .addColumn('url', 'text', (c) => c.notNull())
    // JSON arrays; null: every event type, every gym of the partner.
    .addColumn('event_types', 'text')
    .addColumn('gym_ids', 'text')
    .addColumn('format', 'text', (c) => c.notNull().defaultTo('standard'))
    .addColumn('timeout_ms', 'integer', (c) => c.notNull())
    // Encrypted (enc:v1:…) when GATEHOUSE_SECRET_KEY is set, as given otherwise.
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('previous_secret', 'text')
    .addColumn('previous_secret_expires_at', 'bigint')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('disabled_reason', 'text')
    // Since when every attempt has failed (null after a success): five days of it disable the endpoint.
    .addColumn('failing_since', 'bigint')
    // Only events after this position are delivered to it: an endpoint hears of what happens once it exists.
    .addColumn('from_position', 'bigint', (c) => c.notNull())
    .$call(createdAt)
    .$call(updatedAt)
    .execute();
  await db.schema
    .createIndex('webhook_endpoints_partner_id')
    .on('webhook_endpoints')
    .column('partner_id')
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', ...serialPrimaryKey(db))
    .addColumn('endpoint_id', 'bigint', (c) => c.notNull())
    .addColumn('event_position', 'bigint', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    // `<gym>:<platform_id>`: one member·gym's deliveries to one endpoint go out in event order.
    .addColumn('member_key', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    // Failed attempts since the delivery was last (re)scheduled: its place in the retry schedule.
    .addColumn('round_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    // A process that claimed the delivery owns its attempt until then; after a crash it is claimed again.
    .addColumn('claimed_until', 'bigint')
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('last_attempt_at', 'bigint')
    .addColumn('delivered_at', 'bigint')
    .$call(createdAt)
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_endpoint')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'id'])
    .execute();
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
  await db.schema
    .createIndex('webhook_deliveries_event')
    .on('webhook_deliveries')
    .column('event_position')
    .execute();

  await db.schema
    .createTable('webhook_dispatch')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('position', 'bigint', (c) => c.notNull())
    // Payloads are purged in position order, up to the events older than the retention period.
    .addColumn('purged_position', 'bigint', (c) => c.notNull())
    .execute();
  // The log before webhooks existed has nothing to deliver: the dispatcher starts after it.
  await sql`insert into webhook_dispatch (id, position, purged_position) select 1, coalesce(max(position), 0), 0 from events`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_dispatch').execute();
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhook_endpoints').execute();
}
