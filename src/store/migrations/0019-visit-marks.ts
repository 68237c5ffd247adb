import type { Kysely } from 'kysely';

/**
 * A visit priced under payout rules is counted toward the member's monthly cap on its own check-in: the month and
 * the rules' scope (0 for the partner's, else the gym's own) it was counted under. The check-in's row is written by
 * the validation anyway, where the member's counter row of `payout_counters` was one more row written per priced
 * visit, at its own place in that table's index. A member's visits of a month are their marked check-ins (found by
 * the member's index by expiry: a check-in is validated before it expires) plus what their counter row holds from
 * before every process marked. Both columns are null on a check-in counted under no rule.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('checkins').addColumn('counted_month', 'text').execute();
  await db.schema.alterTable('checkins').addColumn('counted_scope', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('checkins').dropColumn('counted_scope').execute();
  await db.schema.alterTable('checkins').dropColumn('counted_month').execute();
}
