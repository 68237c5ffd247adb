import { sql, type Kysely } from 'kysely';
import { createdAt, serialPrimaryKey } from '../column-types.js';

/**
 * Operator identities (a role each, a token stored as its hash), the secrets the server keeps for itself (the key
 * of erased members' pseudonyms), and what the retention purge reads by age.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('operators')
    .addColumn('id', ...serialPrimaryKey(db))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .$call(createdAt)
    .execute();
  // One live operator per name, so `operator:<name>` in the audit log names one person; a revoked name is free again.
  await db.schema
    .createIndex('operators_live_name')
    .on('operators')
    .column('name')
    .unique()
    .where(sql.ref('revoked_at'), 'is', null)
    .execute();

  await db.schema
    .createTable('server_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .$call(createdAt)
    .execute();

  // The daily purge finds unpaid check-ins past their retention by age (event payloads by position: every
  // validation appends an event, and an index on its time would cost each one).
  await db.schema.createIndex('checkins_checked_in_at').on('checkins').column('checked_in_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('checkins_checked_in_at').execute();
  await db.schema.dropTable('server_secrets').execute();
  await db.schema.dropTable('operators').execute();
}
