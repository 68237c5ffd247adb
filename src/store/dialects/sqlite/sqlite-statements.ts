import type SqliteDatabase from 'better-sqlite3';
import type { Checkin } from '../../../domain/entities.js';
import type { LatestCheckin } from '../../../domain/decisions/validation.js';
import { StaleDecisionError, type Write } from '../../../domain/writes.js';
import {
  AUDIT_COLUMNS,
  CHECKIN_COLUMNS,
  EVENT_COLUMNS,
  TRANSACTION_COLUMNS,
  auditRow,
  checkinRow,
  eventRow,
  insertNamed,
  toCheckin,
  toLatestCheckin,
  transactionRow,
  withTransactionId,
  type LatestCheckinRow,
  type NewAuditRow,
  type NewCheckinRow,
  type NewEventRow,
  type NewTransactionRow,
} from '../../changes/rows.js';
import type { CheckinRow } from '../../database.js';

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

  const latest = lazy<[number, string], LatestCheckinRow>(
    `select c.id, c.status, c.checked_in_at, c.expires_at, c.product_id, p.description, p.payout_cents, p.currency,
            g.partner_id, c.member
     from checkins c join products p on p.id = c.product_id join gyms g on g.id = c.gym_id
     where c.gym_id = ? and c.platform_id = ? order by c.checked_in_at desc, c.id desc limit 1`,
  );
  const code = lazy<[number, string], { code: string; updated_at: number }>(
    'select code, updated_at from custom_codes where gym_id = ? and platform_id = ?',
  );
  const gym = lazy<[number], { partner_id: number; timezone: string | null; retired_at: number | null }>(
    'select partner_id, timezone, retired_at from gyms where id = ?',
  );
  const product = lazy<
    [number],
    { id: number; gym_id: number; description: string; retired_at: number | null }
  >('select id, gym_id, description, retired_at from products where id = ?');
  const validationsBetween = lazy<[number, string, number, number], { validated_at: number }>(
    `select validated_at from checkins
     where gym_id = ? and platform_id = ? and status = 'validated' and validated_at >= ? and validated_at < ?`,
  );
  const nextCheckinId = lazy<[], { id: number }>(
    "select coalesce((select seq from sqlite_sequence where name = 'checkins'), 0) + 1 as id",
  );
  const checkin = lazy<[number], CheckinRow>('select * from checkins where id = ?');
  const toValidated = lazy<[number, number, string]>(
    "update checkins set status = 'validated', validated_at = ? where id = ? and status = ?",
  );
  const toCancelled = lazy<[number, number, string]>(
    "update checkins set status = 'cancelled', cancelled_at = ? where id = ? and status = ?",
  );
  const insertCheckin = lazy<[NewCheckinRow]>(insertNamed('checkins', CHECKIN_COLUMNS));
  const insertTransaction = lazy<[NewTransactionRow]>(insertNamed('transactions', TRANSACTION_COLUMNS));
  const insertCode = lazy<[number, string, string, number, number]>(
    'insert into custom_codes (gym_id, platform_id, code, created_at, updated_at) values (?, ?, ?, ?, ?)',
  );
  const updateCode = lazy<[string, number, number, string]>(
    'update custom_codes set code = ?, updated_at = ? where gym_id = ? and platform_id = ?',
  );
  const deleteCode = lazy<[number, string]>('delete from custom_codes where gym_id = ? and platform_id = ?');
  const audit = lazy<[NewAuditRow]>(insertNamed('audit_log', AUDIT_COLUMNS));
  const event = lazy<[NewEventRow]>(insertNamed('events', EVENT_COLUMNS));

  function changed(result: SqliteDatabase.RunResult, write: Write['kind']): void {
    if (result.changes === 0) throw new StaleDecisionError(write);
  }

  function apply(write: Write, transactions: Map<number, number>): void {
    switch (write.kind) {
      case 'insert-checkin':
        insertCheckin().run(checkinRow(write.checkin));
        return;
      case 'checkin-status': {
        const statement = write.to === 'validated' ? toValidated() : toCancelled();
        changed(statement.run(write.at, write.checkinId, write.from), write.kind);
        return;
      }
      case 'insert-transaction': {
        const t = write.transaction;
        const { lastInsertRowid } = insertTransaction().run(transactionRow(t));
        transactions.set(t.checkinId, Number(lastInsertRowid));
        return;
      }
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
        audit().run(auditRow(write.entry, write.at));
        return;
      case 'event':
        event().run(eventRow(withTransactionId(write, transactions)));
        return;
      case 'insert-reversal':
        throw new Error('a reversal is carried out by the unit of work, never in a batch');
    }
  }

  return {
    latestCheckin(gymId: number, platformId: string): LatestCheckin | undefined {
      const row = latest().get(gymId, platformId);
      return row && toLatestCheckin(row);
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
    ): { id: number; gymId: number; description: string; retired: boolean } | undefined {
      const row = product().get(productId);
      return (
        row && {
          id: row.id,
          gymId: row.gym_id,
          description: row.description,
          retired: row.retired_at !== null,
        }
      );
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
      const transactions = new Map<number, number>();
      for (const write of writes) apply(write, transactions);
    },
  };
}

export type SqliteStatements = ReturnType<typeof sqliteStatements>;
