import pg from 'pg';
import { StaleDecisionError, type Write } from '../../../domain/writes.js';
import { batchLockKeys, createBatchCounts } from './postgres-batch-counts.js';
import type { BatchItem } from './postgres-batch-item.js';
import { jsonRows } from './postgres-json-rows.js';
import { pipeline, type Step } from './postgres-pipeline.js';
import { planAll, readsOf, rowsOf, type PlannedChange } from './postgres-batch-reads.js';
import { BEGIN, COMMIT, MEMBER_LOCKS } from './postgres-change-statements.js';
import { asStaleDecision, countersStep, writeStep } from './postgres-write-batch.js';

/** A change's own answer: its outcome, or the refusal its decision (or its reading) made. */
export type ItemResult =
  { readonly ok: true; readonly outcome: unknown } | { readonly ok: false; readonly error: unknown };

export type BatchResult =
  | { readonly ok: true; readonly results: ItemResult[] }
  /** `retry`: nothing of the batch was kept, and each request run alone may succeed where the batch did not. */
  | { readonly ok: false; readonly error: unknown; readonly retry: boolean };

/** The server refused a statement and rolled the transaction back; the connection itself is sound. */
function refusedByServer(error: unknown): boolean {
  return (
    error instanceof StaleDecisionError ||
    (error instanceof pg.DatabaseError && !/^(08|57P)/.test(error.code ?? ''))
  );
}

/** Lets the domain decide each change from its row, in the batch's order; collects every decision's writes. */
function decideAll(
  planned: readonly PlannedChange[],
  rows: readonly unknown[],
): { results: ItemResult[]; writes: Write[] } {
  const writes: Write[] = [];
  const counts = createBatchCounts();
  const results = planned.map((change, place): ItemResult => {
    try {
      // A reading may refuse too (a check-in that lost its product): that is this change's own failure.
      const decision = change.decide(rows[place], counts);
      counts.add(decision.writes);
      writes.push(...decision.writes);
      return { ok: true, outcome: decision.outcome };
    } catch (error) {
      return { ok: false, error };
    }
  });
  return { results, writes };
}

const BEGIN_STEP: Step = { name: 'gatehouse_batch_begin', text: BEGIN, values: [] };
const COMMIT_STEP: Step = { name: 'gatehouse_batch_commit', text: COMMIT, values: [] };

/**
 * One batch in one transaction on one pooled connection, in two round trips (postgres-pipeline.ts): BEGIN, the
 * members' advisory locks and one read per kind of change it holds; then, once the domain has decided, the writes
 * and COMMIT. The outcomes are returned only once the commit has succeeded.
 */
export async function runBatch(
  pool: pg.Pool,
  items: readonly BatchItem[],
  isUnavailable: (error: unknown) => boolean,
): Promise<BatchResult> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    return { ok: false, error, retry: !isUnavailable(error) };
  }
  let committing = false;
  let results: ItemResult[];
  try {
    const keys = batchLockKeys(items);
    const locks: Step = { name: 'gatehouse_batch_locks', text: MEMBER_LOCKS, values: [jsonRows(keys)] };
    const planned = planAll(items);
    const reads = readsOf(planned);
    const read = await pipeline(client, [BEGIN_STEP, locks, ...reads.map((r) => r.step)]);
    const decided = decideAll(planned, rowsOf(reads, read.slice(2)));
    results = decided.results;
    const steps = [writeStep(decided.writes), countersStep(decided.writes), COMMIT_STEP];
    committing = true;
    await pipeline(
      client,
      steps.filter((step) => step !== undefined),
    );
  } catch (raw) {
    const error = asStaleDecision(raw);
    if (refusedByServer(error)) {
      // The server refused a statement and skipped the rest, COMMIT included (a refused COMMIT keeps nothing
      // either): nothing of the batch was kept, and every request may run again on its own.
      await client.query('rollback').then(
        () => client.release(),
        (rollbackError: Error) => client.release(rollbackError),
      );
      return { ok: false, error, retry: true };
    }
    // The connection broke (or the client gave up on it): drop it, which rolls back whatever was not committed.
    // Once COMMIT was sent the outcome is unknown, and a retry could tell the request that did validate its
    // check-in that it was already validated; an unavailable store would only fail every retry again, later.
    client.release(true);
    return { ok: false, error, retry: !committing && !isUnavailable(error) };
  }
  client.release();
  return { ok: true, results };
}
