import { describe, expect, test } from 'vitest';
import { EVENT_SCAN, type NewEvent } from '../../src/domain/events.js';
import { appendEvents, scanEvents } from '../../src/store/events/event-repository.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { lastEventPosition } from '../fixtures/store-state.js';

interface Gyms {
  readonly quiet: { partnerId: number; gymId: number };
  readonly busy: { partnerId: number; gymId: number };
}

async function twoGyms(t: TestApp): Promise<Gyms> {
  const a = await op.arrangeNetwork(t);
  const b = await op.arrangeNetwork(t);
  return {
    quiet: { partnerId: a.partner.id, gymId: a.gym.id },
    busy: { partnerId: b.partner.id, gymId: b.gym.id },
  };
}

/** Appends events in this order, one transaction for all: each names its gym and its index in the list. */
async function append(t: TestApp, gyms: readonly { partnerId: number; gymId: number }[]): Promise<number[]> {
  const events: NewEvent[] = gyms.map((gym, i) => ({
    type: 'custom_code.created',
    occurredAt: op.T0_MS,
    partnerId: gym.partnerId,
    gymId: gym.gymId,
    data: { i },
  }));
  const before = await positions(t);
  await t.store.write(async (trx) => {
    // Within the drivers' bound on parameters per statement.
    for (let start = 0; start < events.length; start += 1000) {
      await appendEvents(trx, events.slice(start, start + 1000));
    }
  });
  return (await positions(t)).slice(before.length);
}

async function positions(t: TestApp): Promise<number[]> {
  const rows = await t.store.db.selectFrom('events').select('position').orderBy('position').execute();
  return rows.map((row) => Number(row.position));
}

describe.each(dialects)('filtered reads of the event log scan it in bounded steps (%s)', (dialect) => {
  const app = op.operatorApp({ dialect, perTest: true });

  test('when a gym filter looks through a bounded window, then it returns the matches in it, where it stopped, and whether it was cut short', async () => {
    const t = app();
    const { quiet, busy } = await twoGyms(t);
    const after = await lastEventPosition(t.store);
    const p = await append(t, [busy, quiet, busy, busy, quiet, quiet, busy]);
    const read = (from: number, limit: number) =>
      t.store.db
        .transaction()
        .execute((trx) => scanEvents(trx, { after: from, gymId: quiet.gymId }, limit, true, 3));
    const summary = async (from: number, limit: number) => {
      const r = await read(from, limit);
      return {
        positions: r.events.map((e) => e.position),
        data: r.events.map((e) => e.data),
        readTo: r.readTo,
        cut: r.cut,
      };
    };

    expect(await summary(after, 5)).toEqual({ positions: [p[1]], data: [{ i: 1 }], readTo: p[2], cut: true });
    expect(await summary(p[2]!, 5)).toEqual({
      positions: [p[4], p[5]],
      data: [{ i: 4 }, { i: 5 }],
      readTo: p[5],
      cut: true,
    });
    // A full page (limit + 1 matches) ends where its last match is.
    expect(await summary(p[2]!, 1)).toEqual({
      positions: [p[4], p[5]],
      data: [{ i: 4 }, { i: 5 }],
      readTo: p[5],
      cut: false,
    });
    expect(await summary(p[5]!, 5)).toEqual({ positions: [], data: [], readTo: p[6], cut: false });
    expect(await summary(p[6]!, 5)).toEqual({ positions: [], data: [], readTo: undefined, cut: false });
  });

  test('when a quiet gym has one event behind more than a scan of other events, then the first page is empty with has_more and a cursor past them, and the next finds it', async () => {
    const t = app();
    const { quiet, busy } = await twoGyms(t);
    const after = await lastEventPosition(t.store);
    const p = await append(t, [...Array.from({ length: EVENT_SCAN + 5 }, () => busy), quiet]);

    const first = await op.admin(t, 'GET', `/events?after=${after}&gym_id=${quiet.gymId}&limit=10`);
    expect(first.statusCode).toBe(200);
    expect(JSON.parse(first.body)).toEqual({ items: [], next_after: p[EVENT_SCAN - 1], has_more: true });

    const second = await op.admin(
      t,
      'GET',
      `/events?after=${p[EVENT_SCAN - 1]}&gym_id=${quiet.gymId}&limit=10`,
    );
    expect(second.statusCode).toBe(200);
    const body = JSON.parse(second.body) as { items: { position: number; gym_id: number; data: unknown }[] };
    expect(body).toEqual({
      items: [
        expect.objectContaining({ position: p.at(-1), gym_id: quiet.gymId, data: { i: EVENT_SCAN + 5 } }),
      ],
      next_after: p.at(-1),
      has_more: false,
    });
  });

  test('when a gym is followed live behind more than a scan of other events, then the follower passes them without waiting and yields the gym event', async () => {
    const t = app();
    const { quiet, busy } = await twoGyms(t);
    const after = await lastEventPosition(t.store);
    const p = await append(t, [...Array.from({ length: EVENT_SCAN * 2 + 1 }, () => busy), quiet]);
    const stop = new AbortController();

    const follower = t.services.eventFeed.follow({ gymId: quiet.gymId }, after, stop.signal);
    const first = await follower.next();
    stop.abort();

    expect(first.done).toBe(false);
    expect(first.value?.map((event) => [event.position, event.gymId, event.data])).toEqual([
      [p.at(-1), quiet.gymId, { i: EVENT_SCAN * 2 + 1 }],
    ]);
  });
});
