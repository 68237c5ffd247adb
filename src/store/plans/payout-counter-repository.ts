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

/**
 * The counter rows a priced visit adds to: the partner's total, and the member's under the scope unless the visit
 * is counted on its check-in (markOf).
 */
export function counterRows(write: CountVisit) {
  const { partnerId, month } = write;
  const total = {
    partner_id: partnerId,
    month,
    gym_id: PARTNER_TOTAL.gymId,
    platform_id: PARTNER_TOTAL.platformId,
    visits: 1,
    paid_cents: write.paidCents,
  };
  if (write.checkinId !== undefined) return [total];
  const member = { partner_id: partnerId, month, gym_id: write.scope, platform_id: write.platformId };
  return [{ ...member, visits: 1, paid_cents: 0 }, total];
}

export type CounterRow = ReturnType<typeof counterRows>[number];

/** A counter's key (one order for every batch's upserts, so their row locks never cross). */
export const counterKey = (partnerId: number, month: string, gymId: number, platformId: string) =>
  JSON.stringify([partnerId, month, gymId, platformId]);

export const isPartnerTotal = (row: CounterRow) =>
  row.gym_id === PARTNER_TOTAL.gymId && row.platform_id === PARTNER_TOTAL.platformId;

/** Adds a counter row to the sum a batch holds for its counter (one upsert per counter). */
export function addToSum(sums: Map<string, CounterRow>, row: CounterRow): void {
  const key = counterKey(row.partner_id, row.month, row.gym_id, row.platform_id);
  const sum = sums.get(key);
  sums.set(
    key,
    sum === undefined
      ? row
      : { ...sum, visits: sum.visits + row.visits, paid_cents: sum.paid_cents + row.paid_cents },
  );
}

/** What a visit counted on its check-in marks that check-in with; undefined for one counted on a counter row. */
export function markOf(write: CountVisit) {
  const { checkinId: id, month: counted_month, scope: counted_scope } = write;
  return id === undefined ? undefined : { id, counted_month, counted_scope };
}

/**
 * How far back a member's marked check-ins are looked for: a visit of this month validated a check-in that had not
 * expired, and a month began at most 31 days (and a zone's offset) ago.
 */
export const MARKS_LOOKBACK_MS = 32 * 86_400_000;

/**
 * The member's visits of a month under a scope at the partner's gyms marked on their check-ins, by the member's
 * index by expiry (0018): the parameters are the member, the lookback's start, the month, the scope, the partner.
 * Written once, for a tag: `String.raw` with column references or placeholders gives the statements' SQL text,
 * kysely's `sql` with values gives the query builder's expression.
 */
function markedVisits<V, R>(
  tag: (text: TemplateStringsArray, ...values: V[]) => R,
  ...[platformId, since, month, scope, partnerId]: [V, V, V, V, V]
): R {
  return tag`(select count(*) from checkins mc join gyms mg on mg.id = mc.gym_id
    where mc.platform_id = ${platformId} and mc.expires_at >= ${since} and mc.counted_month = ${month}
      and mc.counted_scope = ${scope} and mg.partner_id = ${partnerId})`;
}

/** The marked visits as SQL text, its five values written as the given references or placeholders. */
export const MARKED_VISITS = (...refs: [string, string, string, string, string]) =>
  markedVisits(String.raw, ...refs);

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

/** What the counts held for a visit under `terms` and its member: their counter row and marked check-ins. */
export const COUNTS_OF = `select
  coalesce((select visits from payout_counters
            where partner_id = ? and month = ? and gym_id = ? and platform_id = ?), 0)
  + ${MARKED_VISITS('?', '?', '?', '?', '?')} as member_visits,
  coalesce((select paid_cents from payout_counters
            where partner_id = ? and month = ? and gym_id = 0 and platform_id = ''), 0) as partner_paid_cents`;

export const countsParameters = (terms: PricingTerms, platformId: string, now: number) => {
  const { partnerId, month, scope } = terms;
  // One literal, not three spread: built per priced validation.
  return [
    partnerId,
    month,
    scope,
    platformId,
    platformId,
    now - MARKS_LOOKBACK_MS,
    month,
    scope,
    partnerId,
    partnerId,
    month,
  ] as const;
};

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

export async function readCounts(
  db: Db,
  terms: PricingTerms,
  platformId: string,
  now: number,
): Promise<PricingCounts> {
  const { partnerId, month } = terms;
  const row = await db
    .selectNoFrom((eb) => [
      counter(eb, 'visits', { partnerId, month, gymId: terms.scope, platformId }).as('member_visits'),
      markedVisits(
        sql<number | string>,
        platformId,
        now - MARKS_LOOKBACK_MS,
        month,
        terms.scope,
        partnerId,
      ).as('marked_visits'),
      counter(eb, 'paid_cents', { partnerId, month, ...PARTNER_TOTAL }).as('partner_paid_cents'),
    ])
    .executeTakeFirst();
  const counts = toCounts(row);
  return { ...counts, memberVisits: counts.memberVisits + Number(row?.marked_visits ?? 0) };
}

export async function countVisit(db: Db, write: CountVisit): Promise<void> {
  const mark = markOf(write);
  if (mark !== undefined) {
    const { id, ...counted } = mark;
    await db.updateTable('checkins').set(counted).where('id', '=', id).execute();
  }
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
