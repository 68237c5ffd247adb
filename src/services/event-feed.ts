import { setTimeout as sleep } from 'node:timers/promises';
import type { LoggedEvent } from '../domain/events.js';
import { latestPosition, scanEvents, type EventFilter } from '../store/events/event-repository.js';
import type { ServiceDependencies } from './dependencies.js';

/** How often the log's head is read while anyone follows it; idle screens cost one tiny query per tick in all. */
const DEFAULT_POLL_MS = 250;
const BATCH = 100;

interface Waiter {
  readonly beyond: number;
  readonly wake: () => void;
}

/**
 * Live readers of the event log. The log is the only source (several processes may write it), so followers wait on
 * one shared poll of its head, and each reads its own events by position: a follower never misses one, and a
 * reconnecting one resumes from the last position it got.
 */
export function createEventFeed({ store }: Pick<ServiceDependencies, 'store'>, pollMs = DEFAULT_POLL_MS) {
  const waiters = new Set<Waiter>();
  const closing = new AbortController();
  let polling = false;

  async function poll(): Promise<void> {
    polling = true;
    try {
      while (waiters.size > 0 && !closing.signal.aborted) {
        await sleep(pollMs, undefined, { ref: false }).catch(() => undefined);
        const head = await latestPosition(store.db).catch(() => undefined);
        if (head === undefined) continue;
        for (const waiter of waiters) if (head > waiter.beyond) waiter.wake();
      }
    } finally {
      polling = false;
    }
  }

  /** Resolves once the log holds a position past `beyond`, or the signal ends the wait. */
  function waitBeyond(beyond: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const waiter: Waiter = {
        beyond,
        wake: () => {
          waiters.delete(waiter);
          signal.removeEventListener('abort', waiter.wake);
          resolve();
        },
      };
      if (signal.aborted) return resolve();
      waiters.add(waiter);
      signal.addEventListener('abort', waiter.wake, { once: true });
      if (!polling) void poll();
    });
  }

  return {
    /** Where a follower that asks for no position starts: after everything committed so far. */
    head: () => latestPosition(store.db),

    /** The events matching `filter` after `after`, batch by batch as they commit, until `signal` or close(). */
    async *follow(filter: Omit<EventFilter, 'after'>, after: number, signal: AbortSignal) {
      const stop = AbortSignal.any([signal, closing.signal]);
      let cursor = after;
      while (!stop.aborted) {
        const head = await latestPosition(store.db);
        const read = await scanEvents(store.db, { ...filter, after: cursor }, BATCH);
        const batch: LoggedEvent[] = read.events.slice(0, BATCH);
        if (batch.length > 0) yield batch;
        if (read.events.length > BATCH) {
          cursor = batch.at(-1)?.position ?? cursor;
          continue;
        }
        // Nothing up to where the read looked (its last match, or further) matches but this batch: the next read starts there.
        cursor = Math.max(cursor, read.readTo ?? cursor);
        if (!read.cut) await waitBeyond(Math.max(head, cursor), stop);
      }
    },

    /** Ends every follower (the server is shutting down): their streams close and the drain can finish. */
    close(): void {
      closing.abort();
    },
  };
}

export type EventFeed = ReturnType<typeof createEventFeed>;
