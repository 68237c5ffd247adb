import { describe, expect, test } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import { allowCodeWrites, failCodeWrites } from '../fixtures/fault-injection.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { lastEventPosition } from '../fixtures/store-state.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';
import { expectReply } from '../fixtures/partner-api.js';

interface LoggedEvent {
  position: number;
  id: string;
  type: string;
  occurred_at: string;
  partner_id: number;
  gym_id: number;
  data: Record<string, unknown>;
}
interface EventsPage {
  items: LoggedEvent[];
  next_after: number;
  has_more: boolean;
}

async function events(t: TestApp, query = ''): Promise<EventsPage> {
  const response = await op.admin(t, 'GET', `/events${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return JSON.parse(response.body) as EventsPage;
}

/** Every event after `after`, following next_after page by page. */
async function eventsAfter(t: TestApp, after: number, filter = ''): Promise<LoggedEvent[]> {
  const seen: LoggedEvent[] = [];
  for (let cursor = after; ;) {
    const page = await events(t, `?after=${cursor}&limit=50${filter}`);
    seen.push(...page.items);
    cursor = page.next_after;
    if (!page.has_more) return seen;
  }
}

const checkinData = (checkin: op.Checkin, description: string, status: string) => ({
  checkin_id: checkin.id,
  platform_id: checkin.platform_id,
  gym_id: checkin.gym_id,
  product: { id: checkin.product_id, description },
  status,
  checked_in_at: checkin.checked_in_at,
  expires_at: checkin.expires_at,
});

function code(
  t: TestApp,
  method: 'POST' | 'PUT' | 'DELETE',
  key: string,
  gymId: number,
  member: string,
  value?: string,
) {
  return t.app.inject({
    method,
    url: `/access/v1/code/${member}`,
    headers: {
      ...op.partnerHeaders(key, gymId),
      ...(value === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(value === undefined ? {} : { payload: JSON.stringify({ custom_code: value }) }),
  });
}

describe.each(dialects)('the event log, GET /admin/v1/events (%s)', (dialect) => {
  const app = op.operatorApp({ dialect });

  test('when check-ins are created, cancelled and validated and codes written, then each change has its one event, in order', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t, { payout_cents: 990, currency: 'USD', description: 'Yoga class' });
    const after = await lastEventPosition(t.store);

    const dropped = await op.createCheckin(t, n.product);
    expect((await op.admin(t, 'POST', `/checkins/${dropped.id}/cancel`)).statusCode).toBe(200);
    t.clock.advance(1000);
    const visit = await op.createCheckin(t, n.product);
    t.clock.advance(1000);
    expect((await op.validate(t, n.key.key, n.gym.id, visit.platform_id, 'QR-4321')).statusCode).toBe(200);
    expect((await code(t, 'PUT', n.key.key, n.gym.id, visit.platform_id, 'QR-9876')).statusCode).toBe(200);
    expect((await code(t, 'DELETE', n.key.key, n.gym.id, visit.platform_id)).statusCode).toBe(204);
    const [transaction] = await t.store.db
      .selectFrom('transactions')
      .select('id')
      .where('checkin_id', '=', visit.id)
      .execute();

    const logged = await eventsAfter(t, after);
    const of = { partner_id: n.partner.id, gym_id: n.gym.id };
    const codeData = { platform_id: visit.platform_id, gym_id: n.gym.id };
    expect(logged).toEqual(
      [
        {
          ...of,
          type: 'checkin.created',
          occurred_at: op.T0,
          data: checkinData(dropped, 'Yoga class', 'pending'),
        },
        {
          ...of,
          type: 'checkin.cancelled',
          occurred_at: op.T0,
          data: checkinData(dropped, 'Yoga class', 'cancelled'),
        },
        {
          ...of,
          type: 'checkin.created',
          occurred_at: op.at(1000),
          data: checkinData(visit, 'Yoga class', 'pending'),
        },
        {
          ...of,
          type: 'checkin.validated',
          occurred_at: op.at(2000),
          data: {
            ...checkinData(visit, 'Yoga class', 'validated'),
            transaction_id: transaction?.id,
            validated_at: op.at(2000),
            payout_cents: 990,
            currency: 'USD',
          },
        },
        { ...of, type: 'custom_code.created', occurred_at: op.at(2000), data: codeData },
        { ...of, type: 'custom_code.updated', occurred_at: op.at(2000), data: codeData },
        { ...of, type: 'custom_code.deleted', occurred_at: op.at(2000), data: codeData },
      ].map((event) => ({
        ...event,
        position: expect.any(Number) as number,
        id: expect.stringMatching(/^evt_[0-9a-f]{32}$/) as string,
      })),
    );
    const positions = logged.map((event) => event.position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(new Set(logged.map((event) => event.id)).size).toBe(logged.length);
    // The code itself is never in an event (codes unlike anything hex, so a random id cannot match).
    expect(JSON.stringify(logged)).not.toMatch(/QR-4321|QR-9876/);
  });

  test('when a request is refused or changes nothing, then no event; a refused validate that stores a code logs only the code', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const expired = await op.createCheckin(t, n.product, { checked_in_at: op.at(-1_300_000) });
    const cancelled = await op.createCheckin(t, n.product);
    expect((await op.admin(t, 'POST', `/checkins/${cancelled.id}/cancel`)).statusCode).toBe(200);
    const after = await lastEventPosition(t.store);
    const before = await op.wholeStore(t);

    // Refusals that change nothing: not found, expired and cancelled without a code, a second cancel, a refused
    // check-in, an existing code created again, a missing code updated or deleted.
    expect((await op.validate(t, n.key.key, n.gym.id, platformId(), 'QR-1')).statusCode).toBe(404);
    expect((await op.validate(t, n.key.key, n.gym.id, expired.platform_id)).statusCode).toBe(400);
    expect((await op.validate(t, n.key.key, n.gym.id, cancelled.platform_id)).statusCode).toBe(400);
    expect((await op.admin(t, 'POST', `/checkins/${cancelled.id}/cancel`)).statusCode).toBe(200);
    const foreign = { platform_id: platformId(), gym_id: n.gym.id, product_id: 999_999 };
    expect((await op.admin(t, 'POST', '/checkins', foreign)).statusCode).toBe(404);
    expect((await code(t, 'PUT', n.key.key, n.gym.id, platformId(), '1')).statusCode).toBe(404);
    expect((await code(t, 'DELETE', n.key.key, n.gym.id, platformId())).statusCode).toBe(404);
    expect(await eventsAfter(t, after)).toEqual([]);
    expect(await op.wholeStore(t)).toEqual(before);

    // A refused validate that stores a code: the code's event, nothing about the check-in.
    expect((await op.validate(t, n.key.key, n.gym.id, expired.platform_id, 'QR-2')).statusCode).toBe(400);
    expect(await eventsAfter(t, after)).toEqual([
      expect.objectContaining({
        type: 'custom_code.created',
        data: { platform_id: expired.platform_id, gym_id: n.gym.id },
      }),
    ]);
  });

  test('when a change fails and rolls back, then it leaves no event and no row', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const checkin = await op.createCheckin(t, n.product);
    const after = await lastEventPosition(t.store);
    const before = await op.wholeStore(t);
    await failCodeWrites(t.store, 'FAIL-48');
    try {
      expect((await op.validate(t, n.key.key, n.gym.id, checkin.platform_id, 'FAIL-48')).statusCode).toBe(
        500,
      );
      expect((await code(t, 'POST', n.key.key, n.gym.id, platformId(), 'FAIL-48')).statusCode).toBe(500);
    } finally {
      await allowCodeWrites(t.store);
    }
    expect(await eventsAfter(t, after)).toEqual([]);
    expect(await op.wholeStore(t)).toEqual(before);
  });

  test('when filtered by type, partner and gym, and paged with limit, then each filter selects its own and next_after continues', async () => {
    const t = app();
    const mine = await op.arrangeNetwork(t);
    const theirs = await op.arrangeNetwork(t);
    const after = await lastEventPosition(t.store);
    const visits = [await op.createCheckin(t, mine.product), await op.createCheckin(t, theirs.product)];
    for (const [visit, n] of [
      [visits[0], mine],
      [visits[1], theirs],
    ] as const) {
      expect((await op.validate(t, n.key.key, n.gym.id, visit?.platform_id ?? '')).statusCode).toBe(200);
    }

    const byType = await events(t, `?after=${after}&type=checkin.validated`);
    const byPartner = await events(t, `?after=${after}&partner_id=${theirs.partner.id}`);
    const byGym = await events(t, `?after=${after}&gym_id=${mine.gym.id}`);
    const first = await events(t, `?after=${after}&limit=3`);
    const rest = await events(t, `?after=${first.next_after}&limit=3`);
    const idle = await events(t, `?after=${rest.next_after}`);

    expect(byType.items.map((e) => [e.type, e.data.checkin_id])).toEqual([
      ['checkin.validated', visits[0]?.id],
      ['checkin.validated', visits[1]?.id],
    ]);
    expect(byPartner.items.map((e) => [e.type, e.partner_id])).toEqual([
      ['checkin.created', theirs.partner.id],
      ['checkin.validated', theirs.partner.id],
    ]);
    expect(byGym.items.map((e) => [e.type, e.gym_id])).toEqual([
      ['checkin.created', mine.gym.id],
      ['checkin.validated', mine.gym.id],
    ]);
    expect({ count: first.items.length, has_more: first.has_more, next_after: first.next_after }).toEqual({
      count: 3,
      has_more: true,
      next_after: first.items[2]?.position,
    });
    expect({ count: rest.items.length, has_more: rest.has_more }).toEqual({ count: 1, has_more: false });
    expect(idle).toEqual({ items: [], next_after: rest.next_after, has_more: false });
  });

  test.each([
    ['?after=-1', 'after', 'must be a position: a non-negative integer'],
    ['?after=abc', 'after', 'must be a position: a non-negative integer'],
    ['?after=99999999999999999', 'after', 'must be a position: a non-negative integer'],
    ['?limit=0', 'limit', 'must be an integer from 1 to 1000'],
    ['?gym_id=0', 'gym_id', 'must be a positive integer'],
  ])('when listed with %s, then 400 key %s', async (query, key, message) => {
    const t = app();
    expectReply(await op.admin(t, 'GET', `/events${query}`), 400, errorEnvelope(key, message));
  });

  test('when listed with an unknown type, then 400 key type naming the types', async () => {
    const t = app();
    const response = await op.admin(t, 'GET', '/events?type=checkin.exploded');
    expect(response.statusCode).toBe(400);
    const body = JSON.parse(response.body) as { errors: { key: string; message: string }[] };
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]?.key).toBe('type');
    for (const type of ['checkin.created', 'checkin.validated', 'custom_code.deleted']) {
      expect(body.errors[0]?.message).toContain(type);
    }
  });

  test('when events are listed without the admin token, then 401', async () => {
    const t = app();
    const response = await t.app.inject({ method: 'GET', url: '/admin/v1/events' });
    expect(response.statusCode).toBe(401);
  });

  test('when a reader follows next_after while many changes commit at once, then it sees every event exactly once, in order', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const after = await lastEventPosition(t.store);
    const seen: LoggedEvent[] = [];
    let done = false;
    const reader = (async () => {
      let cursor = after;
      while (!done || cursor < (await lastEventPosition(t.store))) {
        const page = await events(t, `?after=${cursor}&limit=7`);
        seen.push(...page.items);
        cursor = page.next_after;
        // Requests made in-process never leave the microtask queue: let the writers' batches run.
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const storm = Array.from({ length: 60 }, async () => {
      const checkin = await op.createCheckin(t, n.product);
      const response = await op.validate(t, n.key.key, n.gym.id, checkin.platform_id, 'S-1');
      expect(response.statusCode).toBe(200);
    });
    await Promise.all(storm);
    done = true;
    await reader;

    const all = await eventsAfter(t, after);
    expect(all).toHaveLength(180);
    expect(seen.map((event) => event.id)).toEqual(all.map((event) => event.id));
  });
});
