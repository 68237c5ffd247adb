import type { AttemptOutcome } from '../../domain/webhooks/attempt-outcome.js';
import type { Store, StoreTransaction } from '../../store/store.js';
import {
  noteEndpointFailing,
  noteEndpointsHealthy,
  recordAttempts,
  type AttemptDetail,
  type ClaimedDelivery,
} from '../../store/webhooks/webhook-claim-repository.js';
import type { EndpointService } from './endpoint-service.js';

type Written = { recorded: boolean; disabled: boolean };

interface Pending {
  readonly claim: ClaimedDelivery;
  readonly outcome: AttemptOutcome;
  readonly at: number;
  readonly detail: AttemptDetail;
  readonly done: (result: Written) => void;
  readonly failed: (error: unknown) => void;
}

/** The attempts a transaction wrote: settled once it commits, failed if it does not. */
export interface RecordedBatch {
  committed(): void;
  failed(error: unknown): void;
}

const NONE: RecordedBatch = { committed: () => undefined, failed: () => undefined };

/**
 * Writes attempts in batches, inside the delivery loop's own transaction (the one that also dispatches and claims):
 * a busy process writes its attempts, its fan-out and its claims with one commit per round instead of one each.
 * `requestWrite` asks for that round; when the loop is not running, the recorder writes alone.
 */
export function createAttemptRecorder(store: Store, endpoints: EndpointService, requestWrite: () => boolean) {
  let queue: Pending[] = [];
  let alone: Promise<void> | undefined;

  /** Writes what is queued in the caller's transaction; settle the returned batch after the commit. */
  async function writeQueued(trx: StoreTransaction): Promise<RecordedBatch> {
    const batch = queue;
    queue = [];
    if (batch.length === 0) return NONE;
    let results: Written[];
    try {
      results = await writeBatch(trx, batch);
    } catch (error) {
      batch.forEach((pending) => pending.failed(error));
      throw error;
    }
    return {
      committed: () =>
        batch.forEach((pending, i) => pending.done(results[i] ?? { recorded: false, disabled: false })),
      failed: (error) => batch.forEach((pending) => pending.failed(error)),
    };
  }

  async function writeBatch(trx: StoreTransaction, batch: Pending[]): Promise<Written[]> {
    const done: Written[] = [];
    // Each endpoint's health once per batch, as its last recorded attempt left it.
    const health = new Map<number, { healthy: boolean; at: number }>();
    const recordedIds = await recordAttempts(
      trx,
      batch.map(({ claim, outcome, at, detail }) => ({ claim, record: outcome.delivery, at, detail })),
    );
    for (const { claim, outcome, at } of batch) {
      const recorded = recordedIds.has(claim.id);
      if (recorded) health.set(claim.endpointId, { healthy: outcome.endpoint.healthy, at });
      const disable = recorded ? outcome.endpoint.disable : undefined;
      const disabled =
        disable !== undefined && (await endpoints.disableInTransaction(trx, claim.endpointId, disable));
      done.push({ recorded, disabled });
    }
    // The healthy ones in one statement (it writes only the rows that were failing); a failure run starts per endpoint.
    const healthy = [...health].filter(([, note]) => note.healthy).map(([endpointId]) => endpointId);
    await noteEndpointsHealthy(trx, healthy);
    for (const [endpointId, { healthy: ok, at }] of health)
      if (!ok) await noteEndpointFailing(trx, endpointId, at);
    return done;
  }

  /** Writes what is queued in a transaction of its own (the loop is stopping or stopped). */
  async function writeAlone(): Promise<void> {
    while (queue.length > 0) {
      let batch: RecordedBatch = NONE;
      try {
        await store.write(async (trx) => {
          batch = await writeQueued(trx);
        });
        batch.committed();
      } catch (error) {
        batch.failed(error);
      }
    }
    alone = undefined;
  }

  return {
    /** Resolves once the attempt is written (recorded: false when the claim had lapsed and was taken over). */
    record(
      claim: ClaimedDelivery,
      outcome: AttemptOutcome,
      at: number,
      detail: AttemptDetail,
    ): Promise<Written> {
      return new Promise<Written>((done, failed) => {
        queue.push({ claim, outcome, at, detail, done, failed });
        if (!requestWrite()) alone ??= writeAlone();
      });
    },
    /** Whether attempts wait to be written. */
    get queued(): boolean {
      return queue.length > 0;
    },
    writeQueued,
    /** Writes what is queued now, alone. */
    flush: () => (alone ??= writeAlone()),
  };
}
