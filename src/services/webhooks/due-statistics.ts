import type { Clock } from '../../domain/clock.js';
import type { Store } from '../../store/store.js';
import { refreshDueStatistics } from '../../store/webhooks/webhook-claim-repository.js';

/** Deliveries fanned out by this process since the statistics were last brought up to date, past which it does so. */
export const FANNED_OUT_BEFORE_REFRESH = 2_000;
/** At most once a minute per process: the refresh reads a sample of the table. */
export const REFRESH_INTERVAL_MS = 60_000;

/**
 * Keeps the database's picture of the delivery queue current while this process fills it. A queue can grow by
 * thousands of deliveries in seconds, long before the database's own maintenance (autovacuum's ANALYZE, when it runs
 * at all) would look again; until then a claim planned for an empty queue sorts the whole backlog to take 128.
 * After a round that fanned out, once enough deliveries were written since the last refresh and a minute has
 * passed, the statistics are refreshed in the background, one refresh at a time. A refresh that fails is said once
 * in the log and not tried again (a database user that does not own the table is passed over by PostgreSQL with a
 * notice, and nothing changes).
 */
export function createDueStatistics(
  store: Store,
  clock: Clock,
  log: { warn(details: object, message: string): void },
) {
  let written = 0;
  let refreshedAt: number | undefined;
  let refreshing: Promise<void> | undefined;
  let failed = false;
  return {
    /** A round's commit wrote `count` new deliveries. */
    wrote(count: number): void {
      if (store.dialect !== 'postgres' || failed) return;
      written += count;
      const now = clock.now();
      if (written < FANNED_OUT_BEFORE_REFRESH || refreshing !== undefined) return;
      if (refreshedAt !== undefined && now - refreshedAt < REFRESH_INTERVAL_MS) return;
      written = 0;
      refreshedAt = now;
      refreshing = refreshDueStatistics(store.db, store.dialect)
        .then(() => undefined)
        .catch((error: unknown) => {
          failed = true;
          log.warn({ error: (error as Error).message }, 'webhook queue statistics could not be refreshed');
        })
        .finally(() => {
          refreshing = undefined;
        });
    },
    /** The refresh in progress, if any (to wait for it when stopping). */
    settled(): Promise<void> {
      return refreshing ?? Promise.resolve();
    },
  };
}
