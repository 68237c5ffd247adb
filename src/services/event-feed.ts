import { setTimeout as sleep } from 'node:timers/promises';
import type { LoggedEvent } from '../domain/events.js';
import {
  latestPosition,
  listEvents,
  scanEvents,
  type EventFilter,
} from '../store/events/event-repository.js';
import type { ServiceDependencies } from './dependencies.js';

/** How often the log is read while anyone follows it; idle screens cost one tiny query per tick in all. */
const DEFAULT_POLL_MS = 250;
const BATCH = 100;
/**
 * A follower with more than this waiting to be sent (a slow client) leaves the shared read and reads by itself
 * from where it got to once it has caught up: memory stays bounded, and nothing is skipped.
 */
const MAX_PENDING = 1000;

/** Which events a follower wants. */
export type EventSelector = Omit<EventFilter, 'after'>;

interface Follower {
  readonly selector: EventSelector;
  /** Every event up to here has been seen: queued in `pending`, or not one it wants. */
  cursor: number;
  readonly pending: LoggedEvent[];
  wake: (() => void) | undefined;
}

const wants = ({ type, partnerId, gymId }: EventSelector, event: LoggedEvent) =>
  (type === undefined || type === event.type) &&
  (partnerId === undefined || partnerId === event.partnerId) &&
  (gymId === undefined || gymId === event.gymId);

/**
 * Live readers of the event log. The log is the only source (several processes may write it), and one read of it
 * serves every follower of this process: the shared reader takes each new event once, in position order, and hands
 * it to the followers that want it. A follower that starts behind the shared read (a reconnect with Last-Event-ID)
 * reads its own way up to it first, then joins; so none misses an event, and open streams cost one query a tick.
 */
export function createEventFeed({ store }: Pick<ServiceDependencies, 'store'>, pollMs = DEFAULT_POLL_MS) {
  const live = new Set<Follower>();
  /** How far the shared read has got; undefined while nobody follows (it starts again at the log's head). */
  let tail: number | undefined;
  let starting: Promise<void> | undefined;
  let reading = false;

  function hand(follower: Follower, events: readonly LoggedEvent[], readTo: number): void {
    for (const event of events) {
      if (event.position > follower.cursor && wants(follower.selector, event)) follower.pending.push(event);
    }
    follower.cursor = Math.max(follower.cursor, readTo);
    if (follower.pending.length > MAX_PENDING) live.delete(follower);
    if (follower.pending.length > 0) follower.wake?.();
  }

  async function readShared(): Promise<void> {
    reading = true;
    while (live.size > 0) {
      const from = tail ?? 0;
      const events = await listEvents(store.db, from, BATCH, false).catch(() => undefined);
      const last = events?.at(-1)?.position;
      if (events !== undefined && last !== undefined) {
        for (const follower of live) hand(follower, events, last);
        tail = last;
      }
      if ((events?.length ?? 0) <= BATCH) await sleep(pollMs, undefined, { ref: false });
    }
    // Nobody follows: the next follower starts the read again at the head, not from here.
    tail = undefined;
    reading = false;
  }

  const startShared = () =>
    (starting ??= latestPosition(store.db)
      .then((head) => void (tail ??= head))
      .finally(() => (starting = undefined)));

  /** One step towards the shared read: join it, or read by itself the next stretch of the log. */
  async function catchUp(follower: Follower): Promise<void> {
    if (tail === undefined) return startShared();
    if (follower.cursor >= tail) {
      live.add(follower);
      if (!reading) void readShared();
      return;
    }
    const read = await scanEvents(store.db, { ...follower.selector, after: follower.cursor }, BATCH, false);
    const batch = read.events.slice(0, BATCH);
    follower.pending.push(...batch);
    const readTo = read.events.length > BATCH ? batch.at(-1)?.position : read.readTo;
    if (readTo === undefined || readTo <= follower.cursor) await sleep(pollMs, undefined, { ref: false });
    else follower.cursor = readTo;
  }

  function waitForEvents(follower: Follower, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        follower.wake = undefined;
        signal.removeEventListener('abort', wake);
        resolve();
      };
      follower.wake = wake;
      signal.addEventListener('abort', wake, { once: true });
    });
  }

  return {
    /** Where a follower that asks for no position starts: after everything committed so far. */
    head: () => latestPosition(store.db),

    /** The events `selector` wants after `after`, batch by batch as they commit, until `signal`. */
    async *follow(selector: EventSelector, after: number, signal: AbortSignal) {
      const follower: Follower = { selector, cursor: after, pending: [], wake: undefined };
      // A follower whose reader stopped asking (the client left) stops being handed events at once.
      signal.addEventListener('abort', () => live.delete(follower), { once: true });
      try {
        while (!signal.aborted) {
          if (follower.pending.length > 0) yield follower.pending.splice(0, BATCH);
          else if (!live.has(follower)) await catchUp(follower);
          else await waitForEvents(follower, signal);
        }
      } finally {
        live.delete(follower);
      }
    },

    /** Followers reading through the shared read now (the others are catching up). */
    sharing: () => live.size,
  };
}

export type EventFeed = ReturnType<typeof createEventFeed>;
