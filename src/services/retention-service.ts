import {
  PURGE_BATCH,
  purgeEventPayloads,
  purgeUnpaidCheckins,
  type PurgeStep,
} from '../store/events/retention-repository.js';
import type { StoreTransaction } from '../store/store.js';
import type { ServiceDependencies } from './dependencies.js';

const DAY_MS = 86_400_000;

export interface Purged {
  readonly eventPayloads: number;
  readonly checkins: number;
}

/**
 * Retention, one owner per kind of data: delivered event payloads for GATEHOUSE_EVENT_RETENTION_DAYS, check-ins
 * that never became transactions (with their member) for GATEHOUSE_RETENTION_DAYS. Custom codes live until deleted
 * or erased; the ledger, settlements and the audit log are kept.
 */
export function createRetentionService({ store, clock, config }: ServiceDependencies) {
  /** A batch per transaction until one finds nothing left: other writers are never held up for long. */
  async function inBatches(batch: (trx: StoreTransaction) => Promise<number>): Promise<number> {
    let total = 0;
    for (;;) {
      const done = await store.write(batch);
      total += done;
      if (done < PURGE_BATCH) return total;
    }
  }

  /** The log walked window by window, a transaction each, until a window holds nothing due. */
  async function eventPayloadsBefore(before: number): Promise<number> {
    let total = 0;
    let step: PurgeStep = { purged: 0, next: 0 };
    while (step.next !== undefined) {
      const after = step.next;
      step = await store.write((trx) => purgeEventPayloads(trx, before, after));
      total += step.purged;
    }
    return total;
  }

  return {
    async purge(): Promise<Purged> {
      const now = clock.now();
      const eventPayloads = await eventPayloadsBefore(now - config.eventRetentionDays * DAY_MS);
      const checkins = await inBatches((trx) =>
        purgeUnpaidCheckins(trx, now - config.retentionDays * DAY_MS),
      );
      return { eventPayloads, checkins };
    },
  };
}

export type RetentionService = ReturnType<typeof createRetentionService>;
