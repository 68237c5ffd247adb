import type { Kysely } from 'kysely';
import type { LedgerTransaction } from '../../domain/entities.js';
import { pricingOf, transactionRow } from '../changes/rows.js';
import type { Database, TransactionRow } from '../database.js';

type Db = Kysely<Database>;

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
    pricing: pricingOf(row),
  };
}

/** A visit's transaction by id. */
export async function findTransaction(db: Db, id: number): Promise<LedgerTransaction | undefined> {
  const row = await db.selectFrom('transactions').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toTransaction(row);
}

/** Inserts a visit's transaction with the id the store reserved for it (src/store/changes/id-reservation.ts). */
export async function insertTransaction(db: Db, transaction: LedgerTransaction): Promise<void> {
  await db.insertInto('transactions').values(transactionRow(transaction)).execute();
}
