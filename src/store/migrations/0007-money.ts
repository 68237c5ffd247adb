import { sql, type Kysely } from 'kysely';
import { createdAt, isPostgres, serialPrimaryKey } from '../column-types.js';

/**
 * Money over time: each gym's time zone, retired gyms and products, offboarded partners, reversals (ledger entries
 * that correct a visit, never an edit of it) and settlements (closed periods, with the entries each holds).
 *
 * A reversal's id comes from the transactions' id space, so the ledger and the partner feed list visits and
 * reversals in one order by id without two rows ever sharing one (src/store/ledger/reversal-repository.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  // null: the server's GATEHOUSE_TIMEZONE, as every gym had before.
  await db.schema.alterTable('gyms').addColumn('timezone', 'text').execute();
  await db.schema.alterTable('gyms').addColumn('retired_at', 'bigint').execute();
  await db.schema.alterTable('products').addColumn('retired_at', 'bigint').execute();
  await db.schema.alterTable('partners').addColumn('offboarded_at', 'bigint').execute();

  await db.schema
    .createTable('reversals')
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('transaction_id', 'bigint', (c) => c.notNull().references('transactions.id'))
    .addColumn('partner_id', 'bigint', (c) => c.notNull())
    .addColumn('gym_id', 'bigint', (c) => c.notNull())
    // Negative: what the reversal takes back of the visit's amount.
    .addColumn('payout_cents', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('effective_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    // As transactions.commit_order: the partner feed follows both in commit order (src/store/commit-horizon.ts).
    .addColumn('commit_order', 'bigint', (c) =>
      c.notNull().defaultTo(isPostgres(db) ? sql`(pg_current_xact_id()::text::bigint)` : 0),
    )
    .execute();
  await db.schema.createIndex('reversals_transaction_id').on('reversals').column('transaction_id').execute();
  await db.schema
    .createIndex('reversals_gym_effective_at')
    .on('reversals')
    .columns(['gym_id', 'effective_at'])
    .execute();
  await db.schema
    .createIndex('reversals_partner_effective_at')
    .on('reversals')
    .columns(['partner_id', 'effective_at'])
    .execute();

  await db.schema
    .createTable('settlements')
    .addColumn('id', ...serialPrimaryKey(db))
    .addColumn('partner_id', 'bigint', (c) => c.notNull().references('partners.id'))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('period_start', 'bigint', (c) => c.notNull())
    .addColumn('period_end', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('total_cents', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .$call(createdAt)
    .addColumn('paid_at', 'bigint')
    .addColumn('paid_reference', 'text')
    .addColumn('paid_by', 'text')
    .execute();
  // Closing a period again finds the settlement it made the first time.
  await db.schema
    .createIndex('settlements_period')
    .on('settlements')
    .columns(['partner_id', 'currency', 'period_start', 'period_end'])
    .unique()
    .execute();

  // An entry (a visit's transaction or a reversal: one id space) belongs to at most one settlement, held here.
  await db.schema
    .createTable('settlement_entries')
    .addColumn('entry_id', 'bigint', (c) => c.primaryKey())
    .addColumn('settlement_id', 'bigint', (c) => c.notNull().references('settlements.id'))
    .addColumn('gym_id', 'bigint', (c) => c.notNull())
    .addColumn('payout_cents', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('settlement_entries_settlement_id')
    .on('settlement_entries')
    .column('settlement_id')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('settlement_entries').execute();
  await db.schema.dropTable('settlements').execute();
  await db.schema.dropTable('reversals').execute();
  await db.schema.alterTable('partners').dropColumn('offboarded_at').execute();
  await db.schema.alterTable('products').dropColumn('retired_at').execute();
  await db.schema.alterTable('gyms').dropColumn('retired_at').execute();
  await db.schema.alterTable('gyms').dropColumn('timezone').execute();
}
