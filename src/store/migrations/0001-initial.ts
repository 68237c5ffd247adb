import type { Kysely } from 'kysely';
import { createdAt, serialPrimaryKey, updatedAt } from '../column-types.js';

// Migrations are typed Kysely<any> so they stay frozen in time, whatever the Database type becomes.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('partners')
    .addColumn('id', ...serialPrimaryKey(db))
    .addColumn('name', 'text', (c) => c.notNull())
    .$call(createdAt)
    .execute();

  await db.schema
    .createTable('gyms')
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('partner_id', 'bigint', (c) => c.notNull().references('partners.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .$call(createdAt)
    .execute();
  await db.schema.createIndex('gyms_partner_id').on('gyms').column('partner_id').execute();

  await db.schema
    .createTable('products')
    .addColumn('id', ...serialPrimaryKey(db))
    .addColumn('gym_id', 'bigint', (c) => c.notNull().references('gyms.id'))
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('payout_cents', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .$call(createdAt)
    .execute();
  await db.schema.createIndex('products_gym_id').on('products').column('gym_id').execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', ...serialPrimaryKey(db))
    .addColumn('partner_id', 'bigint', (c) => c.notNull().references('partners.id'))
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('label', 'text')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .addColumn('last_used_at', 'bigint')
    .$call(createdAt)
    .execute();
  await db.schema.createIndex('api_keys_partner_id').on('api_keys').column('partner_id').execute();

  await db.schema
    .createTable('api_key_gyms')
    .addColumn('key_id', 'bigint', (c) => c.notNull().references('api_keys.id'))
    .addColumn('gym_id', 'bigint', (c) => c.notNull().references('gyms.id'))
    .addPrimaryKeyConstraint('api_key_gyms_pk', ['key_id', 'gym_id'])
    .execute();

  await db.schema
    .createTable('checkins')
    .addColumn('id', ...serialPrimaryKey(db))
    .addColumn('platform_id', 'text', (c) => c.notNull())
    .addColumn('gym_id', 'bigint', (c) => c.notNull().references('gyms.id'))
    .addColumn('product_id', 'bigint', (c) => c.notNull().references('products.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('checked_in_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('validated_at', 'bigint')
    .addColumn('cancelled_at', 'bigint')
    .$call(createdAt)
    .execute();
  // Validate reads the member's most recent check-in at a gym: this index answers it in one seek.
  await db.schema
    .createIndex('checkins_member_latest')
    .on('checkins')
    .columns(['gym_id', 'platform_id', 'checked_in_at', 'id'])
    .execute();

  await db.schema
    .createTable('custom_codes')
    .addColumn('gym_id', 'bigint', (c) => c.notNull().references('gyms.id'))
    .addColumn('platform_id', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .$call(createdAt)
    .$call(updatedAt)
    .addPrimaryKeyConstraint('custom_codes_pk', ['gym_id', 'platform_id'])
    .execute();

  await db.schema
    .createTable('transactions')
    .addColumn('id', ...serialPrimaryKey(db))
    // One transaction per check-in, held by the database: the last word on double payment.
    .addColumn('checkin_id', 'bigint', (c) => c.notNull().unique().references('checkins.id'))
    .addColumn('partner_id', 'bigint', (c) => c.notNull().references('partners.id'))
    .addColumn('gym_id', 'bigint', (c) => c.notNull().references('gyms.id'))
    .addColumn('product_id', 'bigint', (c) => c.notNull().references('products.id'))
    .addColumn('platform_id', 'text', (c) => c.notNull())
    .addColumn('payout_cents', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('validated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('transactions_gym_validated_at')
    .on('transactions')
    .columns(['gym_id', 'validated_at'])
    .execute();
  await db.schema
    .createIndex('transactions_partner_validated_at')
    .on('transactions')
    .columns(['partner_id', 'validated_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'transactions',
    'custom_codes',
    'checkins',
    'api_key_gyms',
    'api_keys',
    'products',
    'gyms',
    'partners',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
