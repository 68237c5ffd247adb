import type { LoggedEvent } from '../domain/events.js';
import { listEvents, type EventFilter } from '../store/event-repository.js';
import type { ServiceDependencies } from './dependencies.js';

export interface EventPage {
  readonly items: LoggedEvent[];
  /** Where to continue: the last position returned, or `after` itself when nothing was. */
  readonly nextAfter: number;
  readonly hasMore: boolean;
}

/** The event log: every state change that matters outside, in commit order. */
export function createEventService({ store }: ServiceDependencies) {
  return {
    async list(filter: EventFilter, limit: number): Promise<EventPage> {
      const rows = await listEvents(store.db, filter, limit);
      const items = rows.slice(0, limit);
      return { items, nextAfter: items.at(-1)?.position ?? filter.after, hasMore: rows.length > limit };
    },
  };
}

export type EventService = ReturnType<typeof createEventService>;
