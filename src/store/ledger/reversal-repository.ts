import { sql, type Kysely } from 'kysely';
import type { Reversal } from '../../domain/entities.js';
import { isPostgres } from '../column-types.js';
import type { Database } from '../database.js';

type Db = Kysely<Database>;

/** Inserts a reversal with the id the store reserved for it in the transactions' id space (src/store/changes/id-reservation.ts). */
export async function insertReversal(db: Db, reversal: Reversal): Promise<void> {
  await db
    .insertInto('reversals')
    .values({
      id: reversal.id,
      transaction_id: reversal.transactionId,
      partner_id: reversal.partnerId,
      gym_id: reversal.gymId,
      payout_cents: reversal.payoutCents,
      currency: reversal.currency,
      reason: reversal.reason,
      effective_at: reversal.effectiveAt,
      created_by: reversal.createdBy,
    })
    .execute();
  if (!isPostgres(db)) {
    // The next visit's AUTOINCREMENT id must come after this one.
    await sql`update sqlite_sequence set seq = max(seq, ${reversal.id}) where name = 'transactions'`.execute(
      db,
    );
  }
}

/** How much the reversals of a transaction took back, in positive cents. */
export async function reversedCents(db: Db, transactionId: number): Promise<number> {
  const row = await db
    .selectFrom('reversals')
    .select((eb) => eb.fn.sum<number | string | null>('payout_cents').as('total'))
    .where('transaction_id', '=', transactionId)
    .executeTakeFirst();
  return -Number(row?.total ?? 0);
}

/** How much the reversals of each of these visits took back so far, in positive cents (visits never reversed: none). */
export async function reversedCentsOf(
  db: Db,
  transactionIds: readonly number[],
): Promise<Map<number, number>> {
  if (transactionIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('reversals')
    .select((eb) => ['transaction_id', eb.fn.sum<number | string>('payout_cents').as('total')])
    .where('transaction_id', 'in', transactionIds)
    .groupBy('transaction_id')
    .execute();
  return new Map(rows.map((row) => [Number(row.transaction_id), -Number(row.total)]));
}
