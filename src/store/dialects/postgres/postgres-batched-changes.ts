import { setImmediate as nextTurn } from 'node:timers/promises';
import type pg from 'pg';
import type { BatchedChangeKind, ChangeKind, ChangeOutcome, ChangeRequest } from '../../../domain/changes.js';
import { memberLockKey, memberWideLockKey } from '../../changes/member-lock.js';
import { partnerLockKey } from './postgres-batch-counts.js';
import type { BatchItem } from './postgres-batch-item.js';
import { runBatch } from './postgres-change-batch.js';

interface Pending extends BatchItem {
  readonly resolve: (outcome: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/** What a request holds alone while its batch is in flight: its member·gym, and a creation its member across gyms. */
function memberKeys(item: Pending): string[] {
  const keys = [memberLockKey(item.member)];
  if (item.kind === 'create-checkin') keys.push(memberWideLockKey(item.member.platformId));
  return keys;
}

export interface BatchedChangesOptions {
  readonly pool: pg.Pool;
  /** The query-builder unit of work: each request of a failed batch runs through it on its own. */
  readonly fallback: <K extends ChangeKind>(kind: K, request: ChangeRequest<K>) => Promise<ChangeOutcome<K>>;
  /** Whether an error means "the store cannot serve now" (it then reaches every caller as it is). */
  readonly isUnavailable: (error: unknown) => boolean;
  /** Batches that may hold a pooled connection at once: fewer than the pool, so other work always finds one. */
  readonly batchesInFlight: number;
}

/** A batch is a few statements: big enough to share a commit widely, small enough to keep its arrays cheap. */
const MAX_BATCH = 64;

/**
 * State changes on PostgreSQL, batched: the changes that arrive together — validations, check-in creations and
 * cancellations, custom-code writes — share one transaction: BEGIN with their advisory locks, one statement per
 * kind of change that reads every member's state, the domain's decision for each (src/domain/changes.ts), one
 * statement with all their writes, COMMIT — two round trips (postgres-change-batch.ts); every reply waits for the
 * commit. One WAL flush per batch instead of per change. It must behave as the query-builder unit of work
 * (src/store/changes/unit-of-work.ts), which runs each request of a failed batch on its own. Invariants stay in the database
 * too: the guarded status change and the unique transactions.checkin_id.
 */
export function createBatchedChanges(options: BatchedChangesOptions) {
  let queue: Pending[] = [];
  let scheduled = false;
  let inFlight = 0;

  /** Members of the batches in flight: their next requests wait, so each member's requests keep their order. */
  const busy = new Set<string>();

  /**
   * The next batch: up to MAX_BATCH requests in arrival order, never two for one member·gym — both would be
   * decided from the same state — nor one whose member is in a batch in flight. Those wait for a later batch.
   * A check-in creation also holds its member across gyms: a plan counts the member's visits at every gym, so two
   * creations of one member are never decided from the same state either. A visit priced by its partner's paid
   * total (volume tiers) joins no batch while another batch holds that partner: the two would queue on the
   * partner's payout lock in PostgreSQL, and every other visit of the second batch with them. Many visits of the
   * partner share one batch, which counts them in its own order (postgres-batch-counts.ts).
   */
  function take(): { batch: Pending[]; members: string[] } {
    const batch: Pending[] = [];
    const held: string[] = [];
    const partners = new Set<string>();
    const later: Pending[] = [];
    for (const item of queue) {
      const keys = batch.length < MAX_BATCH ? memberKeys(item) : [];
      const partner = partnerLockKey(item);
      const free = partner === undefined || partners.has(partner) || !busy.has(partner);
      if (keys.length > 0 && free && keys.every((key) => !busy.has(key))) {
        for (const key of keys) busy.add(key);
        held.push(...keys);
        if (partner !== undefined && !partners.has(partner)) {
          partners.add(partner);
          busy.add(partner);
          held.push(partner);
        }
        batch.push(item);
      } else later.push(item);
    }
    queue = later;
    return { batch, members: held };
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
    const result = await runBatch(options.pool, batch, options.isUnavailable).catch(
      (error: unknown) => ({ ok: false, error, retry: false }) as const,
    );
    if (result.ok) {
      batch.forEach((item, index) => {
        const own = result.results[index];
        if (own === undefined) item.reject(new Error('the batch lost an outcome'));
        else if (own.ok) item.resolve(own.outcome);
        else item.reject(own.error);
      });
    } else if (result.retry) {
      // One request's failure must not fail its neighbours: each runs again, alone, through the builder.
      await Promise.all(
        batch.map((item) => options.fallback(item.kind, item.request).then(item.resolve, item.reject)),
      );
    } else {
      for (const item of batch) item.reject(result.error);
    }
  }

  return {
    /** Queues a change on the member·gym it locks; resolves with its outcome once its batch has committed. */
    apply<K extends BatchedChangeKind>(
      kind: K,
      request: ChangeRequest<K>,
      member: { gymId: number; platformId: string },
    ): Promise<ChangeOutcome<K>> {
      return new Promise<ChangeOutcome<K>>((resolve, reject) => {
        queue.push({ kind, request, member, resolve: resolve as (outcome: unknown) => void, reject });
        schedule();
      });
    },
  };
}
