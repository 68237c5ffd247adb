import { sql, type Kysely } from 'kysely';
import type { ChangeKind, ChangeRequest, ChangeState } from '../../domain/changes.js';
import { RECENT_VALIDATIONS_MS } from '../../domain/decisions/checkin.js';
import { findGym, findProduct } from '../catalog/catalog-repository.js';
import { findCheckin, validationsBetween } from '../access/checkin-repository.js';
import { checkinsAtGyms } from '../access/checkins-at-gyms.js';
import { findCustomCode } from '../members/custom-code-repository.js';
import { USAGE_LOOKBACK_MS } from '../../domain/plans/admission.js';
import { memberPlanVersionAt, planUsage } from '../plans/plan-repository.js';
import type { Database } from '../database.js';
import { followsPartnerOrder, payoutLockKey } from '../../domain/plans/pricing.js';
import { readCounts } from '../plans/payout-counter-repository.js';
import { reserveId, reservedTransactionId } from './id-reservation.js';
import { memberLockKeys } from './member-lock.js';
import { latestFirst, literal } from './rule-sql.js';
import { toLatestCheckin, toReservedId, type LatestCheckinRow } from './rows.js';
import { reversedCents } from '../ledger/reversal-repository.js';
import { findTransaction } from '../ledger/transaction-repository.js';

type Db = Kysely<Database>;

/** Where a change reads: its write transaction, and the lock that serialises changes of one member·gym. */
export interface ReadContext {
  readonly trx: Db;
  readonly postgres: boolean;
  readonly lock: (key: string) => Promise<void>;
}

type Reader<K extends ChangeKind> = (ctx: ReadContext, request: ChangeRequest<K>) => Promise<ChangeState<K>>;

/**
 * The member's most recent check-in at the gym (greatest checked_in_at, ties broken by creation order), with the
 * id its validation's transaction would take.
 */
async function latestCheckin(
  db: Db,
  postgres: boolean,
  request: { gymId: number; platformId: string; now: number },
): Promise<LatestCheckinRow | undefined> {
  const reserved = reservedTransactionId(postgres, 'checkins', literal(request.now));
  return checkinsAtGyms(db)
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
      sql<number | string | null>`${sql.raw(reserved)}`.as('transaction_id'),
    ])
    .where('checkins.gym_id', '=', request.gymId)
    .where('checkins.platform_id', '=', request.platformId)
    .orderBy(sql.raw(latestFirst('checkins')))
    .limit(1)
    .executeTakeFirst();
}

/** Takes a member·gym's locks (member-lock.ts), in their one order. */
async function lockMember(ctx: ReadContext, member: { gymId: number; platformId: string }): Promise<void> {
  for (const key of memberLockKeys(member)) await ctx.lock(key);
}

async function codeState(ctx: ReadContext, key: { gymId: number; platformId: string }) {
  await lockMember(ctx, key);
  const [existing, gym] = [await findCustomCode(ctx.trx, key), await findGym(ctx.trx, key.gymId)];
  return { existing, partnerId: gym?.partnerId };
}

/** What each state change reads, through the query builder, before its decision. */
export const readers: { [K in ChangeKind]: Reader<K> } = {
  async validate(ctx, request) {
    await lockMember(ctx, request);
    const terms = request.pricing;
    // Where tiers read the partner's paid total, its visits follow the partner's commit order under its lock, taken
    // before anything that can give this transaction its id (the reservation below may: a sequence that logs does),
    // so that the ids, which are the ledger's commit order on PostgreSQL, follow the lock's order.
    if (terms !== undefined && followsPartnerOrder(terms)) await ctx.lock(payoutLockKey(terms.partnerId));
    const row = await latestCheckin(ctx.trx, ctx.postgres, request);
    const latest = row && toLatestCheckin(row);
    // The code before matters only where one may be stored: a request that carries one, for a member with a
    // check-in (was it created or updated?).
    const stores = request.customCode !== undefined && latest !== undefined;
    const code = stores ? await findCustomCode(ctx.trx, request) : undefined;
    const transactionId = toReservedId(row?.transaction_id ?? null);
    // Counts matter only to a visit that will be priced.
    if (terms === undefined || transactionId === undefined)
      return { latest, code: code?.code, transactionId };
    const counts = await readCounts(ctx.trx, terms, request.platformId, request.now);
    return { latest, code: code?.code, transactionId, counts };
  },

  async 'create-checkin'(ctx, request) {
    await lockMember(ctx, request);
    const gym = await findGym(ctx.trx, request.gymId);
    const product = await findProduct(ctx.trx, request.productId);
    const version = request.plans
      ? await memberPlanVersionAt(ctx.trx, request.platformId, request.now, request.defaultPlan)
      : undefined;
    const plan = version && {
      version,
      usage: await planUsage(ctx.trx, request.platformId, request.now - USAGE_LOOKBACK_MS, request.now),
    };
    // A plan decides instead of the daily visit limit: its validations at the gym are not needed then.
    const recentValidations =
      plan === undefined
        ? await validationsBetween(
            ctx.trx,
            request,
            request.now - RECENT_VALIDATIONS_MS,
            request.now + RECENT_VALIDATIONS_MS,
          )
        : [];
    const checkinId = await reserveId(ctx.trx, ctx.postgres, 'checkins');
    return {
      gym: gym && { partnerId: gym.partnerId, timezone: gym.timezone, retired: gym.retiredAt !== null },
      product: product && {
        id: product.id,
        gymId: product.gymId,
        description: product.description,
        retired: product.retiredAt !== null,
        category: product.category,
      },
      plan,
      recentValidations,
      checkinId,
    };
  },

  async 'cancel-checkin'(ctx, request) {
    const seen = await findCheckin(ctx.trx, request.checkinId);
    if (seen === undefined) return { checkin: undefined };
    // Read again under the member's lock: a validation of the same check-in may have committed meanwhile.
    await lockMember(ctx, seen);
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
      reversalId: await reserveId(ctx.trx, ctx.postgres, 'transactions'),
    };
  },
};
