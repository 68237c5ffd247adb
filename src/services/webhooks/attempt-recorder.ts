import type { AttemptOutcome } from '../../domain/webhooks/attempt-outcome.js';
import type { Store } from '../../store/store.js';
import {
  noteEndpointHealth,
  recordAttempt,
  type ClaimedDelivery,
} from '../../store/webhooks/webhook-claim-repository.js';
import type { EndpointService } from './endpoint-service.js';

interface Pending {
  readonly claim: ClaimedDelivery;
  readonly outcome: AttemptOutcome;
  readonly at: number;
  readonly done: (result: { recorded: boolean; disabled: boolean }) => void;
  readonly failed: (error: unknown) => void;
}

/**
 * Writes attempts in batches: those that finish while a write is under way go together in the next transaction,
 * so a busy process writes its attempts with a few commits a second instead of one each.
 */
export function createAttemptRecorder(store: Store, endpoints: EndpointService) {
  let queue: Pending[] = [];
  let writing: Promise<void> | undefined;

  async function writeBatch(batch: Pending[]): Promise<void> {
    const results = await store.write(async (trx) => {
      const done: { recorded: boolean; disabled: boolean }[] = [];
      // Each endpoint's health once per batch, as its last recorded attempt left it.
      const health = new Map<number, { healthy: boolean; at: number }>();
      for (const { claim, outcome, at } of batch) {
        const recorded = await recordAttempt(trx, claim, outcome.delivery, at);
        if (recorded) health.set(claim.endpointId, { healthy: outcome.endpoint.healthy, at });
        const disable = recorded ? outcome.endpoint.disable : undefined;
        const disabled =
          disable !== undefined && (await endpoints.disableInTransaction(trx, claim.endpointId, disable));
        done.push({ recorded, disabled });
      }
      for (const [endpointId, { healthy, at }] of health)
        await noteEndpointHealth(trx, endpointId, healthy, at);
      return done;
    });
    batch.forEach((pending, i) => pending.done(results[i] ?? { recorded: false, disabled: false }));
  }

  async function drain(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      await writeBatch(batch).catch((error: unknown) => batch.forEach((pending) => pending.failed(error)));
    }
    writing = undefined;
  }

  return {
    /** Resolves once the attempt is written (recorded: false when the claim had lapsed and was taken over). */
    record(claim: ClaimedDelivery, outcome: AttemptOutcome, at: number) {
      return new Promise<{ recorded: boolean; disabled: boolean }>((done, failed) => {
        queue.push({ claim, outcome, at, done, failed });
        writing ??= drain();
      });
    },
  };
}
