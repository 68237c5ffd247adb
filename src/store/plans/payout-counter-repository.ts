import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { PricingCounts, PricingTerms } from '../../domain/plans/pricing.js';
import type { Write } from '../../domain/writes.js';
import type { Database } from '../database.js';

type Db = Kysely<Database>;
type CountVisit = Extract<Write, { kind: 'count-visit' }>;

/**
 * The month's counters payout rules are decided from, kept in the transaction of each visit they price (so no
 * visit is counted twice or missed, and no decision scans the ledger): per partner·month its paid total (the row of
 * gym 0 and member ''), per member·scope·month their visits.
 */
export const PARTNER_TOTAL = { gymId: 0, platformId: '' } as const;

/** The counter rows a priced visit adds to: the member's under the scope, and the partner's total. */
export function counterRows(write: CountVisit) {
  const { partnerId, month } = write;
  return [
    {
      partner_id: partnerId,
      month,
      gym_id: write.scope,
      platform_id: write.platformId,
      visits: 1,
      paid_cents: 0,
    },
    {
      partner_id: partnerId,
      month,
      gym_id: PARTNER_TOTAL.gymId,
      platform_id: PARTNER_TOTAL.platformId,
      visits: 1,
      paid_cents: write.paidCents,
    },
  ];
}

/** A counter row's columns, in the order its inserts give them. */
export const COUNTER_COLUMNS = 'partner_id, month, gym_id, platform_id, visits, paid_cents';

/** What an insert of counter rows does where a row is there already: adds to it. */
export const ADD_WHERE_COUNTED = `on conflict (partner_id, month, gym_id, platform_id)
do update set visits = payout_counters.visits + excluded.visits,
              paid_cents = payout_counters.paid_cents + excluded.paid_cents`;

/** Adds to a counter row, creating it at its first visit (the same statement on both dialects). */
export const ADD_TO_COUNTER = `insert into payout_counters (${COUNTER_COLUMNS})
values (?, ?, ?, ?, ?, ?)
${ADD_WHERE_COUNTED}`;

/** What the counters held for a visit under `terms` and its member. */
export const COUNTS_OF = `select
  coalesce((select visits from payout_counters
            where partner_id = ? and month = ? and gym_id = ? and platform_id = ?), 0) as member_visits,
  coalesce((select paid_cents from payout_counters
            where partner_id = ? and month = ? and gym_id = 0 and platform_id = ''), 0) as partner_paid_cents`;

export const countsParameters = (terms: PricingTerms, platformId: string) =>
  [terms.partnerId, terms.month, terms.scope, platformId, terms.partnerId, terms.month] as const;

export interface CountsRow {
  readonly member_visits: number | string | null;
  readonly partner_paid_cents: number | string | null;
}

export const toCounts = (row: CountsRow | undefined): PricingCounts => ({
  memberVisits: Number(row?.member_visits ?? 0),
  partnerPaidCents: Number(row?.partner_paid_cents ?? 0),
});

/** One counter of a row, 0 while the row does not exist (no visit counted under it yet). */
function counter(
  eb: ExpressionBuilder<Database, never>,
  column: 'visits' | 'paid_cents',
  row: { partnerId: number; month: string; gymId: number; platformId: string },
) {
  const held = eb
    .selectFrom('payout_counters')
    .select(column)
    .where('partner_id', '=', row.partnerId)
    .where('month', '=', row.month)
    .where('gym_id', '=', row.gymId)
    .where('platform_id', '=', row.platformId);
  return eb.fn.coalesce(held, sql<number>`0`);
}

export async function readCounts(db: Db, terms: PricingTerms, platformId: string): Promise<PricingCounts> {
  const { partnerId, month } = terms;
  const row = await db
    .selectNoFrom((eb) => [
      counter(eb, 'visits', { partnerId, month, gymId: terms.scope, platformId }).as('member_visits'),
      counter(eb, 'paid_cents', { partnerId, month, ...PARTNER_TOTAL }).as('partner_paid_cents'),
    ])
    .executeTakeFirst();
  return toCounts(row);
}

export async function countVisit(db: Db, write: CountVisit): Promise<void> {
  for (const row of counterRows(write)) {
    await db
      .insertInto('payout_counters')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['partner_id', 'month', 'gym_id', 'platform_id']).doUpdateSet((eb) => ({
          visits: eb('payout_counters.visits', '+', eb.ref('excluded.visits')),
          paid_cents: eb('payout_counters.paid_cents', '+', eb.ref('excluded.paid_cents')),
        })),
      )
      .execute();
  }
}
