import { sql, type Kysely } from 'kysely';
import type { LedgerEntry } from '../../domain/entities.js';
import type { Database } from '../database.js';

type Db = Kysely<Database>;

/** Which entries a report reads: by partner, gym, and when they are effective ([from, to)). */
export interface EntryFilter {
  readonly partnerId?: number;
  readonly gymId?: number;
  /** effective_at ≥ from (inclusive) */
  readonly from?: number;
  /** effective_at < to (exclusive) */
  readonly to?: number;
  /** true: only sandbox partners' entries; false: only live partners'; absent: both (a partner's own feed). */
  readonly sandbox?: boolean;
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
  const { partnerId, gymId, from, to, sandbox } = filter;
  if (sandbox !== undefined) {
    const sandboxPartners = db.selectFrom('partners').select('partners.id').where('partners.sandbox', '=', 1);
    visits = visits.where('t.partner_id', sandbox ? 'in' : 'not in', sandboxPartners);
    reversals = reversals.where('r.partner_id', sandbox ? 'in' : 'not in', sandboxPartners);
  }
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

export interface EntryRow {
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

export function toEntry(row: EntryRow): LedgerEntry {
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
