import { endpointWants, memberKey } from '../../domain/webhooks/endpoint.js';
import type { Clock } from '../../domain/clock.js';
import type { LoggedEvent } from '../../domain/events.js';
import type { Store, StoreTransaction } from '../../store/store.js';
import {
  deliveryWork,
  leaseUntil,
  pendingMembers,
  type ClaimedDelivery,
} from '../../store/webhooks/webhook-claim-repository.js';
import type { ClaimCandidate } from '../../domain/webhooks/fair-share.js';
import { dispatchTargets, type DispatchTarget } from '../../store/webhooks/webhook-endpoint-repository.js';
import {
  eventsAfter,
  lockDispatchStart,
  recordDispatch,
  type NewDelivery,
} from '../../store/webhooks/webhook-dispatch-repository.js';

/** The most events one dispatch reads. */
export const DISPATCH_BATCH = 1000;

/** A delivery the dispatch is about to write, with the endpoint it goes to. */
export interface FreshCandidate extends NewDelivery, ClaimCandidate {
  readonly target: DispatchTarget;
}

/**
 * Which of the fresh deliveries that may go out at once (in order; none waits for an earlier one of its member·gym)
 * the process takes, counted in flight by the caller: they are written claimed.
 */
export type ChooseFresh = (candidates: readonly FreshCandidate[]) => readonly FreshCandidate[];

/**
 * The fresh deliveries claimed as they are written: of those that wait for no earlier delivery of the same
 * member·gym to the same endpoint (one still pending in the store, or one before it in this batch), what `choose`
 * takes. The order per member·gym is the claim's rule (see `dueDeliveries`), kept here for what is not yet written.
 */
async function freshClaims(
  trx: StoreTransaction,
  deliveries: readonly FreshCandidate[],
  choose: ChooseFresh,
): Promise<Set<FreshCandidate>> {
  const pair = (endpointId: number, key: string) => `${endpointId} ${key}`;
  const pairs = new Map(
    deliveries.map((d) => [pair(d.endpointId, d.memberKey), [d.endpointId, d.memberKey] as const]),
  );
  const waiting = new Set(
    (await pendingMembers(trx, [...pairs.values()])).map((p) => pair(p.endpointId, p.memberKey)),
  );
  const free: FreshCandidate[] = [];
  for (const delivery of deliveries) {
    const key = pair(delivery.endpointId, delivery.memberKey);
    if (!waiting.has(key)) free.push(delivery);
    // The pair's later deliveries in this batch wait for this one.
    waiting.add(key);
  }
  return new Set(choose(free));
}

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
 * The fresh deliveries it may send at once (`chooseFresh`: the fair share, and the order per member·gym) are written
 * already claimed, so a delivery to a healthy endpoint costs one row written here and one update with its result,
 * both in batches, and is sent from the event in hand.
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
  chooseFresh?: ChooseFresh,
): Promise<Dispatched> {
  // Past the cursor and past the earliest endpoint's creation: nothing to read without endpoints.
  const { cursor, earliest } = await lockDispatchStart(trx, dialect);
  if (earliest === undefined) return NOTHING;
  const events = await eventsAfter(trx, Math.max(cursor, earliest), DISPATCH_BATCH);
  const last = events.at(-1);
  if (last === undefined) return NOTHING;
  const enabled = enabledByPartner(await dispatchTargets(trx, [...new Set(events.map((e) => e.partnerId))]));
  const deliveries: FreshCandidate[] = [];
  for (const event of events) {
    for (const endpoint of enabled.get(event.partnerId) ?? []) {
      if (event.position > endpoint.fromPosition && endpointWants(endpoint, event)) {
        deliveries.push({
          endpointId: endpoint.id,
          partnerId: endpoint.partnerId,
          event,
          memberKey: memberKey(event),
          target: endpoint,
        });
      }
    }
  }
  const now = clock.now();
  const fresh =
    chooseFresh === undefined ? new Set<FreshCandidate>() : await freshClaims(trx, deliveries, chooseFresh);
  // Each claim's lease, written with its delivery and handed to the runner with it.
  const leases = new Map(
    [...fresh].map((delivery) => [delivery, leaseUntil(now, delivery.target.timeoutMs)]),
  );
  const written = await recordDispatch(
    trx,
    deliveries.map((delivery) => {
      const claimedUntil = leases.get(delivery);
      return claimedUntil === undefined ? delivery : { ...delivery, claimedUntil };
    }),
    last.position,
    now,
  );
  // One delivery per event and endpoint: the rows written are told apart by those two.
  const ids = new Map(written.map((row) => [`${row.endpointId} ${row.eventPosition}`, row.id]));
  const claimed = [...leases].map(([{ target, event }, claimedUntil]): ClaimedDelivery => {
    const id = ids.get(`${target.id} ${event.position}`);
    // Every delivery is written, so this fails the round (its claims are given back) only if that stops holding.
    if (id === undefined)
      throw new Error(`delivery of event ${event.id} to webhook ${target.id} not written`);
    return {
      id,
      endpointId: target.id,
      partnerId: target.partnerId,
      url: target.url,
      format: target.format,
      timeoutMs: target.timeoutMs,
      eventPosition: event.position,
      eventId: event.id,
      roundFailures: 0,
      failingSince: target.failingSince,
      claimedUntil,
    };
  });
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

/**
 * The enabled endpoints by partner, each partner's in the order read: an event is matched against its partner's
 * endpoints only, so a round costs its events times a partner's endpoints, not times every endpoint of the network.
 */
function enabledByPartner(endpoints: readonly DispatchTarget[]): Map<number, DispatchTarget[]> {
  const byPartner = new Map<number, DispatchTarget[]>();
  for (const endpoint of endpoints) {
    if (endpoint.status !== 'enabled') continue;
    const own = byPartner.get(endpoint.partnerId);
    if (own === undefined) byPartner.set(endpoint.partnerId, [endpoint]);
    else own.push(endpoint);
  }
  return byPartner;
}
