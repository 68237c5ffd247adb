import type SqliteDatabase from 'better-sqlite3';
import type { Checkin } from '../../../domain/entities.js';
import { StaleDecisionError, type Write } from '../../../domain/writes.js';
import {
  auditRow,
  checkinRow,
  eventRow,
  toCheckin,
  toLatestCheckin,
  toReservedId,
  transactionRow,
  type LatestCheckinRow,
} from '../../changes/rows.js';
import { positionalInsert, type NewRowTable } from '../../changes/row-columns.js';
import type { CheckinRow } from '../../database.js';
import { nextId, reservedTransactionId } from '../../changes/id-reservation.js';
import { USAGE_LOOKBACK_MS, type PlanUsage } from '../../../domain/plans/admission.js';
import type { PlanVersion } from '../../../domain/plans/plan.js';
import {
  memberPlanVersionSql,
  PLAN_VERSION_KEY_COLUMNS,
  planUsageSql,
  planVersionCache,
  toPlanUsage,
  type PlanUsageRow,
  type PlanVersionKey,
} from '../../plans/plan-state.js';
import type { PricingCounts, PricingTerms } from '../../../domain/plans/pricing.js';
import {
  ADD_TO_COUNTER,
  addToSum,
  counterKey,
  COUNTS_OF,
  counterRows,
  countsParameters,
  isPartnerTotal,
  markOf,
  PARTNER_TOTAL,
  toCounts,
  type CounterRow,
  type CountsRow,
} from '../../plans/payout-counter-repository.js';
import { STAMPED_AT, latestFirst, validatedBetween, type GuardedWrite } from '../../changes/rule-sql.js';

type CountVisit = Extract<Write, { kind: 'count-visit' }>;

/**
 * SQLite's hand-tuned reads and writes for the batched path (src/store/dialects/sqlite/sqlite-group-commit.ts), prepared
 * once and run synchronously. They match the query-builder readers (src/store/changes/change-readers.ts) and applier
 * (src/store/changes/write-applier.ts); the store tests run every change through both.
 */
export function sqliteStatements(database: SqliteDatabase.Database) {
  /** A statement prepared on first use and kept: one missing table fails only the work that needs it. */
  function lazy<P extends unknown[], R = unknown>(text: string): () => SqliteDatabase.Statement<P, R> {
    let statement: SqliteDatabase.Statement<P, R> | undefined;
    return () => (statement ??= database.prepare<P, R>(text));
  }

  const latest = lazy<[number, number, string], LatestCheckinRow>(
    `select c.id, c.status, c.checked_in_at, c.expires_at, c.product_id, p.description, p.payout_cents, p.currency,
            g.partner_id, c.member, ${reservedTransactionId(false, 'c', '?')} as transaction_id
     from checkins c join products p on p.id = c.product_id join gyms g on g.id = c.gym_id
     where c.gym_id = ? and c.platform_id = ? order by ${latestFirst('c')} limit 1`,
  );
  const code = lazy<[number, string], { code: string; updated_at: number }>(
    'select code, updated_at from custom_codes where gym_id = ? and platform_id = ?',
  );
  const gym = lazy<[number], { partner_id: number; timezone: string | null; retired_at: number | null }>(
    'select partner_id, timezone, retired_at from gyms where id = ?',
  );
  const product = lazy<
    [number],
    { id: number; gym_id: number; description: string; retired_at: number | null; category: string }
  >('select id, gym_id, description, retired_at, category from products where id = ?');
  const memberPlanVersion = lazy<[string, number, string | null, number], PlanVersionKey>(
    memberPlanVersionSql('?', '?', '?', 'true', PLAN_VERSION_KEY_COLUMNS),
  );
  const versionRules = lazy<[number, number], { rules: string }>(
    'select rules from plan_versions where plan_id = ? and version = ?',
  );
  const planVersion = planVersionCache((planId, version) => versionRules().get(planId, version)?.rules);
  // The window's start is compared twice: with the expiry the read seeks by, and with the validation.
  const planUsage = lazy<[string, number, number, number], PlanUsageRow>(planUsageSql('?', '?', '?'));
  const validationsBetween = lazy<[number, string, number, number], { validated_at: number }>(
    `select validated_at from checkins c
     where c.gym_id = ? and c.platform_id = ? and ${validatedBetween('c', '?', '?')}`,
  );
  const nextCheckinId = lazy<[], { id: number }>(`select ${nextId(false, 'checkins')} as id`);
  const checkin = lazy<[number], CheckinRow>('select * from checkins where id = ?');
  /** A status change, guarded by the status it expects. */
  const toStatus = (to: keyof typeof STAMPED_AT) =>
    lazy<[number, number, string]>(
      `update checkins set status = '${to}', ${STAMPED_AT[to]} = ? where id = ? and status = ?`,
    );
  const toValidated = toStatus('validated');
  const toCancelled = toStatus('cancelled');
  /** A validation that counts its visit on its check-in: the status and the mark in one update of the row. */
  const toValidatedCounted = lazy<[number, string, number, number, string]>(
    `update checkins set status = 'validated', ${STAMPED_AT.validated} = ?,
       counted_month = ?, counted_scope = ?
     where id = ? and status = ?`,
  );
  /** An insert of a row built in src/store/changes/rows.ts. */
  function insert<T extends NewRowTable>(table: T) {
    const { text, values } = positionalInsert(table);
    const statement = lazy<unknown[]>(text);
    // Spread, not passed as one array: better-sqlite3 reads an array's items one by one through V8's API, about
    // 1 µs more an insert (callgrind: 3,300 instructions of a 9-column insert).
    return (row: Parameters<typeof values>[0]) => statement().run(...values(row));
  }
  const insertCheckin = insert('checkins');
  const insertTransaction = insert('transactions');
  const insertCode = lazy<[number, string, string, number, number]>(
    'insert into custom_codes (gym_id, platform_id, code, created_at, updated_at) values (?, ?, ?, ?, ?)',
  );
  const updateCode = lazy<[string, number, number, string]>(
    'update custom_codes set code = ?, updated_at = ? where gym_id = ? and platform_id = ?',
  );
  const deleteCode = lazy<[number, string]>('delete from custom_codes where gym_id = ? and platform_id = ?');
  const counts = lazy<(string | number)[], CountsRow>(COUNTS_OF);
  const addToCounter = lazy<(string | number)[]>(ADD_TO_COUNTER);
  const markCheckin = lazy<[string, number, number]>(
    'update checkins set counted_month = ?, counted_scope = ? where id = ?',
  );
  const audit = insert('audit_log');
  const event = insert('events');

  function changed(result: SqliteDatabase.RunResult, write: GuardedWrite): void {
    if (result.changes === 0) throw new StaleDecisionError(write);
  }

  /**
   * The partners' paid totals the batch's priced visits add to, kept here and written once per counter at the
   * end of the batch (writeTotals), before its commit: a busy partner's total row is written once per commit,
   * not once per visit. The counts a visit reads add them, as they would read the rows' writes.
   */
  const totals = new Map<string, CounterRow>();
  const counterValues = (row: CounterRow) =>
    [row.partner_id, row.month, row.gym_id, row.platform_id, row.visits, row.paid_cents] as const;

  /** A priced visit: its mark (unless the validation's update carried it), member's row, partner's total. */
  function countVisit(write: CountVisit, markedWithStatus: boolean): void {
    const mark = markOf(write);
    if (mark !== undefined && !markedWithStatus)
      markCheckin().run(mark.counted_month, mark.counted_scope, mark.id);
    for (const row of counterRows(write))
      if (isPartnerTotal(row)) addToSum(totals, row);
      else addToCounter().run(...counterValues(row));
  }

  /** A decision's visit counted on the check-in it validates: its mark rides in the validation's update. */
  function countedOnValidation(writes: readonly Write[]): CountVisit | undefined {
    const count = writes.find((write): write is CountVisit => write.kind === 'count-visit');
    if (count?.checkinId === undefined) return undefined;
    const validates = writes.some(
      (write) =>
        write.kind === 'checkin-status' && write.to === 'validated' && write.checkinId === count.checkinId,
    );
    return validates ? count : undefined;
  }

  function apply(write: Write, counted: CountVisit | undefined): void {
    switch (write.kind) {
      case 'insert-checkin':
        insertCheckin(checkinRow(write.checkin));
        return;
      case 'checkin-status': {
        const { at, checkinId, from } = write;
        const result =
          counted?.checkinId === checkinId
            ? toValidatedCounted().run(at, counted.month, counted.scope, checkinId, from)
            : (write.to === 'validated' ? toValidated() : toCancelled()).run(at, checkinId, from);
        changed(result, write.kind);
        return;
      }
      case 'insert-transaction':
        insertTransaction(transactionRow(write.transaction));
        return;
      case 'insert-code':
        insertCode().run(write.gymId, write.platformId, write.code, write.at, write.at);
        return;
      case 'update-code':
        changed(updateCode().run(write.code, write.at, write.gymId, write.platformId), write.kind);
        return;
      case 'delete-code':
        changed(deleteCode().run(write.gymId, write.platformId), write.kind);
        return;
      case 'audit':
        audit(auditRow(write.entry, write.at));
        return;
      case 'event':
        event(eventRow(write.event));
        return;
      case 'count-visit':
        countVisit(write, write === counted);
        return;
      case 'insert-reversal':
        throw new Error('a reversal is carried out by the unit of work, never in a batch');
    }
  }

  return {
    /** The latest check-in, and the id its validation's transaction would take. */
    latestCheckin(gymId: number, platformId: string, now: number) {
      const row = latest().get(now, gymId, platformId);
      return {
        latest: row && toLatestCheckin(row),
        transactionId: toReservedId(row?.transaction_id ?? null),
      };
    },
    /** The month's counters before a visit priced under `terms`. */
    counts(terms: PricingTerms, platformId: string, now: number): PricingCounts {
      const read = toCounts(counts().get(...countsParameters(terms, platformId, now)));
      const held = totals.get(
        counterKey(terms.partnerId, terms.month, PARTNER_TOTAL.gymId, PARTNER_TOTAL.platformId),
      );
      return held === undefined
        ? read
        : { ...read, partnerPaidCents: read.partnerPaidCents + held.paid_cents };
    },
    code(gymId: number, platformId: string): { code: string; updatedAt: number } | undefined {
      const row = code().get(gymId, platformId);
      return row && { code: row.code, updatedAt: row.updated_at };
    },
    /** The gym's partner; undefined when there is no such gym. */
    gymPartner(gymId: number): number | undefined {
      return gym().get(gymId)?.partner_id;
    },
    /** What a check-in creation reads of its gym; undefined when there is no such gym. */
    gym(gymId: number): { partnerId: number; timezone: string | null; retired: boolean } | undefined {
      const row = gym().get(gymId);
      return row && { partnerId: row.partner_id, timezone: row.timezone, retired: row.retired_at !== null };
    },
    product(
      productId: number,
    ): { id: number; gymId: number; description: string; retired: boolean; category: string } | undefined {
      const row = product().get(productId);
      return (
        row && {
          id: row.id,
          gymId: row.gym_id,
          description: row.description,
          retired: row.retired_at !== null,
          category: row.category,
        }
      );
    },
    /** The member's plan at `now` and the check-ins that may use its visits; undefined when they have none. */
    plan(
      platformId: string,
      now: number,
      defaultPlan: string | undefined,
    ): { version: PlanVersion; usage: PlanUsage[] } | undefined {
      const row = memberPlanVersion().get(platformId, now, defaultPlan ?? null, now);
      if (row === undefined) return undefined;
      const since = now - USAGE_LOOKBACK_MS;
      const usage = planUsage().all(platformId, since, since, now);
      return { version: planVersion(row), usage: usage.map(toPlanUsage) };
    },
    validationsBetween(member: { gymId: number; platformId: string }, start: number, end: number): number[] {
      return validationsBetween()
        .all(member.gymId, member.platformId, start, end)
        .map((row) => row.validated_at);
    },
    /** The id the next check-in takes: the caller holds the write lock (src/store/changes/id-reservation.ts). */
    nextCheckinId(): number {
      const id = nextCheckinId().get()?.id;
      if (id === undefined) throw new Error('no id could be reserved in checkins');
      return id;
    },
    checkin(checkinId: number): Checkin | undefined {
      const row = checkin().get(checkinId);
      return row && toCheckin(row);
    },
    /** Carries out a decision's writes in order; a write that finds its row changed throws StaleDecisionError. */
    applyWrites(writes: readonly Write[]): void {
      const counted = countedOnValidation(writes);
      for (const write of writes) apply(write, counted);
    },
    /** Writes the totals the visits added since the last call: once per batch, before its commit. */
    writeTotals(): void {
      for (const row of totals.values()) addToCounter().run(...counterValues(row));
      totals.clear();
    },
    /** Forgets the totals not yet written: their visits' writes were rolled back. */
    dropTotals(): void {
      totals.clear();
    },
  };
}

export type SqliteStatements = ReturnType<typeof sqliteStatements>;
