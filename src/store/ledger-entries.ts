import { sql, type Kysely } from 'kysely';
import type { LedgerEntry, PayoutLine } from '../domain/entities.js';
import type { FeedPosition, PageRequest } from '../domain/pagination.js';
import { isPostgres } from './column-types.js';
import { readHorizon } from './commit-horizon.js';
import type { Database } from './database.js';

type Db = Kysely<Database>;

/** Which entries a report reads: by partner, gym, and when they are effective ([from, to)). */
export interface EntryFilter {
  readonly partnerId?: number;
  readonly gymId?: number;
  /** effective_at ≥ from (inclusive) */
  readonly from?: number;
  /** effective_at < to (exclusive) */
  readonly to?: number;
}

/** What a branch of the union may be narrowed by, beyond the filter: after an id, below a commit order. */
export interface Bounds {
  readonly afterId?: number;
  readonly below?: number;
}

/**
 * The ledger's entries as one relation: every visit (a transaction, effective at its validated_at) and every
 * reversal (with its visit's check-in, member, product and validated_at). Each branch is filtered on its own
 * indexed columns before the union.
 */
export function ledgerEntries(db: Db, filter: EntryFilter, bounds: Bounds) {
  let visits = db
    .selectFrom('transactions as t')
    .select([
      't.id',
      sql<string>`'visit'`.as('kind'),
      't.checkin_id',
      't.partner_id',
      't.gym_id',
      't.product_id',
      't.platform_id',
      't.payout_cents',
      't.currency',
      't.validated_at',
      't.validated_at as effective_at',
      sql<number | null>`cast(null as bigint)`.as('reverses'),
      sql<string | null>`cast(null as text)`.as('reason'),
      't.commit_order',
    ]);
  let reversals = db
    .selectFrom('reversals as r')
    .innerJoin('transactions as v', 'v.id', 'r.transaction_id')
    .select([
      'r.id',
      sql<string>`'reversal'`.as('kind'),
      'v.checkin_id',
      'r.partner_id',
      'r.gym_id',
      'v.product_id',
      'v.platform_id',
      'r.payout_cents',
      'r.currency',
      'v.validated_at',
      'r.effective_at',
      sql<number | null>`r.transaction_id`.as('reverses'),
      sql<string | null>`r.reason`.as('reason'),
      'r.commit_order',
    ]);
  const { partnerId, gymId, from, to } = filter;
  if (partnerId !== undefined) {
    visits = visits.where('t.partner_id', '=', partnerId);
    reversals = reversals.where('r.partner_id', '=', partnerId);
  }
  if (gymId !== undefined) {
    visits = visits.where('t.gym_id', '=', gymId);
    reversals = reversals.where('r.gym_id', '=', gymId);
  }
  if (from !== undefined) {
    visits = visits.where('t.validated_at', '>=', from);
    reversals = reversals.where('r.effective_at', '>=', from);
  }
  if (to !== undefined) {
    visits = visits.where('t.validated_at', '<', to);
    reversals = reversals.where('r.effective_at', '<', to);
  }
  if (bounds.afterId !== undefined) {
    visits = visits.where('t.id', '>', bounds.afterId);
    reversals = reversals.where('r.id', '>', bounds.afterId);
  }
  if (bounds.below !== undefined) {
    visits = visits.where('t.commit_order', '<', bounds.below);
    reversals = reversals.where('r.commit_order', '<', bounds.below);
  }
  return db.selectFrom(visits.unionAll(reversals).as('e'));
}

interface EntryRow {
  id: number;
  kind: string;
  checkin_id: number;
  partner_id: number;
  gym_id: number;
  product_id: number;
  platform_id: string;
  payout_cents: number;
  currency: string;
  validated_at: number;
  effective_at: number;
  reverses: number | string | null;
  reason: string | null;
}

function toEntry(row: EntryRow): LedgerEntry {
  return {
    id: Number(row.id),
    kind: row.kind === 'reversal' ? 'reversal' : 'visit',
    checkinId: Number(row.checkin_id),
    partnerId: Number(row.partner_id),
    gymId: Number(row.gym_id),
    productId: Number(row.product_id),
    platformId: row.platform_id,
    payoutCents: Number(row.payout_cents),
    currency: row.currency,
    validatedAt: Number(row.validated_at),
    effectiveAt: Number(row.effective_at),
    reverses: row.reverses === null ? null : Number(row.reverses),
    reason: row.reason,
  };
}

/** The admin ledger: entries in id order after the page's cursor. */
export async function listEntries(db: Db, filter: EntryFilter, page: PageRequest): Promise<LedgerEntry[]> {
  const rows = await ledgerEntries(db, filter, { afterId: page.afterId })
    .selectAll()
    .orderBy('e.id')
    .limit(page.limit + 1)
    .execute();
  return rows.map(toEntry);
}

/** The entries a settlement holds, in id order; `gymIds` narrows them to the gyms a key may see. */
export async function settlementEntries(
  db: Db,
  settlementId: number,
  gymIds?: readonly number[],
): Promise<DescribedEntry[]> {
  let query = ledgerEntries(db, {}, {})
    .innerJoin('settlement_entries as s', 's.entry_id', 'e.id')
    .innerJoin('products', 'products.id', 'e.product_id')
    .selectAll('e')
    .select('products.description')
    .where('s.settlement_id', '=', settlementId);
  if (gymIds !== undefined) query = query.where('e.gym_id', 'in', gymIds.length === 0 ? [0] : gymIds);
  const rows = await query.orderBy('e.id').execute();
  return rows.map((row) => ({ ...toEntry(row), productDescription: row.description }));
}

/** An entry with its product's description, for the partner's reports. */
export interface DescribedEntry extends LedgerEntry {
  readonly productDescription: string;
}

export interface GymEntry extends DescribedEntry {
  readonly commitOrder: number;
}

/**
 * A gym's own entries, visits and reversals, with the product's description for the partner's reports, in commit
 * order after `after`: on PostgreSQL only those below the horizon, where no row can commit behind a reader
 * (src/store/commit-horizon.ts).
 */
export async function listGymEntries(
  db: Db,
  filter: EntryFilter & { gymId: number },
  after: FeedPosition,
  limit: number,
): Promise<GymEntry[]> {
  const below = isPostgres(db) ? await readHorizon(db, true) : undefined;
  const rows = await ledgerEntries(db, filter, below === undefined ? {} : { below })
    .innerJoin('products', 'products.id', 'e.product_id')
    .selectAll('e')
    .select('products.description')
    .where((eb) => eb(eb.refTuple('e.commit_order', 'e.id'), '>', eb.tuple(after.commitOrder, after.id)))
    .orderBy('e.commit_order')
    .orderBy('e.id')
    .limit(limit + 1)
    .execute();
  return rows.map((row) => ({
    ...toEntry(row),
    productDescription: row.description,
    commitOrder: Number(row.commit_order),
  }));
}

/**
 * Per partner, gym and currency: the visits, the reversal entries, and the sum of every entry's amount — what
 * the platform owes each gym for the entries effective in a period.
 */
export async function sumPayouts(db: Db, filter: EntryFilter): Promise<PayoutLine[]> {
  const rows = await ledgerEntries(db, filter, {})
    .select((eb) => [
      'e.partner_id',
      'e.gym_id',
      'e.currency',
      eb.fn.sum<number | string>(sql`case when e.kind = 'visit' then 1 else 0 end`).as('count'),
      eb.fn.sum<number | string>(sql`case when e.kind = 'reversal' then 1 else 0 end`).as('reversals'),
      eb.fn.sum<number | string>('e.payout_cents').as('payout_cents'),
    ])
    .groupBy(['e.partner_id', 'e.gym_id', 'e.currency'])
    .orderBy('e.partner_id')
    .orderBy('e.gym_id')
    .orderBy('e.currency')
    .execute();
  return rows.map((row) => ({
    partnerId: Number(row.partner_id),
    gymId: Number(row.gym_id),
    currency: row.currency,
    count: Number(row.count),
    reversals: Number(row.reversals),
    payoutCents: Number(row.payout_cents),
  }));
}
