import { sql, type Kysely } from 'kysely';
import type { LedgerEntry, PayoutLine } from '../../domain/entities.js';
import type { FeedPosition, PageRequest } from '../../domain/pagination.js';
import { isPostgres } from '../column-types.js';
import { readHorizon } from '../commit-horizon.js';
import type { Database } from '../database.js';
import { ledgerEntries, toEntry, type Bounds, type EntryFilter, type EntryRow } from './ledger-entries.js';

type Db = Kysely<Database>;

/** What every report reads of the ledger's entries (src/store/ledger/ledger-entries.ts): lists, the feed, sums. */

/** The admin ledger: entries in id order after the page's cursor, or before it newest first. */
export async function listEntries(db: Db, filter: EntryFilter, page: PageRequest): Promise<LedgerEntry[]> {
  const rows = await ledgerEntries(db, filter, idBounds(page))
    .selectAll()
    .orderBy('e.id', page.order === 'desc' ? 'desc' : 'asc')
    .limit(page.limit + 1)
    .execute();
  return rows.map(toEntry);
}

/** The ids a page reads: after its cursor oldest first; before it newest first, from the newest when it is 0. */
function idBounds(page: PageRequest): Bounds {
  if (page.order !== 'desc') return { afterId: page.afterId };
  return page.afterId > 0 ? { beforeId: page.afterId } : {};
}

/** The entries a settlement holds, in id order; `gymIds` narrows them to the gyms a key may see. */
export async function settlementEntries(
  db: Db,
  settlementId: number,
  gymIds?: readonly number[],
): Promise<DescribedEntry[]> {
  let query = describedEntries(db, {}, {})
    .innerJoin('settlement_entries as s', 's.entry_id', 'e.id')
    .where('s.settlement_id', '=', settlementId);
  if (gymIds !== undefined) query = query.where('e.gym_id', 'in', gymIds.length === 0 ? [0] : gymIds);
  const rows = await query.orderBy('e.id').execute();
  return rows.map((row) => ({ ...toEntry(row), productDescription: row.description }));
}

/** An entry with its product's description, for the partner's reports. */
export interface DescribedEntry extends LedgerEntry {
  readonly productDescription: string;
}

/** The ledger's entries, each with every column and its product's description: what a DescribedEntry is made of. */
function describedEntries(db: Db, filter: EntryFilter, bounds: Bounds) {
  return ledgerEntries(db, filter, bounds)
    .innerJoin('products', 'products.id', 'e.product_id')
    .selectAll('e')
    .select('products.description');
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
  const rows = await describedEntries(db, filter, below === undefined ? {} : { below })
    .where((eb) => eb(eb.refTuple('e.commit_order', 'e.id'), '>', eb.tuple(after.commitOrder, after.id)))
    .orderBy('e.commit_order')
    .orderBy('e.id')
    .limit(limit + 1)
    .execute();
  return rows.map(toGymEntry);
}

/**
 * A gym's own entries newest first, by id, before `beforeId` (from the newest when it is 0): a list to look at,
 * such as a desk's day. Unlike the feed, it makes no promise about rows that commit behind a page already read.
 */
export async function listGymEntriesNewestFirst(
  db: Db,
  filter: EntryFilter & { gymId: number },
  beforeId: number,
  limit: number,
): Promise<GymEntry[]> {
  const rows = await describedEntries(db, filter, beforeId > 0 ? { beforeId } : {})
    .orderBy('e.id', 'desc')
    .limit(limit + 1)
    .execute();
  return rows.map(toGymEntry);
}

function toGymEntry(row: EntryRow & { description: string; commit_order: number | string }): GymEntry {
  return { ...toEntry(row), productDescription: row.description, commitOrder: Number(row.commit_order) };
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
