import type { Kysely } from 'kysely';
import type { Period } from '../../domain/settlement.js';
import type { Database } from '../database.js';
import { ledgerEntries } from './ledger-entries.js';

type Db = Kysely<Database>;

/**
 * What a close takes (src/domain/settlement.ts, `sweepStart`): a partner's live entries effective in `range` that
 * no settlement holds. An entry committed after a close read the ledger has no settlement row, so the next close
 * finds it here; closes are serialised and `settlement_entries.entry_id` is the key, so no two take one entry.
 */
export function unsettledEntries(db: Db, partnerId: number, range: Period) {
  return ledgerEntries(db, { partnerId, from: range.start, to: range.end, sandbox: false }, {})
    .leftJoin('settlement_entries as s', 's.entry_id', 'e.id')
    .where('s.entry_id', 'is', null);
}

/** Per currency: how many entries a close of `range` would take for the partner. */
export async function unsettledTotals(db: Db, partnerId: number, range: Period) {
  const rows = await unsettledEntries(db, partnerId, range)
    .select((eb) => ['e.currency', eb.fn.countAll<number | string>().as('count')])
    .groupBy('e.currency')
    .orderBy('e.currency')
    .execute();
  return rows.map((row) => ({ currency: row.currency, count: Number(row.count) }));
}

/** The start of the partner's first closed period, if any. */
export async function firstClosedStart(db: Db, partnerId: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('settlements')
    .select((eb) => eb.fn.min<number | string | null>('period_start').as('first'))
    .where('partner_id', '=', partnerId)
    .executeTakeFirst();
  return row?.first === null || row?.first === undefined ? undefined : Number(row.first);
}

/**
 * The partners a close for every partner looks at: those with an entry effective in the period, those with an
 * entry before it that no settlement holds, dated no earlier than their first closed period (a late entry), and
 * those with a settlement sharing an instant with it (the same close again finds it, even one that took only late
 * entries; any other overlap refuses the close).
 */
export async function partnersToClose(db: Db, period: Period): Promise<number[]> {
  const inPeriod = ledgerEntries(db, { from: period.start, to: period.end, sandbox: false }, {}).select(
    'e.partner_id',
  );
  const firstClosed = db
    .selectFrom('settlements')
    .select((eb) => ['partner_id', eb.fn.min('period_start').as('first')])
    .groupBy('partner_id')
    .as('f');
  const late = ledgerEntries(db, { to: period.start, sandbox: false }, {})
    .innerJoin(firstClosed, 'f.partner_id', 'e.partner_id')
    .leftJoin('settlement_entries as s', 's.entry_id', 'e.id')
    .where('s.entry_id', 'is', null)
    .whereRef('e.effective_at', '>=', 'f.first')
    .select('e.partner_id');
  const overlapping = db
    .selectFrom('settlements')
    .select('partner_id')
    .where('period_start', '<', period.end)
    .where('period_end', '>', period.start);
  const rows = await db
    .selectFrom(inPeriod.union(late).union(overlapping).as('p'))
    .select('p.partner_id')
    .orderBy('p.partner_id')
    .execute();
  return rows.map((row) => Number(row.partner_id));
}
