import type { LoggedEvent } from '../domain/events.js';
import { scanEvents, type EventFilter } from '../store/events/event-repository.js';
import type { ServiceDependencies } from './dependencies.js';

export interface EventPage {
  readonly items: LoggedEvent[];
  /**
   * Where to continue: the last position returned, or `after` itself when nothing was; when a filtered read stopped
   * short of the log's end, the last position it looked at (nothing before it matches but the items).
   */
  readonly nextAfter: number;
  readonly hasMore: boolean;
}

/** The event log: every state change that matters outside, in commit order. */
export function createEventService({ store }: ServiceDependencies) {
  return {
    async list(filter: EventFilter, limit: number): Promise<EventPage> {
      const { events, readTo, cut } = await scanEvents(store.db, filter, limit);
      const items = events.slice(0, limit);
      const last = items.at(-1)?.position ?? filter.after;
      if (events.length > limit) return { items, nextAfter: last, hasMore: true };
      // A page cut short by the scan may hold fewer items than asked, even none: has_more says to go on.
      return cut && readTo !== undefined
        ? { items, nextAfter: readTo, hasMore: true }
        : { items, nextAfter: last, hasMore: false };
    },
  };
}

export type EventService = ReturnType<typeof createEventService>;
