import { endpointWants, memberKey } from '../../domain/webhooks/endpoint.js';
import type { Clock } from '../../domain/clock.js';
import type { Store } from '../../store/store.js';
import { allEndpoints } from '../../store/webhooks/webhook-endpoint-repository.js';
import {
  eventsAfter,
  hasEventsAfter,
  lockDispatchCursor,
  readDispatchCursor,
  recordDispatch,
  type NewDelivery,
} from '../../store/webhooks/webhook-dispatch-repository.js';

const BATCH = 1000;

/**
 * Follows the event log from the stored cursor and writes one delivery per event and matching endpoint, moving
 * the cursor in the same transaction: an event is fanned out once, whichever process does it, and none is
 * missed (positions are in commit order). Returns how many events it read.
 *
 * With no endpoint at all it writes nothing: it runs every 100 ms on every process, and a write transaction there
 * would cost a commit (an fsync on SQLite) ten times a second for nothing. The cursor then stays where it is; an
 * endpoint hears only of events after its creation (its `fromPosition`), so the next dispatch starts at the
 * earliest endpoint's place rather than reading the events in between.
 */
export async function dispatchEvents(store: Store, clock: Clock): Promise<number> {
  const after = firstWanted(await readDispatchCursor(store.db), await allEndpoints(store.db));
  if (after === undefined || !(await hasEventsAfter(store.db, after))) return 0;
  return store.write(async (trx) => {
    const cursor = await lockDispatchCursor(trx, store.dialect);
    const endpoints = await allEndpoints(trx);
    const start = firstWanted(cursor, endpoints);
    if (start === undefined) return 0;
    const events = await eventsAfter(trx, start, BATCH);
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

/** Where the dispatch starts reading: past the cursor and past what every endpoint was created after; none without endpoints. */
function firstWanted(cursor: number, endpoints: readonly { fromPosition: number }[]): number | undefined {
  if (endpoints.length === 0) return undefined;
  return Math.max(cursor, Math.min(...endpoints.map((endpoint) => endpoint.fromPosition)));
}
