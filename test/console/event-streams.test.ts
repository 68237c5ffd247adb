import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { lastEventPosition } from '../fixtures/store-state.js';
import { expectReply } from '../fixtures/partner-api.js';
import { EXPLICIT_DENY, errorEnvelope } from '../fixtures/wire-bodies.js';
import { openStream, type OpenStream } from '../fixtures/event-stream-reader.js';

interface Logged {
  position: number;
  type: string;
  data: { checkin_id?: number };
}

/** The log after `after`, as GET /admin/v1/events lists it: what every stream message must repeat exactly. */
async function logAfter(t: TestApp, after: number, query = ''): Promise<Logged[]> {
  const response = await op.admin(t, 'GET', `/events?after=${after}&limit=1000${query}`);
  return (JSON.parse(response.body) as { items: Logged[] }).items;
}

const asMessages = (events: Logged[]) =>
  events.map((event) => ({ id: String(event.position), event: event.type, data: event }));
const ready = (after: number) => ({ id: String(after), event: 'ready', data: { after } });

describe.each(dialects)('the event streams (%s)', (dialect) => {
  const app = op.operatorApp({ dialect });
  const open: OpenStream[] = [];
  beforeAll(async () => {
    await app().app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterEach(async () => {
    for (const stream of open.splice(0)) await stream.close();
  });
  const stream = async (t: TestApp, path: string, headers: Record<string, string>) => {
    const opened = await openStream(t, path, headers);
    open.push(opened);
    return opened;
  };

  test('when the operator opens the stream, then it says where it starts and then sends each event as it commits, as the log lists it', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const start = await lastEventPosition(t.store);

    const live = await stream(t, '/admin/v1/events/stream', op.ADMIN);
    expect(live.status).toBe(200);
    expect(live.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(live.headers.get('cache-control')).toBe('no-store');
    expect(await live.next(1)).toEqual([ready(start)]);
    const checkin = await op.createCheckin(t, n.product);
    expect((await op.validate(t, n.key.key, n.gym.id, checkin.platform_id)).statusCode).toBe(200);

    const logged = await logAfter(t, start);
    expect(logged.map((event) => event.type)).toEqual(['checkin.created', 'checkin.validated']);
    expect(await live.next(2)).toEqual(asMessages(logged));
  });

  test('when a client reconnects with Last-Event-ID or after, then it gets every event after that position and nothing before', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const start = await lastEventPosition(t.store);
    const first = await op.createCheckin(t, n.product);
    const second = await op.createCheckin(t, n.product);
    const [created, ...rest] = await logAfter(t, start);
    expect([created, ...rest].map((event) => event?.data.checkin_id)).toEqual([first.id, second.id]);
    const from = created?.position ?? 0;

    const resumed = await stream(t, '/admin/v1/events/stream?after=0', {
      ...op.ADMIN,
      'last-event-id': String(from),
    });
    const byQuery = await stream(t, `/admin/v1/events/stream?after=${from}`, op.ADMIN);

    expect(await resumed.next(2)).toEqual([ready(from), ...asMessages(rest)]);
    expect(await byQuery.next(2)).toEqual([ready(from), ...asMessages(rest)]);
  });

  test('when the operator filters the stream by gym and type, then only those events come', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const other = await op.createProduct(t, (await op.createGym(t, n.partner.id)).id);
    const start = await lastEventPosition(t.store);

    const filtered = await stream(
      t,
      `/admin/v1/events/stream?gym_id=${n.gym.id}&type=checkin.validated`,
      op.ADMIN,
    );
    expect(await filtered.next(1)).toEqual([ready(start)]);
    const elsewhere = await op.createCheckin(t, other);
    expect((await op.validate(t, n.key.key, other.gym_id, elsewhere.platform_id)).statusCode).toBe(200);
    const here = await op.createCheckin(t, n.product);
    expect((await op.validate(t, n.key.key, n.gym.id, here.platform_id)).statusCode).toBe(200);

    expect(await filtered.next(1)).toEqual(
      asMessages(await logAfter(t, start, `&gym_id=${n.gym.id}&type=checkin.validated`)),
    );
  });

  test("when a partner opens its stream, then it gets its own gym's events only, the other gyms' and partners' left out", async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const sibling = await op.createProduct(t, (await op.createGym(t, n.partner.id)).id);
    const stranger = await op.arrangeNetwork(t);
    const start = await lastEventPosition(t.store);

    const desk = await stream(t, '/access/v1/events/stream', op.partnerHeaders(n.key.key, n.gym.id));
    expect(desk.status).toBe(200);
    expect(await desk.next(1)).toEqual([ready(start)]);
    await op.createCheckin(t, sibling);
    await op.createCheckin(t, stranger.product);
    const mine: op.Checkin = await op.createCheckin(t, n.product);

    const ours = await logAfter(t, start, `&gym_id=${n.gym.id}`);
    expect(ours.map((event) => [event.type, event.data.checkin_id])).toEqual([['checkin.created', mine.id]]);
    expect(await desk.next(1)).toEqual(asMessages(ours));
    expect(ours[0]).toEqual(expect.objectContaining({ occurred_at: op.T0, partner_id: n.partner.id }));
  });

  test('when the server shuts down, then every open stream ends and the close completes', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const operator = await stream(t, '/admin/v1/events/stream', op.ADMIN);
    const desk = await stream(t, '/access/v1/events/stream', op.partnerHeaders(n.key.key, n.gym.id));
    await operator.next(1);
    await desk.next(1);

    // The app's own close, as serve's drain calls it: it must not wait for the streams' clients.
    const closing = t.app.close();

    await expect(operator.ended()).resolves.toBe(true);
    await expect(desk.ended()).resolves.toBe(true);
    await closing;
  });
});

describe.each(dialects)('the event streams refuse bad requests (%s)', (dialect) => {
  const app = op.operatorApp({ dialect });

  test.each([
    ['after=abc', {}, errorEnvelope('after', 'must be a position: a non-negative integer')],
    ['after=-1', {}, errorEnvelope('after', 'must be a position: a non-negative integer')],
    [
      '',
      { 'last-event-id': '1.5' },
      errorEnvelope('Last-Event-ID', 'must be a position: a non-negative integer'),
    ],
  ])(
    'when the operator stream is asked with %s %j, then 400 with the field named',
    async (query, headers, body) => {
      const t = app();
      const response = await t.app.inject({
        method: 'GET',
        url: `/admin/v1/events/stream?${query}`,
        headers: { ...op.ADMIN, ...headers },
      });
      expectReply(response, 400, body);
    },
  );

  test('when a stream is asked without a token, or with a key for another partner’s gym, then 401 and 403', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const stranger = await op.arrangeNetwork(t);

    const noToken = await t.app.inject({ method: 'GET', url: '/admin/v1/events/stream' });
    const foreign = await t.app.inject({
      method: 'GET',
      url: '/access/v1/events/stream',
      headers: op.partnerHeaders(n.key.key, stranger.gym.id),
    });
    const partnerBad = await t.app.inject({
      method: 'GET',
      url: '/access/v1/events/stream?after=x',
      headers: op.partnerHeaders(n.key.key, n.gym.id),
    });

    expect(noToken.statusCode).toBe(401);
    expect(JSON.parse(noToken.body)).toEqual(errorEnvelope('authorization', 'a bearer token is required'));
    expect({ status: foreign.statusCode, body: JSON.parse(foreign.body) as unknown }).toEqual({
      status: 403,
      body: EXPLICIT_DENY,
    });
    expectReply(partnerBad, 400, errorEnvelope('after', 'must be a position: a non-negative integer'));
  });
});

describe('an event stream outlives the request and idle timeouts', () => {
  const app = op.operatorApp({
    dialect: 'sqlite',
    env: {
      GATEHOUSE_HEADERS_TIMEOUT_MS: '200',
      GATEHOUSE_REQUEST_TIMEOUT_MS: '300',
      GATEHOUSE_KEEP_ALIVE_TIMEOUT_MS: '200',
    },
  });
  beforeAll(async () => {
    await app().app.listen({ port: 0, host: '127.0.0.1' });
  });

  test('when a stream stays quiet longer than every server timeout, then it is still open and delivers the next event', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const live = await openStream(t, '/admin/v1/events/stream', op.ADMIN);
    try {
      const [opened] = await live.next(1);
      await sleep(1500);
      const checkin = await op.createCheckin(t, n.product);

      const [message] = await live.next(1);
      expect(opened?.event).toBe('ready');
      expect(message?.data).toEqual(
        expect.objectContaining({
          type: 'checkin.created',
          data: expect.objectContaining({ checkin_id: checkin.id }) as unknown,
        }),
      );
    } finally {
      await live.close();
    }
  });
});
