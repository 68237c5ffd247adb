import { endpointWants, memberKey } from '../../domain/webhooks/endpoint.js';
import type { Clock } from '../../domain/clock.js';
import type { LoggedEvent } from '../../domain/events.js';
import type { Store, StoreTransaction } from '../../store/store.js';
import { deliveryWork, type ClaimedDelivery } from '../../store/webhooks/webhook-claim-repository.js';
import { dispatchTargets } from '../../store/webhooks/webhook-endpoint-repository.js';
import {
  eventsAfter,
  lockDispatchCursor,
  recordDispatch,
  type NewDelivery,
} from '../../store/webhooks/webhook-dispatch-repository.js';

/** The most events one dispatch reads. */
export const DISPATCH_BATCH = 1000;

/** In the dispatch's transaction: claims what it may of the deliveries it just wrote (from `fromId` on). */
export type ClaimFresh = (trx: StoreTransaction, fromId: number) => Promise<ClaimedDelivery[]>;

export interface Dispatched {
  /** How many events it read. */
  readonly read: number;
  /** The events read, by position: a fresh delivery is sent from them, without reading its event again. */
  readonly events: ReadonlyMap<number, LoggedEvent>;
  /** The fresh deliveries this process claimed in the dispatch's own transaction. */
  readonly claimed: readonly ClaimedDelivery[];
}

const NOTHING: Dispatched = { read: 0, events: new Map(), claimed: [] };

/**
 * Follows the event log from the stored cursor and writes one delivery per event and matching enabled endpoint,
 * moving the cursor in the same transaction: an event is fanned out once, whichever process does it (the previous
 * release's dispatcher included), and none is missed (positions are in commit order). A disabled endpoint gets
 * nothing fanned out: `enable` and `recover` send it what it missed from the log (src/services/webhooks/catch-up.ts).
 *
 * In the same transaction it claims the fresh deliveries it may send at once (`claimFresh`: the fair share, and the
 * order per member·gym), so a delivery to a healthy endpoint costs one row written here and one update with its
 * result, both in batches, and is sent from the event in hand.
 *
 * Its callers look first, in one read (`deliveryWork`), whether there is anything past the cursor for an endpoint:
 * the delivery loop runs every 100 ms on every process, and with no endpoint at all a write transaction would cost a
 * commit (an fsync on SQLite) ten times a second for nothing. The cursor then stays where it is; an
 * endpoint hears only of events after its creation (its `fromPosition`), so the next dispatch starts at the
 * earliest endpoint's place rather than reading the events in between.
 */
export async function dispatchInTransaction(
  trx: StoreTransaction,
  dialect: Store['dialect'],
  clock: Clock,
  claimFresh?: ClaimFresh,
): Promise<Dispatched> {
  const cursor = await lockDispatchCursor(trx, dialect);
  const endpoints = await dispatchTargets(trx);
  const start = firstWanted(cursor, endpoints);
  if (start === undefined) return NOTHING;
  const events = await eventsAfter(trx, start, DISPATCH_BATCH);
  const last = events.at(-1);
  if (last === undefined) return NOTHING;
  const enabled = endpoints.filter((endpoint) => endpoint.status === 'enabled');
  const deliveries: NewDelivery[] = [];
  for (const event of events) {
    for (const endpoint of enabled) {
      if (event.position > endpoint.fromPosition && endpointWants(endpoint, event)) {
        deliveries.push({ endpointId: endpoint.id, event, memberKey: memberKey(event) });
      }
    }
  }
  const fromId = await recordDispatch(trx, deliveries, last.position, clock.now());
  const claimed = fromId === undefined || claimFresh === undefined ? [] : await claimFresh(trx, fromId);
  return {
    read: events.length,
    events: new Map(events.map((event) => [event.position, event])),
    claimed,
  };
}

/** Dispatches one batch in a transaction of its own, without sending anything; returns how many events it read. */
export async function dispatchEvents(store: Store, clock: Clock): Promise<number> {
  if (!(await deliveryWork(store.db, clock.now())).events) return 0;
  return (await store.write((trx) => dispatchInTransaction(trx, store.dialect, clock))).read;
}

/** Where the dispatch starts reading: past the cursor and past what every endpoint was created after; none without endpoints. */
function firstWanted(cursor: number, endpoints: readonly { fromPosition: number }[]): number | undefined {
  if (endpoints.length === 0) return undefined;
  return Math.max(cursor, Math.min(...endpoints.map((endpoint) => endpoint.fromPosition)));
}
