import { sql, type Kysely, type Selectable } from 'kysely';
import type { PricingRule } from '../../domain/plans/payout-rules.js';
import type { Period, Settlement, SettlementLine } from '../../domain/settlement.js';
import type { PageRequest } from '../../domain/pagination.js';
import type { Database, SettlementsTable } from '../database.js';
import { pageById } from '../paging.js';
import { unsettledEntries } from './settlement-sweep.js';

type Db = Kysely<Database>;

function toSettlement(row: Selectable<SettlementsTable>, lines: readonly SettlementLine[]): Settlement {
  return {
    id: Number(row.id),
    partnerId: Number(row.partner_id),
    currency: row.currency,
    periodStart: Number(row.period_start),
    periodEnd: Number(row.period_end),
    status: row.status === 'paid' ? 'paid' : 'closed',
    totalCents: Number(row.total_cents),
    count: Number(row.count),
    lines,
    createdBy: row.created_by,
    createdAt: Number(row.created_at),
    paidAt: row.paid_at === null ? null : Number(row.paid_at),
    reference: row.paid_reference,
  };
}

/** The lines of settlements, per gym, in gym order; `gymIds` narrows them to the gyms a key may see. */
async function linesOf(db: Db, ids: readonly number[], gymIds?: readonly number[]) {
  const lines = new Map<number, SettlementLine[]>();
  if (ids.length === 0) return lines;
  for (const row of await linesByRule(db, ids, gymIds)) {
    const id = Number(row.settlement_id);
    const gymId = Number(row.gym_id);
    const part = {
      rule: toRule(row.rule),
      count: Number(row.count),
      listCents: Number(row.list),
      paidCents: Number(row.paid),
    };
    const own = lines.get(id) ?? [];
    const last = own.at(-1);
    if (last?.gymId === gymId) {
      own[own.length - 1] = {
        gymId,
        count: last.count + part.count,
        totalCents: last.totalCents + part.paidCents,
        pricing: [...last.pricing, part],
      };
    } else own.push({ gymId, count: part.count, totalCents: part.paidCents, pricing: [part] });
    lines.set(id, own);
  }
  return lines;
}

const toRule = (rule: string): PricingRule =>
  rule === 'monthly-cap' || rule === 'volume-tier' ? rule : 'list';

/**
 * The settlements' entries per gym and pricing rule: a visit's list price and rule are its own, a reversal's list
 * is what it takes back, under the rule of the visit it reverses; the amounts settled are the settlement's.
 */
function linesByRule(db: Db, ids: readonly number[], gymIds?: readonly number[]) {
  let query = db
    .selectFrom('settlement_entries as s')
    .leftJoin('transactions as t', 't.id', 's.entry_id')
    .leftJoin('reversals as r', 'r.id', 's.entry_id')
    .leftJoin('transactions as v', 'v.id', 'r.transaction_id')
    .select((eb) => [
      's.settlement_id',
      's.gym_id',
      sql<string>`coalesce(t.pricing_rule, v.pricing_rule, 'list')`.as('rule'),
      eb.fn.countAll<number | string>().as('count'),
      eb.fn
        .sum<number | string>(
          sql`case when t.id is null then s.payout_cents else coalesce(t.list_cents, t.payout_cents) end`,
        )
        .as('list'),
      eb.fn.sum<number | string>('s.payout_cents').as('paid'),
    ])
    .where('s.settlement_id', 'in', ids);
  if (gymIds !== undefined) query = query.where('s.gym_id', 'in', gymIds.length === 0 ? [0] : gymIds);
  return query
    .groupBy(['s.settlement_id', 's.gym_id', sql`coalesce(t.pricing_rule, v.pricing_rule, 'list')`])
    .orderBy('s.gym_id')
    .orderBy(sql`coalesce(t.pricing_rule, v.pricing_rule, 'list')`)
    .execute();
}

export interface SettlementFilter {
  readonly partnerId?: number;
  readonly status?: 'closed' | 'paid';
  readonly ids?: readonly number[];
}

export async function listSettlements(
  db: Db,
  filter: SettlementFilter,
  page: PageRequest,
  gymIds?: readonly number[],
): Promise<Settlement[]> {
  let query = db.selectFrom('settlements').selectAll();
  if (filter.partnerId !== undefined) query = query.where('partner_id', '=', filter.partnerId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.ids !== undefined) query = query.where('id', 'in', filter.ids.length === 0 ? [0] : filter.ids);
  const rows = await pageById(query, page).execute();
  const lines = await linesOf(
    db,
    rows.map((row) => Number(row.id)),
    gymIds,
  );
  return rows.map((row) => toSettlement(row, lines.get(Number(row.id)) ?? []));
}

/** A partner's settlements whose periods share an instant with `period`. */
export async function overlappingSettlements(db: Db, partnerId: number, period: Period) {
  const rows = await db
    .selectFrom('settlements')
    .select(['id', 'period_start', 'period_end'])
    .where('partner_id', '=', partnerId)
    .where('period_start', '<', period.end)
    .where('period_end', '>', period.start)
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    start: Number(row.period_start),
    end: Number(row.period_end),
  }));
}

/**
 * Creates the settlement of one partner·currency for the period and moves into it every unsettled entry effective
 * from `sweepFrom` to the period's end (the caller holds the settlements' lock). Returns its id.
 */
export async function insertSettlement(
  db: Db,
  settlement: {
    partnerId: number;
    currency: string;
    period: Period;
    sweepFrom: number;
    createdBy: string;
    now: number;
  },
): Promise<number> {
  const { partnerId, currency, period } = settlement;
  const inserted = await db
    .insertInto('settlements')
    .values({
      partner_id: partnerId,
      currency,
      period_start: period.start,
      period_end: period.end,
      status: 'closed',
      total_cents: 0,
      count: 0,
      created_by: settlement.createdBy,
      created_at: settlement.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(inserted.id);
  const entries = unsettledEntries(db, partnerId, { start: settlement.sweepFrom, end: period.end })
    .where('e.currency', '=', currency)
    .select(['e.id', sql<number>`${id}`.as('settlement_id'), 'e.gym_id', 'e.payout_cents']);
  await db
    .insertInto('settlement_entries')
    .columns(['entry_id', 'settlement_id', 'gym_id', 'payout_cents'])
    .expression(entries)
    .execute();
  const totals = await db
    .selectFrom('settlement_entries')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('count'),
      eb.fn.sum<number | string>('payout_cents').as('total'),
    ])
    .where('settlement_id', '=', id)
    .executeTakeFirstOrThrow();
  await db
    .updateTable('settlements')
    .set({ count: Number(totals.count), total_cents: Number(totals.total ?? 0) })
    .where('id', '=', id)
    .execute();
  return id;
}

/** Marks a settlement paid; false when it was already paid. */
export async function markPaid(db: Db, id: number, paid: { reference: string; by: string; at: number }) {
  const result = await db
    .updateTable('settlements')
    .set({ status: 'paid', paid_at: paid.at, paid_reference: paid.reference, paid_by: paid.by })
    .where('id', '=', id)
    .where('status', '=', 'closed')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
