import { sql, type Kysely } from 'kysely';
import { STAT_BUCKETS, type StatPeriod, type StatRow } from '../../domain/validation-stats.js';
import { sandboxPartnerIds } from '../catalog/sandbox-partners.js';
import type { Database } from '../database.js';

type Db = Kysely<Database>;

/**
 * The live network's validations in [from, to) — a sandbox partner's visits are never money, so never counted —
 * counted and summed per bucket, gym and currency. The bucket is integer arithmetic on
 * epoch milliseconds, the same on both dialects; the grouping stays in the database however many rows there are.
 */
export async function countValidations(
  db: Db,
  period: StatPeriod,
  filter: { partnerId?: number; gymId?: number },
): Promise<StatRow[]> {
  const size = STAT_BUCKETS[period.bucket];
  // Literals, not parameters: PostgreSQL groups by the select's expression only when both read the same text. Both
  // are integers computed here, never text from a request.
  const bucket = sql<
    number | string
  >`(${sql.ref('validated_at')} - ${sql.lit(period.from)}) / ${sql.lit(size)}`;
  let query = db
    .selectFrom('transactions')
    .select((eb) => [
      bucket.as('bucket_index'),
      'gym_id',
      'currency',
      eb.fn.countAll<number | string>().as('count'),
      eb.fn.sum<number | string>('payout_cents').as('payout_cents'),
    ])
    .where('validated_at', '>=', period.from)
    .where('validated_at', '<', period.to)
    .where('partner_id', 'not in', sandboxPartnerIds(db));
  if (filter.partnerId !== undefined) query = query.where('partner_id', '=', filter.partnerId);
  if (filter.gymId !== undefined) query = query.where('gym_id', '=', filter.gymId);
  const rows = await query.groupBy([bucket, 'gym_id', 'currency']).execute();
  return rows.map((row) => ({
    bucketIndex: Math.floor(Number(row.bucket_index)),
    gymId: row.gym_id,
    currency: row.currency,
    count: Number(row.count),
    payoutCents: Number(row.payout_cents),
  }));
}
