import { sandboxPartnerIds } from '../catalog/sandbox-partners.js';
import { sql, type Kysely } from 'kysely';
import type { LedgerEntry } from '../../domain/entities.js';
import type { Database, TransactionRow } from '../database.js';
import { pricingOf } from '../changes/rows.js';

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
  /** One member's entries: found through its check-ins (their member index), not a column of their own. */
  readonly platformId?: string;
  /** Visits only, or reversals only; absent: both. */
  readonly kind?: 'visit' | 'reversal';
}

/** What a branch of the union may be narrowed by, beyond the filter: after or before an id, below a commit order. */
export interface Bounds {
  readonly afterId?: number;
  readonly beforeId?: number;
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
      't.list_cents',
      't.pricing_rule',
      't.rule_version',
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
      // A reversal is priced as what it takes back, under the rule and version of the visit it reverses.
      sql<number | null>`r.payout_cents`.as('list_cents'),
      'v.pricing_rule',
      'v.rule_version',
      sql<number | null>`r.transaction_id`.as('reverses'),
      sql<string | null>`r.reason`.as('reason'),
      'r.commit_order',
    ]);
  if (filter.sandbox !== undefined) {
    const sandboxPartners = sandboxPartnerIds(db);
    const operator = filter.sandbox ? 'in' : 'not in';
    visits = visits.where('t.partner_id', operator, sandboxPartners);
    reversals = reversals.where('r.partner_id', operator, sandboxPartners);
  }
  if (filter.platformId !== undefined) {
    const memberCheckins = db
      .selectFrom('checkins')
      .select('id')
      .where('platform_id', '=', filter.platformId);
    visits = visits.where('t.checkin_id', 'in', memberCheckins);
    reversals = reversals.where('v.checkin_id', 'in', memberCheckins);
  }
  if (filter.kind === 'visit') reversals = reversals.where(sql<boolean>`1 = 0`);
  if (filter.kind === 'reversal') visits = visits.where(sql<boolean>`1 = 0`);
  // Each narrowing as [value, operator, the visit's column, the reversal's column]; absent values narrow nothing.
  const narrowings = [
    [filter.partnerId, '=', 't.partner_id', 'r.partner_id'],
    [filter.gymId, '=', 't.gym_id', 'r.gym_id'],
    [filter.from, '>=', 't.validated_at', 'r.effective_at'],
    [filter.to, '<', 't.validated_at', 'r.effective_at'],
    [bounds.afterId, '>', 't.id', 'r.id'],
    [bounds.beforeId, '<', 't.id', 'r.id'],
    [bounds.below, '<', 't.commit_order', 'r.commit_order'],
  ] as const;
  for (const [value, operator, visitColumn, reversalColumn] of narrowings) {
    if (value === undefined) continue;
    visits = visits.where(visitColumn, operator, value);
    reversals = reversals.where(reversalColumn, operator, value);
  }
  return db.selectFrom(visits.unionAll(reversals).as('e'));
}

/** A row of the union: a transaction's columns, and what a reversal adds. */
export type EntryRow = Omit<TransactionRow, 'commit_order'> & {
  kind: string;
  effective_at: number;
  reverses: number | string | null;
  reason: string | null;
};

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
    pricing: pricingOf(row),
  };
}
