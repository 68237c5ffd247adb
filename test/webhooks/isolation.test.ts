import { createHmac } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import { admin, arrangeNetwork, createCheckin } from '../fixtures/operator-api.js';
import { eventually, useReceivers, type Received } from '../fixtures/webhook-receiver.js';
import { deliveriesOf, register, webhookApp } from '../fixtures/webhook-app.js';

const receiver = useReceivers();

/** A TCP server that accepts every connection and never answers: a dead endpoint that holds each attempt open. */
async function silentServer() {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  silent.push(server);
  return {
    url: (path: string) => `http://127.0.0.1:${port}/${path}`,
    open: () => sockets.size,
    accepted: () => accepted,
    close: () => {
      for (const socket of sockets) socket.destroy();
    },
  };
}
const silent: ReturnType<typeof createServer>[] = [];
afterEach(async () => {
  for (const server of silent.splice(0)) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** The store's delivery rows of some endpoints. */
const rowsOf = (t: TestApp, endpointIds: number[]) =>
  t.store.db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('endpoint_id', 'in', endpointIds)
    .orderBy('id')
    .execute();

/** Waits until the dispatcher has read the whole log. */
async function dispatched(t: TestApp): Promise<void> {
  await eventually(async () => {
    const head = await t.store.db
      .selectFrom('events')
      .select((eb) => eb.fn.max('position').as('last'))
      .executeTakeFirstOrThrow();
    const { position } = await t.store.db
      .selectFrom('webhook_dispatch')
      .select('position')
      .executeTakeFirstOrThrow();
    return Number(position) >= Number(head.last);
  });
}

/** The bytes a Standard Webhooks receiver must get for an event of the log, and their signature, computed here. */
async function expectSignedEvent(t: TestApp, got: Received, secret: string, eventId: string): Promise<void> {
  const event = await t.store.db
    .selectFrom('events')
    .selectAll()
    .where('id', '=', eventId)
    .executeTakeFirstOrThrow();
  const body = JSON.stringify({
    type: event.type,
    timestamp: new Date(Number(event.occurred_at)).toISOString(),
    data: JSON.parse(event.data ?? 'null') as unknown,
  });
  const stamp = String(got.headers['webhook-timestamp']);
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const signature = createHmac('sha256', key).update(`${eventId}.${stamp}.${body}`).digest('base64');
  expect({
    body: got.body,
    id: got.headers['webhook-id'],
    signature: got.headers['webhook-signature'],
  }).toEqual({
    body,
    id: eventId,
    signature: `v1,${signature}`,
  });
}

describe.each(dialects)('one partner never slows another (%s)', (dialect) => {
  const app = webhookApp({ dialect, env: { GATEHOUSE_EVENT_RETENTION_DAYS: '2' } });

  test("when partner A's 10 endpoints accept and never answer and A has 30 events pending, then B's healthy endpoint is attempted before any of A's attempts times out, and A's are retried on schedule", async () => {
    const t = app();
    const dead = await silentServer();
    const healthy = await receiver();
    const a = await arrangeNetwork(t);
    const b = await arrangeNetwork(t);
    const deadEndpoints = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        register(t, a.partner.id, { url: dead.url(`a${i}`), timeout_ms: 5000 }),
      ),
    );
    const bEndpoint = await register(t, b.partner.id, { url: healthy.url });
    const aIds = deadEndpoints.map((endpoint) => endpoint.id);

    for (let i = 0; i < 30; i += 1) await createCheckin(t, a.product);
    await eventually(() => dead.accepted() > 0);
    const bCheckin = await createCheckin(t, b.product);
    await eventually(() => healthy.received.length === 1);

    // The order of attempts: B's request came while A's attempts were open and none of them had ended.
    const atB = {
      open: dead.open(),
      recorded: (await rowsOf(t, aIds)).filter((row) => row.attempts > 0).length,
    };
    expect(atB.recorded).toBe(0);
    expect(atB.open).toBeGreaterThan(0);
    expect(JSON.parse(healthy.received[0]!.body)).toMatchObject({
      type: 'checkin.created',
      data: { checkin_id: bCheckin.id },
    });
    await eventually(async () => (await deliveriesOf(t, bEndpoint.id))[0]?.status === 'delivered');

    // A's deliveries: each fanned out once, and those attempted time out and are rescheduled on the retry schedule.
    await eventually(async () => (await rowsOf(t, aIds)).some((row) => row.attempts > 0), 20_000);
    const [bRow] = await rowsOf(t, [bEndpoint.id]);
    const aRows = await rowsOf(t, aIds);
    expect(aRows).toHaveLength(300);
    const attempted = aRows.filter((row) => row.attempts > 0);
    expect(Math.min(...attempted.map((row) => Number(row.last_attempt_at)))).toBeGreaterThan(
      Number(bRow?.delivered_at),
    );
    for (const row of attempted) {
      expect([row.status, row.last_error, row.last_status_code]).toEqual([
        'pending',
        'timed out after 5000 ms',
        null,
      ]);
      // The schedule's first step is 0.2 s, with jitter.
      const wait = Number(row.next_attempt_at) - Number(row.last_attempt_at);
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(400);
    }
    for (const endpoint of deadEndpoints) await admin(t, 'DELETE', `/webhooks/${endpoint.id}`);
    dead.close();
  }, 40_000);

  test('when an endpoint is disabled (410, or five days of failures), then nothing is fanned out to it, its pending deliveries pin no payload, and enable sends what it missed while payloads are kept', async () => {
    const t = app();
    let gone = true;
    const hook = await receiver(() => ({ status: gone ? 410 : 200 }));
    let failing = true;
    const flaky = await receiver(() => ({ status: failing ? 500 : 200 }));
    const n = await arrangeNetwork(t);
    const other = await arrangeNetwork(t);
    const byGone = await register(t, n.partner.id, { url: hook.url });
    const byFailing = await register(t, other.partner.id, { url: flaky.url });

    const first = await createCheckin(t, n.product);
    const stuck = await createCheckin(t, other.product);
    await eventually(async () => (await admin(t, 'GET', `/webhooks/${byGone.id}`)).body.includes('"gone"'));
    await eventually(async () => (await deliveriesOf(t, byFailing.id))[0]?.attempts === 1);
    t.clock.advance(5 * 86_400_000);
    await eventually(async () =>
      (await admin(t, 'GET', `/webhooks/${byFailing.id}`)).body.includes('"failing"'),
    );

    // While disabled: events, and no delivery row for either endpoint.
    const missedEarly = await createCheckin(t, n.product);
    await createCheckin(t, other.product);
    await dispatched(t);
    expect((await rowsOf(t, [byGone.id])).map((row) => [row.event_id, row.status])).toEqual([
      [expect.any(String), 'failed'],
    ]);
    expect((await rowsOf(t, [byFailing.id])).map((row) => row.status)).toEqual(['pending']);

    // Three days on, the purge takes every payload older than two days: the disabled endpoint's pending one too.
    t.clock.advance(3 * 86_400_000);
    await t.services.retention.purge();
    const payloads = await t.store.db
      .selectFrom('events')
      .select('data')
      .where('partner_id', 'in', [n.partner.id, other.partner.id])
      .execute();
    expect(payloads.map((row) => row.data)).toEqual([null, null, null, null]);

    // Fresh events while still disabled, then enable: the receiver gets the missed events whose payload is kept.
    const missed = await createCheckin(t, n.product);
    const missedOther = await createCheckin(t, other.product);
    await dispatched(t);
    gone = false;
    failing = false;
    expect((await admin(t, 'POST', `/webhooks/${byGone.id}/enable`)).statusCode).toBe(200);
    expect((await admin(t, 'POST', `/webhooks/${byFailing.id}/enable`)).statusCode).toBe(200);
    await eventually(() => hook.received.length === 2);

    const missedEvent = (checkinId: number) =>
      t.store.db
        .selectFrom('events')
        .select('id')
        .where('type', '=', 'checkin.created')
        .where('data', 'like', `%"checkin_id":${checkinId},%`)
        .executeTakeFirstOrThrow();
    await expectSignedEvent(t, hook.received[1]!, byGone.secret, (await missedEvent(missed.id)).id);
    const otherEvent = (await missedEvent(missedOther.id)).id;
    await eventually(() => flaky.received.some((r) => r.headers['webhook-id'] === otherEvent));
    await expectSignedEvent(
      t,
      flaky.received.find((r) => r.headers['webhook-id'] === otherEvent)!,
      byFailing.secret,
      otherEvent,
    );
    // The log: the 410, and the missed event still kept; the one purged while disabled is not sent.
    await eventually(async () => (await deliveriesOf(t, byGone.id))[1]?.status === 'delivered');
    expect(
      (await deliveriesOf(t, byGone.id)).map((d) => [d.event_type, d.status, d.last_status_code]),
    ).toEqual([
      ['checkin.created', 'failed', 410],
      ['checkin.created', 'delivered', 200],
    ]);
    const checkinOf = (r: Received) =>
      (JSON.parse(r.body) as { data: { checkin_id: number } }).data.checkin_id;
    expect(hook.received.map(checkinOf)).toEqual([first.id, missed.id]);
    expect(hook.received.map(checkinOf)).not.toContain(missedEarly.id);
    // The delivery pending when its endpoint was disabled lost its payload to the purge: it is not sent.
    // Two attempts before the disable (the second found five days of failures): the one after enable is the third.
    await eventually(async () => (await rowsOf(t, [byFailing.id]))[0]!.attempts > 2);
    const [stuckRow] = await rowsOf(t, [byFailing.id]);
    expect(stuckRow?.last_error).toBe('payload purged (GATEHOUSE_EVENT_RETENTION_DAYS)');
    // Its attempts before the disable (500s), then only the missed event that kept its payload.
    const sent = flaky.received.map(checkinOf);
    expect(sent.slice(0, -1).every((id) => id === stuck.id) && sent.at(-1)).toBe(missedOther.id);
  }, 40_000);
});

describe.each(dialects)('attempts in flight per process (%s)', (dialect) => {
  const app = webhookApp({ dialect });

  test('when 20 partners each have two endpoints that never answer and 16 events each, then the process holds 512 attempts in flight, each endpoint 16 and each partner 32, and the next event finds no room', async () => {
    const t = app();
    const dead = await silentServer();
    try {
      const room = 512;
      const byPartner = new Map<number, number[]>();
      for (let p = 0; p < 20; p += 1) {
        const network = await arrangeNetwork(t);
        const ids: number[] = [];
        for (const k of [0, 1]) {
          ids.push(
            (await register(t, network.partner.id, { url: dead.url(`p${p}e${k}`), timeout_ms: 30_000 })).id,
          );
        }
        byPartner.set(network.partner.id, ids);
        for (let i = 0; i < 16; i += 1) await createCheckin(t, network.product);
      }
      const everyEndpoint = [...byPartner.values()].flat();
      /** The deliveries under a claim that has not lapsed: the attempts in flight. */
      const inFlight = async (ids: number[]) =>
        (await rowsOf(t, ids)).filter(
          (row) => row.claimed_until !== null && Number(row.claimed_until) > Date.now(),
        );

      await eventually(async () => (await inFlight(everyEndpoint)).length === room, 30_000);
      await dispatched(t);
      const held = await inFlight(everyEndpoint);
      const perEndpoint = new Map<number, number>();
      for (const row of held) perEndpoint.set(row.endpoint_id, (perEndpoint.get(row.endpoint_id) ?? 0) + 1);
      expect(Math.max(...perEndpoint.values())).toBeLessThanOrEqual(16);
      for (const ids of byPartner.values()) {
        expect(held.filter((row) => ids.includes(row.endpoint_id)).length).toBeLessThanOrEqual(32);
      }
      expect(await rowsOf(t, everyEndpoint)).toHaveLength(640);

      // Another partner's event is fanned out and its claim tried in the same round: the process has no room left.
      const late = await arrangeNetwork(t);
      const lateEndpoint = await register(t, late.partner.id, { url: dead.url('late'), timeout_ms: 30_000 });
      await createCheckin(t, late.product);
      await dispatched(t);
      expect(
        (await rowsOf(t, [lateEndpoint.id])).map((row) => [row.status, row.attempts, row.claimed_until]),
      ).toEqual([['pending', 0, null]]);
      expect(await inFlight(everyEndpoint)).toHaveLength(room);

      for (const id of [...everyEndpoint, lateEndpoint.id]) await admin(t, 'DELETE', `/webhooks/${id}`);
    } finally {
      dead.close();
    }
  }, 60_000);
});
