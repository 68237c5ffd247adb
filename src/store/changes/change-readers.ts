import type { Kysely } from 'kysely';
import type { ChangeKind, ChangeRequest, ChangeState } from '../../domain/changes.js';
import type { LatestCheckin } from '../../domain/decisions/validation.js';
import { RECENT_VALIDATIONS_MS } from '../../domain/decisions/checkin.js';
import { findGym, findProduct } from '../catalog/catalog-repository.js';
import { findCheckin, validationsBetween } from '../access/checkin-repository.js';
import { findCustomCode } from '../members/custom-code-repository.js';
import type { Database } from '../database.js';
import { reserveId } from './id-reservation.js';
import { memberLockKey } from './member-lock.js';
import { toLatestCheckin } from './rows.js';
import { reserveEntryId, reversedCents } from '../ledger/reversal-repository.js';
import { findTransaction } from '../ledger/transaction-repository.js';

type Db = Kysely<Database>;

/** Where a change reads: its write transaction, and the lock that serialises changes of one member·gym. */
export interface ReadContext {
  readonly trx: Db;
  readonly postgres: boolean;
  readonly lock: (key: string) => Promise<void>;
}

type Reader<K extends ChangeKind> = (ctx: ReadContext, request: ChangeRequest<K>) => Promise<ChangeState<K>>;

/** The member's most recent check-in at the gym: greatest checked_in_at, ties broken by creation order. */
export async function latestCheckin(
  db: Db,
  gymId: number,
  platformId: string,
): Promise<LatestCheckin | undefined> {
  const row = await db
    .selectFrom('checkins')
    .innerJoin('products', 'products.id', 'checkins.product_id')
    .innerJoin('gyms', 'gyms.id', 'checkins.gym_id')
    .select([
      'checkins.id',
      'checkins.status',
      'checkins.checked_in_at',
      'checkins.expires_at',
      'checkins.product_id',
      'checkins.member',
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
  return row && toLatestCheckin(row);
}

async function codeState(ctx: ReadContext, key: { gymId: number; platformId: string }) {
  await ctx.lock(memberLockKey(key));
  const [existing, gym] = [await findCustomCode(ctx.trx, key), await findGym(ctx.trx, key.gymId)];
  return { existing, partnerId: gym?.partnerId };
}

/** What each state change reads, through the query builder, before its decision. */
export const readers: { [K in ChangeKind]: Reader<K> } = {
  async validate(ctx, request) {
    await ctx.lock(memberLockKey(request));
    const latest = await latestCheckin(ctx.trx, request.gymId, request.platformId);
    // The code before matters only where one may be stored: a request that carries one, for a member with a
    // check-in (was it created or updated?).
    const stores = request.customCode !== undefined && latest !== undefined;
    const code = stores ? await findCustomCode(ctx.trx, request) : undefined;
    return { latest, code: code?.code };
  },

  async 'create-checkin'(ctx, request) {
    await ctx.lock(memberLockKey(request));
    const gym = await findGym(ctx.trx, request.gymId);
    const product = await findProduct(ctx.trx, request.productId);
    const recentValidations = await validationsBetween(
      ctx.trx,
      request,
      request.now - RECENT_VALIDATIONS_MS,
      request.now + RECENT_VALIDATIONS_MS,
    );
    const checkinId = await reserveId(ctx.trx, ctx.postgres, 'checkins');
    return {
      gym: gym && { partnerId: gym.partnerId, timezone: gym.timezone, retired: gym.retiredAt !== null },
      product: product && {
        id: product.id,
        gymId: product.gymId,
        description: product.description,
        retired: product.retiredAt !== null,
      },
      recentValidations,
      checkinId,
    };
  },

  async 'cancel-checkin'(ctx, request) {
    const seen = await findCheckin(ctx.trx, request.checkinId);
    if (seen === undefined) return { checkin: undefined };
    // Read again under the member's lock: a validation of the same check-in may have committed meanwhile.
    await ctx.lock(memberLockKey(seen));
    const checkin = await findCheckin(ctx.trx, request.checkinId);
    if (checkin === undefined) return { checkin: undefined };
    const [gym, product] = [
      await findGym(ctx.trx, checkin.gymId),
      await findProduct(ctx.trx, checkin.productId),
    ];
    if (gym === undefined || product === undefined)
      throw new Error(`check-in ${checkin.id} lost its gym or product`);
    return {
      checkin: {
        ...checkin,
        partnerId: gym.partnerId,
        product: { id: product.id, description: product.description },
      },
    };
  },

  'create-code': codeState,
  'update-code': codeState,
  'delete-code': codeState,

  async 'reverse-transaction'(ctx, request) {
    // Every reversal of one transaction holds its lock: two cannot both see the same amount left.
    await ctx.lock(`transaction:${request.transactionId}`);
    const transaction = await findTransaction(ctx.trx, request.transactionId);
    if (transaction === undefined) return { transaction, reversedCents: 0, reversalId: 0 };
    return {
      transaction,
      reversedCents: await reversedCents(ctx.trx, transaction.id),
      reversalId: await reserveEntryId(ctx.trx, ctx.postgres),
    };
  },
};
