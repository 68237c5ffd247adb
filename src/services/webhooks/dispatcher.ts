import { endpointWants, memberKey } from '../../domain/webhooks/endpoint.js';
import type { Clock } from '../../domain/clock.js';
import type { Store } from '../../store/store.js';
import { allEndpoints } from '../../store/webhook-endpoint-repository.js';
import {
  eventsAfter,
  hasEventsAfter,
  lockDispatchCursor,
  readDispatchCursor,
  recordDispatch,
  skipEventsAfter,
  type NewDelivery,
} from '../../store/webhook-dispatch-repository.js';

const BATCH = 1000;

/**
 * Follows the event log from the stored cursor and writes one delivery per event and matching endpoint, moving
 * the cursor in the same transaction: an event is fanned out once, whichever process does it, and none is
 * missed (positions are in commit order). Returns how many events it read.
 */
export async function dispatchEvents(store: Store, clock: Clock): Promise<number> {
  if (!(await hasEventsAfter(store.db, await readDispatchCursor(store.db)))) return 0;
  return store.write(async (trx) => {
    const cursor = await lockDispatchCursor(trx, store.dialect);
    const endpoints = await allEndpoints(trx);
    if (endpoints.length === 0) {
      // Nobody to deliver to (an endpoint registered later starts at the cursor): move past the events unread.
      const { count, last } = await skipEventsAfter(trx, cursor, BATCH);
      if (count > 0) await recordDispatch(trx, [], last, clock.now());
      return count;
    }
    const events = await eventsAfter(trx, cursor, BATCH);
    const last = events.at(-1);
    if (last === undefined) return 0;
    const deliveries: NewDelivery[] = [];
    for (const event of events) {
      for (const endpoint of endpoints) {
        if (event.position > endpoint.fromPosition && endpointWants(endpoint, event)) {
          deliveries.push({ endpointId: endpoint.id, event, memberKey: memberKey(event) });
        }
      }
    }
    await recordDispatch(trx, deliveries, last.position, clock.now());
    return events.length;
  });
}
