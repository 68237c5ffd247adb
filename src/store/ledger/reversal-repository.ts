import { sql, type Kysely } from 'kysely';
import type { Reversal } from '../../domain/entities.js';
import { isPostgres } from '../column-types.js';
import type { Database } from '../database.js';

type Db = Kysely<Database>;

/**
 * Reserves the id of a new reversal in the transactions' id space, so a visit and a reversal never share an id and
 * the ledger lists both in one id order. PostgreSQL: the transactions' own sequence. SQLite (the caller holds the
 * write lock): one past the greatest id either table ever had; the insert moves the transactions' AUTOINCREMENT
 * counter past it (insertReversal).
 */
export async function reserveEntryId(db: Db, postgres: boolean): Promise<number> {
  const query = postgres
    ? sql<{ id: number }>`select nextval(pg_get_serial_sequence('transactions', 'id')) as id`
    : sql<{ id: number }>`select max(
        coalesce((select seq from sqlite_sequence where name = 'transactions'), 0),
        coalesce((select max(id) from reversals), 0)) + 1 as id`;
  const { rows } = await query.execute(db);
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('no ledger entry id could be reserved');
  return Number(id);
}

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
