import type { Kysely } from 'kysely';
import { classifyCheckin, upsertsCustomCode, type CheckinCondition } from '../domain/checkin-condition.js';
import type { Database } from './database.js';
import { upsertCustomCode } from './custom-code-repository.js';
import type { Store } from './store.js';

export interface ValidationRequest {
  readonly gymId: number;
  readonly platformId: string;
  /** Upserted for the member and gym in every condition but "not found" (product.md §3). */
  readonly customCode: string | undefined;
  readonly now: number;
}

export type ValidationOutcome =
  | {
      readonly condition: 'valid';
      readonly productId: number;
      readonly productDescription: string;
      readonly validatedAt: number;
    }
  | { readonly condition: Exclude<CheckinCondition, 'valid'> };

type Db = Kysely<Database>;

/** Creating and validating check-ins of one member·gym hold this lock, so the daily visit limit holds. */
export function memberLockKey(member: { gymId: number; platformId: string }): string {
  return `member:${member.gymId}:${member.platformId}`;
}

/** The member's most recent check-in at the gym: greatest checked_in_at, ties broken by creation order. */
function latestCheckin(db: Db, gymId: number, platformId: string) {
  return db
    .selectFrom('checkins')
    .innerJoin('products', 'products.id', 'checkins.product_id')
    .innerJoin('gyms', 'gyms.id', 'checkins.gym_id')
    .select([
      'checkins.id',
      'checkins.status',
      'checkins.expires_at',
      'checkins.product_id',
      'products.description',
      'products.payout_cents',
      'products.currency',
      'gyms.partner_id',
    ])
    .where('checkins.gym_id', '=', gymId)
    .where('checkins.platform_id', '=', platformId)
    .orderBy('checkins.checked_in_at', 'desc')
    .orderBy('checkins.id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

async function classifyAndFlip(trx: Db, request: ValidationRequest): Promise<ValidationOutcome> {
  const checkin = await latestCheckin(trx, request.gymId, request.platformId);
  const condition = classifyCheckin(
    checkin && { status: checkin.status, expiresAt: checkin.expires_at },
    request.now,
  );
  if (condition !== 'valid' || checkin === undefined) return { condition } as ValidationOutcome;

  // The conditional update is what makes concurrent validates safe: only one of them flips the row.
  const flipped = await trx
    .updateTable('checkins')
    .set({ status: 'validated', validated_at: request.now })
    .where('id', '=', checkin.id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (flipped.numUpdatedRows === 0n) {
    const current = await latestCheckin(trx, request.gymId, request.platformId);
    const raced = classifyCheckin(
      current && { status: current.status, expiresAt: current.expires_at },
      request.now,
    );
    return { condition: raced === 'valid' ? 'already-validated' : raced };
  }
  await trx
    .insertInto('transactions')
    .values({
      checkin_id: checkin.id,
      partner_id: checkin.partner_id,
      gym_id: request.gymId,
      product_id: checkin.product_id,
      platform_id: request.platformId,
      payout_cents: checkin.payout_cents,
      currency: checkin.currency,
      validated_at: request.now,
    })
    .execute();
  return {
    condition: 'valid',
    productId: checkin.product_id,
    productDescription: checkin.description,
    validatedAt: request.now,
  };
}

/**
 * The validate unit of work through the query builder: classify the check-in, flip it and record its
 * transaction, and upsert the custom code — all in one database transaction. Dialects use it as their
 * `Store.validate`, or replace it with a faster equivalent that must behave the same (SQLite's group commit,
 * PostgreSQL's batched validation, which also falls back to it when a batch fails).
 */
export function runValidation(
  store: Pick<Store, 'write' | 'serialize'>,
  request: ValidationRequest,
): Promise<ValidationOutcome> {
  return store.write(async (trx) => {
    await store.serialize(trx, memberLockKey(request));
    const outcome = await classifyAndFlip(trx, request);
    if (request.customCode !== undefined && upsertsCustomCode(outcome.condition)) {
      await upsertCustomCode(trx, request, request.customCode, request.now);
    }
    return outcome;
  });
}
