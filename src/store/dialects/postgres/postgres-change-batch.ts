import pg from 'pg';
import { decide, type ChangeKind, type ChangeRequest, type ChangeState } from '../../../domain/changes.js';
import { StaleDecisionError, type Write } from '../../../domain/writes.js';
import { memberLockKey } from '../../changes/member-lock.js';
import { jsonRows } from './postgres-json-rows.js';
import { pipeline, type Step } from './postgres-pipeline.js';
import { readsOf, statesOf, type States } from './postgres-batch-reads.js';
import { BEGIN, COMMIT, MEMBER_LOCKS } from './postgres-change-statements.js';
import { asStaleDecision, writeStep } from './postgres-write-batch.js';

/** One change of a batch, with the member·gym it locks (a cancellation's is looked up before it is queued). */
export interface BatchItem<K extends ChangeKind = ChangeKind> {
  readonly kind: K;
  readonly request: ChangeRequest<K>;
  readonly member: { readonly gymId: number; readonly platformId: string };
}

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

function decideOne<K extends ChangeKind>(kind: K, request: ChangeRequest<K>, state: ChangeState<K>) {
  return decide[kind](request, state);
}

/** Lets the domain decide each item from its state; collects every decision's writes. */
function decideAll(items: readonly BatchItem[], states: States): { results: ItemResult[]; writes: Write[] } {
  const writes: Write[] = [];
  const results = items.map((item, place): ItemResult => {
    const read = states.get(place) as { state?: unknown; error?: unknown } | undefined;
    if (read === undefined) return { ok: false, error: new Error('the batch lost a request') };
    if (!('state' in read)) return { ok: false, error: read.error };
    try {
      const decision = decideOne(item.kind, item.request, read.state as ChangeState<ChangeKind>);
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
    const keys = [...new Set(items.map((item) => memberLockKey(item.member)))];
    const locks: Step = { name: 'gatehouse_batch_locks', text: MEMBER_LOCKS, values: [jsonRows(keys)] };
    const reads = readsOf(items);
    const read = await pipeline(client, [BEGIN_STEP, locks, ...reads.map((r) => r.step)]);
    const decided = decideAll(items, statesOf(reads, read.slice(2)));
    results = decided.results;
    const write = writeStep(decided.writes);
    committing = true;
    await pipeline(client, write === undefined ? [COMMIT_STEP] : [write, COMMIT_STEP]);
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
