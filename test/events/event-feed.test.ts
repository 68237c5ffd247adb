import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import type { LoggedEvent, NewEvent } from '../../src/domain/events.js';
import { appendEvents } from '../../src/store/events/event-repository.js';
import type { EventSelector } from '../../src/services/event-feed.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { lastEventPosition } from '../fixtures/store-state.js';

type Gym = { partnerId: number; gymId: number };

async function gym(t: TestApp): Promise<Gym> {
  const n = await op.arrangeNetwork(t);
  return { partnerId: n.partner.id, gymId: n.gym.id };
}

/** Appends one event per gym listed, in this order, in one transaction. */
async function append(t: TestApp, gyms: readonly Gym[]): Promise<void> {
  const events: NewEvent[] = gyms.map((at, i) => ({
    type: i % 2 === 0 ? 'custom_code.created' : 'custom_code.deleted',
    occurredAt: op.T0_MS,
    ...at,
    data: { i },
  }));
  await t.store.write(async (trx) => {
    for (let start = 0; start < events.length; start += 1000) {
      await appendEvents(trx, events.slice(start, start + 1000));
    }
  });
}

/** The log after `after` as the selector wants it, read straight from the store: what a follower must get. */
async function wanted(t: TestApp, after: number, selector: EventSelector): Promise<number[]> {
  let query = t.store.db.selectFrom('events').select('position').where('position', '>', after);
  if (selector.type !== undefined) query = query.where('type', '=', selector.type);
  if (selector.gymId !== undefined) query = query.where('gym_id', '=', selector.gymId);
  return (await query.orderBy('position').execute()).map((row) => Number(row.position));
}

async function take(follower: AsyncGenerator<LoggedEvent[]>, count: number): Promise<number[]> {
  const got: number[] = [];
  while (got.length < count) {
    const next = await follower.next();
    if (next.done === true) break;
    got.push(...next.value.map((event) => event.position));
  }
  return got;
}

async function until(condition: () => boolean, withinMs = 5000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not so within ${withinMs} ms`);
    await sleep(10);
  }
}

describe.each(dialects)('the shared read of the event log (%s)', (dialect) => {
  const app = op.operatorApp({ dialect });

  test('when followers with different filters are live, then one shared read serves them all and each gets exactly its events in order', async () => {
    const t = app();
    const [a, b] = [await gym(t), await gym(t)];
    const after = await lastEventPosition(t.store);
    const stop = new AbortController();
    const selectors: EventSelector[] = [
      { gymId: a.gymId },
      { gymId: b.gymId, type: 'custom_code.deleted' },
      {},
    ];
    const followers = selectors.map((selector) => t.services.eventFeed.follow(selector, after, stop.signal));
    // Each asks for its first batch, and so joins the shared read, before anything is appended.
    const firsts = followers.map((follower) => follower.next());
    await until(() => t.services.eventFeed.sharing() === 3);

    await append(t, [a, b, b, a, b, a, b, b]);
    const got = await Promise.all(
      followers.map(async (follower, i) => {
        const first = await firsts[i];
        const positions = first?.done === false ? first.value.map((event) => event.position) : [];
        const expected = await wanted(t, after, selectors[i] ?? {});
        return [...positions, ...(await take(follower, expected.length - positions.length))];
      }),
    );
    stop.abort();

    expect(got).toEqual(await Promise.all(selectors.map((selector) => wanted(t, after, selector))));
    expect(got.map((positions) => positions.length)).toEqual([3, 2, 8]);
  });

  test('when a follower stops taking events past the bound, then it leaves the shared read, and once it takes them again it gets every one in order', async () => {
    const t = app();
    const [a, b] = [await gym(t), await gym(t)];
    const after = await lastEventPosition(t.store);
    const stop = new AbortController();
    const slow = t.services.eventFeed.follow({ gymId: a.gymId }, after, stop.signal);
    const first = slow.next();
    await until(() => t.services.eventFeed.sharing() === 1);
    await append(t, [a]);
    await first;

    // It takes nothing more while 1,500 of its events and 300 others commit.
    await append(
      t,
      Array.from({ length: 1800 }, (_, i) => (i % 6 === 5 ? b : a)),
    );
    await until(() => t.services.eventFeed.sharing() === 0);
    const expected = await wanted(t, after, { gymId: a.gymId });
    const rest = await take(slow, expected.length - 1);
    stop.abort();

    expect([expected[0], ...rest]).toEqual(expected);
    expect(expected).toHaveLength(1501);
  });
});
