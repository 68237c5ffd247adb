import { setImmediate as nextTurn } from 'node:timers/promises';
import type SqliteDatabase from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { classifyCheckin, upsertsCustomCode } from '../../domain/checkin-condition.js';
import type { Database } from '../database.js';
import type { ValidationOutcome, ValidationRequest } from '../validation-unit.js';

interface Pending {
  readonly request: ValidationRequest;
  readonly resolve: (outcome: ValidationOutcome) => void;
  readonly reject: (error: unknown) => void;
}

interface LatestRow {
  id: number;
  status: 'pending' | 'validated' | 'cancelled';
  expires_at: number;
  product_id: number;
  description: string;
  payout_cents: number;
  currency: string;
  partner_id: number;
}

/**
 * The validate unit of work on SQLite, hand-tuned (src/store/validation-unit.ts is the query-builder version it
 * must match): statements prepared once, and group commit — the validations that arrive together share one
 * write transaction, each in a savepoint of its own so one failure never fails its neighbours, and every reply
 * waits for the commit. At synchronous=FULL that is one fsync per batch instead of one per validation.
 */
export function createGroupCommit(database: SqliteDatabase.Database, db: Kysely<Database>) {
  let queue: Pending[] = [];
  let scheduled = false;

  /** A statement prepared on first use and kept: one missing table fails only the work that needs it. */
  function lazy<P extends unknown[], R = unknown>(text: string): () => SqliteDatabase.Statement<P, R> {
    let statement: SqliteDatabase.Statement<P, R> | undefined;
    return () => (statement ??= database.prepare<P, R>(text));
  }

  const latest = lazy<[number, string], LatestRow>(
    `select c.id, c.status, c.expires_at, c.product_id, p.description, p.payout_cents, p.currency, g.partner_id
     from checkins c join products p on p.id = c.product_id join gyms g on g.id = c.gym_id
     where c.gym_id = ? and c.platform_id = ? order by c.checked_in_at desc, c.id desc limit 1`,
  );
  const flip = lazy<[number, number]>(
    "update checkins set status = 'validated', validated_at = ? where id = ? and status = 'pending'",
  );
  const record = lazy<[number, number, number, number, string, number, string, number]>(
    `insert into transactions (checkin_id, partner_id, gym_id, product_id, platform_id, payout_cents, currency, validated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const upsertCode = lazy<[number, string, string, number, number]>(
    `insert into custom_codes (gym_id, platform_id, code, created_at, updated_at) values (?, ?, ?, ?, ?)
     on conflict (gym_id, platform_id) do update set code = excluded.code, updated_at = excluded.updated_at`,
  );
  const begin = lazy<[]>('begin immediate');
  const commit = lazy<[]>('commit');
  const savepoint = lazy<[]>('savepoint validation');
  const release = lazy<[]>('release validation');
  const rollbackTo = lazy<[]>('rollback to validation');

  function validateOne(request: ValidationRequest): ValidationOutcome {
    const checkin = latest().get(request.gymId, request.platformId);
    const condition = classifyCheckin(
      checkin && { status: checkin.status, expiresAt: checkin.expires_at },
      request.now,
    );
    let outcome: ValidationOutcome = { condition } as ValidationOutcome;
    if (condition === 'valid' && checkin !== undefined) {
      // One writer, one batch: nothing can flip it in between, but the condition keeps the update honest.
      if (flip().run(request.now, checkin.id).changes === 0) outcome = { condition: 'already-validated' };
      else {
        record().run(
          checkin.id,
          checkin.partner_id,
          request.gymId,
          checkin.product_id,
          request.platformId,
          checkin.payout_cents,
          checkin.currency,
          request.now,
        );
        outcome = {
          condition: 'valid',
          productId: checkin.product_id,
          productDescription: checkin.description,
          validatedAt: request.now,
        };
      }
    }
    if (request.customCode !== undefined && upsertsCustomCode(outcome.condition)) {
      upsertCode().run(request.gymId, request.platformId, request.customCode, request.now, request.now);
    }
    return outcome;
  }

  /**
   * Runs one batch synchronously and settles every promise after its commit. Optimistic first: the whole batch in
   * one transaction with no savepoints, since a validation almost never fails (two fewer statements each). If one
   * does, the batch is rolled back and run again with a savepoint per validation, so the failure stays its own.
   */
  function runBatch(batch: Pending[]): void {
    let outcomes: ValidationOutcome[];
    try {
      begin().run();
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    try {
      outcomes = batch.map((item) => validateOne(item.request));
    } catch {
      rollbackAll();
      runIsolated(batch);
      return;
    }
    if (!commitOrReject(batch)) return;
    batch.forEach((item, i) => item.resolve(outcomes[i] as ValidationOutcome));
  }

  /** The batch again, a savepoint per validation: one failure rolls back only its own writes. */
  function runIsolated(batch: Pending[]): void {
    const settled: (() => void)[] = [];
    try {
      begin().run();
      for (const item of batch) {
        savepoint().run();
        try {
          const outcome = validateOne(item.request);
          release().run();
          settled.push(() => item.resolve(outcome));
        } catch (error) {
          rollbackTo().run();
          release().run();
          settled.push(() => item.reject(error));
        }
      }
    } catch (error) {
      rollbackAll();
      for (const item of batch) item.reject(error);
      return;
    }
    if (!commitOrReject(batch)) return;
    for (const settle of settled) settle();
  }

  /** Commits; if the commit itself fails, nothing of the batch is kept or acknowledged. */
  function commitOrReject(batch: Pending[]): boolean {
    try {
      commit().run();
      return true;
    } catch (error) {
      rollbackAll();
      for (const item of batch) item.reject(error);
      return false;
    }
  }

  function rollbackAll(): void {
    if (database.inTransaction) database.prepare('rollback').run();
  }

  async function flush(): Promise<void> {
    // Let every request that is already readable join this batch before the write begins.
    await nextTurn();
    scheduled = false;
    const batch = queue;
    queue = [];
    if (batch.length === 0) return;
    // Holding Kysely's connection keeps every other transaction (operator writes, the CLI's) out of the batch.
    await db
      .connection()
      .execute(async () => runBatch(batch))
      .catch((error: unknown) => {
        for (const item of batch) item.reject(error);
      });
  }

  return {
    validate(request: ValidationRequest): Promise<ValidationOutcome> {
      return new Promise<ValidationOutcome>((resolve, reject) => {
        queue.push({ request, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          void flush();
        }
      });
    },
  };
}
