import { sql, type Kysely } from 'kysely';

/**
 * Every visit keeps how it was priced: its list price, the rule that made the difference (list, monthly-cap,
 * volume-tier) and the payout rules' version; `payout_cents` stays the amount paid, so payouts, settlements, stats
 * and exports follow what was paid. A reversal is priced as the visit it reverses (it names it). Existing visits
 * were paid their list price under no rule. `list_cents` stays nullable: a process of the previous release inserts
 * none, and a visit without one was paid its list price.
 *
 * The month's counters the rules are decided from, kept in the transaction of each visit they price: per
 * partner·month the paid total (gym_id 0, platform_id ''), and per member·scope·month the visits (scope: gym_id 0
 * for the partner's rules, a gym's id for its own).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('transactions').addColumn('list_cents', 'bigint').execute();
  await db.schema
    .alterTable('transactions')
    .addColumn('pricing_rule', 'text', (c) => c.notNull().defaultTo('list'))
    .execute();
  await db.schema.alterTable('transactions').addColumn('rule_version', 'integer').execute();
  await sql`update transactions set list_cents = payout_cents`.execute(db);
  await db.schema
    .createTable('payout_counters')
    .addColumn('partner_id', 'bigint', (c) => c.notNull())
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('gym_id', 'bigint', (c) => c.notNull())
    .addColumn('platform_id', 'text', (c) => c.notNull())
    .addColumn('visits', 'integer', (c) => c.notNull())
    .addColumn('paid_cents', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('payout_counters_pk', ['partner_id', 'month', 'gym_id', 'platform_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('payout_counters').execute();
  await db.schema.alterTable('transactions').dropColumn('rule_version').execute();
  await db.schema.alterTable('transactions').dropColumn('pricing_rule').execute();
  await db.schema.alterTable('transactions').dropColumn('list_cents').execute();
}
