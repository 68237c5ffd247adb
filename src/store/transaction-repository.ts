import type { Kysely } from 'kysely';
import { isPostgres } from './column-types.js';
import { readHorizon } from './commit-horizon.js';
import type { LedgerTransaction, PayoutLine } from '../domain/entities.js';
import type { FeedPosition, PageRequest } from '../domain/pagination.js';
import type { Database, TransactionRow } from './database.js';

type Db = Kysely<Database>;

export interface TransactionFilter {
  readonly partnerId?: number;
  readonly gymId?: number;
  /** validated_at ≥ from (inclusive) */
  readonly from?: number;
  /** validated_at < to (exclusive) */
  readonly to?: number;
  /** true: only sandbox partners' transactions; otherwise only live ones (sandbox visits are listed apart). */
  readonly sandbox?: boolean;
}

function toTransaction(row: TransactionRow): LedgerTransaction {
  return {
    id: row.id,
    checkinId: row.checkin_id,
    partnerId: row.partner_id,
    gymId: row.gym_id,
    productId: row.product_id,
    platformId: row.platform_id,
    payoutCents: row.payout_cents,
    currency: row.currency,
    validatedAt: row.validated_at,
  };
}

function filtered(db: Db, filter: TransactionFilter) {
  let query = db.selectFrom('transactions');
  if (filter.partnerId !== undefined) query = query.where('transactions.partner_id', '=', filter.partnerId);
  if (filter.gymId !== undefined) query = query.where('transactions.gym_id', '=', filter.gymId);
  if (filter.from !== undefined) query = query.where('transactions.validated_at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('transactions.validated_at', '<', filter.to);
  const sandboxPartners = db.selectFrom('partners').select('partners.id').where('partners.sandbox', '=', 1);
  return query.where('transactions.partner_id', filter.sandbox === true ? 'in' : 'not in', sandboxPartners);
}

export async function listTransactions(
  db: Db,
  filter: TransactionFilter,
  page: PageRequest,
): Promise<LedgerTransaction[]> {
  const rows = await filtered(db, filter)
    .selectAll()
    .where('id', '>', page.afterId)
    .orderBy('id')
    .limit(page.limit + 1)
    .execute();
  return rows.map(toTransaction);
}

/** Inserts a transaction and returns the id the database gave it. */
export async function insertTransaction(db: Db, transaction: Omit<LedgerTransaction, 'id'>): Promise<number> {
  const row = await db
    .insertInto('transactions')
    .values({
      checkin_id: transaction.checkinId,
      partner_id: transaction.partnerId,
      gym_id: transaction.gymId,
      product_id: transaction.productId,
      platform_id: transaction.platformId,
      payout_cents: transaction.payoutCents,
      currency: transaction.currency,
      validated_at: transaction.validatedAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface GymTransaction extends LedgerTransaction {
  readonly productDescription: string;
  readonly commitOrder: number;
}

/**
 * A gym's own visits, with the product's description for the partner's reports, in commit order after `after`:
 * on PostgreSQL only those below the horizon, where no row can commit behind a reader (src/store/commit-horizon.ts).
 */
export async function listGymTransactions(
  db: Db,
  filter: TransactionFilter & { gymId: number },
  after: FeedPosition,
  limit: number,
): Promise<GymTransaction[]> {
  let query = filtered(db, filter);
  if (isPostgres(db)) {
    query = query.where('transactions.commit_order', '<', await readHorizon(db, true));
  }
  const rows = await query
    .innerJoin('products', 'products.id', 'transactions.product_id')
    .selectAll('transactions')
    .select('products.description')
    .where((eb) =>
      eb(
        eb.refTuple('transactions.commit_order', 'transactions.id'),
        '>',
        eb.tuple(after.commitOrder, after.id),
      ),
    )
    .orderBy('transactions.commit_order')
    .orderBy('transactions.id')
    .limit(limit + 1)
    .execute();
  return rows.map((row) => ({
    ...toTransaction(row),
    productDescription: row.description,
    commitOrder: row.commit_order,
  }));
}

export type { PayoutLine };

/** Count and sum of payouts per partner, gym and currency: what the platform owes each gym for a period. */
export async function sumPayouts(db: Db, filter: TransactionFilter): Promise<PayoutLine[]> {
  const rows = await filtered(db, filter)
    .select((eb) => [
      'partner_id',
      'gym_id',
      'currency',
      eb.fn.countAll().as('count'),
      eb.fn.sum<number | string>('payout_cents').as('payout_cents'),
    ])
    .groupBy(['partner_id', 'gym_id', 'currency'])
    .orderBy('partner_id')
    .orderBy('gym_id')
    .orderBy('currency')
    .execute();
  return rows.map((row) => ({
    partnerId: row.partner_id,
    gymId: row.gym_id,
    currency: row.currency,
    count: Number(row.count),
    payoutCents: Number(row.payout_cents),
  }));
}
