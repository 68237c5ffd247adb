import type { Kysely } from 'kysely';
import { createdAt, serialPrimaryKey } from '../column-types.js';

/**
 * Plans (what a member may use) and payout rules (what a gym is paid), both kept as versions that take effect from
 * an instant, never retroactively; members' plans with their history; and each product's category. Only added: a
 * process of the previous release reads none of it and decides as before, and a member with no plan (while no
 * default plan is set) is decided as before by this release too.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('products')
    .addColumn('category', 'text', (c) => c.notNull().defaultTo('standard'))
    .execute();
  // The plan and version a check-in was decided under; null for members with none.
  await db.schema.alterTable('checkins').addColumn('plan_id', 'bigint').execute();
  await db.schema.alterTable('checkins').addColumn('plan_version', 'integer').execute();
  await db.schema
    .createTable('plans')
    .addColumn('id', ...serialPrimaryKey(db))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .$call(createdAt)
    .execute();
  await db.schema
    .createTable('plan_versions')
    .addColumn('plan_id', 'bigint', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    // JSON: [{category, per, limit, scope}]
    .addColumn('rules', 'text', (c) => c.notNull())
    .addColumn('effective_from', 'bigint', (c) => c.notNull())
    .$call(createdAt)
    .addPrimaryKeyConstraint('plan_versions_pk', ['plan_id', 'version'])
    .execute();
  await db.schema
    .createTable('member_plans')
    .addColumn('id', ...serialPrimaryKey(db))
    .addColumn('platform_id', 'text', (c) => c.notNull())
    .addColumn('plan_id', 'bigint', (c) => c.notNull())
    .addColumn('effective_from', 'bigint', (c) => c.notNull())
    .$call(createdAt)
    .execute();
  await db.schema
    .createIndex('member_plans_member')
    .on('member_plans')
    .columns(['platform_id', 'effective_from'])
    .execute();
  // A plan counts the member's visits at every gym: their check-ins are found by member alone.
  await db.schema.createIndex('checkins_member').on('checkins').column('platform_id').execute();
  // The processes on the database and the release each runs (its newest migration), kept alive by a heartbeat:
  // plans take effect only once every live process knows them.
  await db.schema
    .createTable('processes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('newest_migration', 'text', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('heartbeat_at', 'bigint', (c) => c.notNull())
    .execute();
  // One owner's versions: a partner's (gym_id 0) or one gym's override (gym_id set).
  await db.schema
    .createTable('payout_rules')
    .addColumn('partner_id', 'bigint', (c) => c.notNull())
    .addColumn('gym_id', 'bigint', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('monthly_paid_visits_per_member', 'integer')
    // JSON: [{after_cents, rate_pct}]
    .addColumn('tiers', 'text', (c) => c.notNull())
    .addColumn('effective_from', 'bigint', (c) => c.notNull())
    .$call(createdAt)
    .addPrimaryKeyConstraint('payout_rules_pk', ['partner_id', 'gym_id', 'version'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('payout_rules').execute();
  await db.schema.dropTable('processes').execute();
  await db.schema.dropIndex('checkins_member').execute();
  await db.schema.dropTable('member_plans').execute();
  await db.schema.dropTable('plan_versions').execute();
  await db.schema.dropTable('plans').execute();
  await db.schema.alterTable('products').dropColumn('category').execute();
  await db.schema.alterTable('checkins').dropColumn('plan_version').execute();
  await db.schema.alterTable('checkins').dropColumn('plan_id').execute();
}
