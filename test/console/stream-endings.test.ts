import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { build, dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { lastEventPosition } from '../fixtures/store-state.js';
import { openStream, type OpenStream } from '../fixtures/event-stream-reader.js';

/** Within the 5 s the contract allows: the credentials are read again every 100 ms here. */
const ENDS_WITHIN_MS = 5000;
const CHECK_MS = '100';

interface Logged {
  position: number;
  type: string;
}

async function logAfter(t: TestApp, after: number, query = ''): Promise<Logged[]> {
  const response = await op.admin(t, 'GET', `/events?after=${after}&limit=1000${query}`);
  return (JSON.parse(response.body) as { items: Logged[] }).items;
}
const asMessages = (events: Logged[]) =>
  events.map((event) => ({ id: String(event.position), event: event.type, data: event }));
const ready = (after: number) => ({ id: String(after), event: 'ready', data: { after } });
const end = (reason: string) => ({ id: undefined, event: 'end', data: { reason } });

async function operator(t: TestApp, body: Record<string, unknown> = {}) {
  const response = await op.admin(t, 'POST', '/operators', {
    name: `screen-${Date.now()}`,
    role: 'readonly',
    ...body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return JSON.parse(response.body) as { id: number; token: string };
}

/**
 * The stream ends within the bound with the end message, and sends nothing after it: `afterwards` appends an event
 * the stream would have wanted, once it has ended, and it never arrives.
 */
async function expectEnded(
  t: TestApp,
  stream: OpenStream,
  reason: string,
  afterwards: () => Promise<unknown>,
) {
  await expect(stream.ended(ENDS_WITHIN_MS)).resolves.toBe(true);
  const before = await lastEventPosition(t.store);
  await afterwards();
  expect(await lastEventPosition(t.store)).toBeGreaterThan(before);
  expect(await stream.next(1)).toEqual([end(reason)]);
  await expect(stream.next(1, 500)).rejects.toThrow('the stream ended after 0 messages');
}

describe.each(dialects)('event streams end with their credentials (%s)', (dialect) => {
  const env = { GATEHOUSE_STREAM_CREDENTIAL_CHECK_MS: CHECK_MS };
  const app = op.operatorApp({ dialect, env });
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
    expect(opened.status).toBe(200);
    return opened;
  };
  const desk = (t: TestApp, n: op.Network) =>
    stream(t, '/access/v1/events/stream', op.partnerHeaders(n.key.key, n.gym.id));

  test.each([
    ['revoked', (t: TestApp, n: op.Network) => op.admin(t, 'DELETE', `/keys/${n.key.id}`), 204],
    [
      'offboarded',
      (t: TestApp, n: op.Network) => op.admin(t, 'POST', `/partners/${n.partner.id}/offboard`),
      200,
    ],
  ] as const)(
    'when the key of an open desk stream is %s, then the stream ends with reason revoked and sends nothing after',
    async (_case, act, status) => {
      const t = app();
      const n = await op.arrangeNetwork(t);
      const start = await lastEventPosition(t.store);
      const live = await desk(t, n);
      expect(await live.next(1)).toEqual([ready(start)]);
      const visit = await op.createCheckin(t, n.product);
      expect(await live.next(1)).toEqual(asMessages(await logAfter(t, start)));

      expect((await act(t, n)).statusCode).toBe(status);

      // The partner's gym takes no new check-ins once it is offboarded: the event after is the visit's cancellation.
      await expectEnded(t, live, 'revoked', () => op.admin(t, 'POST', `/checkins/${visit.id}/cancel`));
    },
  );

  test('when the key of an open desk stream expires, then the stream ends with reason expired', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const key = await op.issueKey(t, n.partner.id, { expires_at: op.at(60_000) });
    const start = await lastEventPosition(t.store);
    const live = await stream(t, '/access/v1/events/stream', op.partnerHeaders(key.key, n.gym.id));
    expect(await live.next(1)).toEqual([ready(start)]);

    t.clock.advance(60_000);

    await expectEnded(t, live, 'expired', () => op.createCheckin(t, n.product));
  });

  test.each([
    ['revoked', async (t: TestApp, id: number) => op.admin(t, 'DELETE', `/operators/${id}`)],
    ['expired', async (t: TestApp) => t.clock.advance(60_000)],
  ] as const)(
    'when the operator of an open stream is %s, then its stream ends with that reason and the admin token’s stays open',
    async (reason, act) => {
      const t = app();
      const n = await op.arrangeNetwork(t);
      const who = await operator(t, { expires_at: op.at(60_000) });
      const start = await lastEventPosition(t.store);
      const screen = await stream(t, '/admin/v1/events/stream', { authorization: `Bearer ${who.token}` });
      const admin = await stream(t, '/admin/v1/events/stream', op.ADMIN);
      expect([await screen.next(1), await admin.next(1)]).toEqual([[ready(start)], [ready(start)]]);

      await act(t, who.id);

      await expectEnded(t, screen, reason, () => op.createCheckin(t, n.product));
      expect(await admin.next(1)).toEqual(asMessages((await logAfter(t, start)).slice(-1)));
    },
  );

  test('when a key is revoked through one process, then its stream open on another process on the same database ends', async () => {
    const t = app();
    const other = await build({
      dialect,
      env: { ...env, GATEHOUSE_ADMIN_TOKEN: op.ADMIN_TOKEN },
      databaseUrl: t.databaseUrl,
    });
    await other.app.listen({ port: 0, host: '127.0.0.1' });
    const n = await op.arrangeNetwork(t);
    const start = await lastEventPosition(t.store);
    const live = await desk(other, n);
    expect(await live.next(1)).toEqual([ready(start)]);

    expect((await op.admin(t, 'DELETE', `/keys/${n.key.id}`)).statusCode).toBe(204);

    await expectEnded(t, live, 'revoked', () => op.createCheckin(t, n.product));
  });
});

describe.each(dialects)('an event stream at its maximum lifetime (%s)', (dialect) => {
  const app = op.operatorApp({ dialect, env: { GATEHOUSE_STREAM_MAX_SECONDS: '1' } });
  beforeAll(async () => {
    await app().app.listen({ port: 0, host: '127.0.0.1' });
  });

  test('when a stream reaches its lifetime, then it ends with reason lifetime, and a reconnect with Last-Event-ID gets exactly the events after', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const start = await lastEventPosition(t.store);
    const headers = op.partnerHeaders(n.key.key, n.gym.id);
    const first = await openStream(t, '/access/v1/events/stream', headers);
    expect(await first.next(1)).toEqual([ready(start)]);
    await op.createCheckin(t, n.product);
    const [seen] = await first.next(1);

    await expect(first.ended(ENDS_WITHIN_MS)).resolves.toBe(true);
    expect(await first.next(1)).toEqual([end('lifetime')]);
    await op.createCheckin(t, n.product);
    await op.createCheckin(t, (await op.arrangeNetwork(t)).product);
    await op.createCheckin(t, n.product);
    const resumed = await openStream(t, '/access/v1/events/stream', {
      ...headers,
      'last-event-id': seen?.id ?? '',
    });

    try {
      const ours = await logAfter(t, start, `&gym_id=${n.gym.id}`);
      expect(ours).toHaveLength(3);
      expect([seen]).toEqual(asMessages(ours.slice(0, 1)));
      expect(await resumed.next(3)).toEqual([ready(ours[0]?.position ?? 0), ...asMessages(ours.slice(1))]);
    } finally {
      await resumed.close();
    }
  });
});
