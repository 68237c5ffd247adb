import { setImmediate as nextTurn } from 'node:timers/promises';
import type pg from 'pg';
import type { ValidationOutcome, ValidationRequest } from '../../domain/decisions/validation.js';
import { memberLockKey } from '../member-lock.js';
import { runBatch } from './postgres-validation-batch.js';

interface Pending {
  readonly request: ValidationRequest;
  readonly resolve: (outcome: ValidationOutcome) => void;
  readonly reject: (error: unknown) => void;
}

export interface BatchedValidationOptions {
  readonly pool: pg.Pool;
  /** The query-builder unit of work: each request of a failed batch runs through it on its own. */
  readonly fallback: (request: ValidationRequest) => Promise<ValidationOutcome>;
  /** Whether an error means "the store cannot serve now" (it then reaches every caller as it is). */
  readonly isUnavailable: (error: unknown) => boolean;
  /** Batches that may hold a pooled connection at once: fewer than the pool, so other work always finds one. */
  readonly batchesInFlight: number;
}

/** A batch is one statement: big enough to share a commit widely, small enough to keep its arrays cheap. */
const MAX_BATCH = 64;

/**
 * Validations on PostgreSQL, batched: the validations that arrive together share one transaction — BEGIN with
 * their advisory locks, one statement that reads every member's state, the domain's decision for each
 * (src/domain/changes.ts), one statement with all their writes, COMMIT — and every reply waits for the commit.
 * Four round trips and one WAL flush per batch instead of per validation. It must behave as the query-builder
 * unit of work (src/store/unit-of-work.ts), which runs each request of a failed batch on its own. Invariants stay
 * in the database too: the guarded status change and the unique transactions.checkin_id.
 */
export function createBatchedValidation(options: BatchedValidationOptions) {
  let queue: Pending[] = [];
  let scheduled = false;
  let inFlight = 0;

  /** Members of the batches in flight: their next requests wait, so each member's requests keep their order. */
  const busy = new Set<string>();

  /**
   * The next batch: up to MAX_BATCH requests in arrival order, never two for one member·gym — both would be
   * decided from the same state — nor one whose member is in a batch in flight. Those wait for a later batch.
   */
  function take(): { batch: Pending[]; members: string[] } {
    const batch: Pending[] = [];
    const members: string[] = [];
    const later: Pending[] = [];
    for (const item of queue) {
      const member = batch.length < MAX_BATCH ? memberLockKey(item.request) : undefined;
      if (member !== undefined && !busy.has(member)) {
        busy.add(member);
        members.push(member);
        batch.push(item);
      } else later.push(item);
    }
    queue = later;
    return { batch, members };
  }

  function schedule(): void {
    if (scheduled || queue.length === 0 || inFlight >= options.batchesInFlight) return;
    scheduled = true;
    void flush();
  }

  async function flush(): Promise<void> {
    // Let every request that is already readable join this batch before it starts.
    await nextTurn();
    scheduled = false;
    const { batch, members } = take();
    if (batch.length === 0) return;
    inFlight += 1;
    schedule();
    try {
      await settle(batch);
    } finally {
      inFlight -= 1;
      for (const member of members) busy.delete(member);
      schedule();
    }
  }

  async function settle(batch: Pending[]): Promise<void> {
    const result = await runBatch(
      options.pool,
      batch.map((item) => item.request),
      options.isUnavailable,
    ).catch((error: unknown) => ({ ok: false, error, retry: false }) as const);
    if (result.ok) {
      batch.forEach((item, index) => {
        const outcome = result.outcomes[index];
        if (outcome === undefined) item.reject(new Error('the batched validation lost an outcome'));
        else item.resolve(outcome);
      });
    } else if (result.retry) {
      // One request's failure must not fail its neighbours: each runs again, alone, through the builder.
      await Promise.all(batch.map((item) => options.fallback(item.request).then(item.resolve, item.reject)));
    } else {
      for (const item of batch) item.reject(result.error);
    }
  }

  return {
    validate(request: ValidationRequest): Promise<ValidationOutcome> {
      return new Promise<ValidationOutcome>((resolve, reject) => {
        queue.push({ request, resolve, reject });
        schedule();
      });
    },
  };
}
