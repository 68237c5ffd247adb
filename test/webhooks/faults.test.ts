import { describe, expect, test } from 'vitest';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import { admin, arrangeNetwork, createCheckin } from '../fixtures/operator-api.js';
import { expectReply } from '../fixtures/partner-api.js';
import { eventually, startReceiver, useReceivers } from '../fixtures/webhook-receiver.js';
import { deliveriesOf, register, webhookApp } from '../fixtures/webhook-app.js';

const receiver = useReceivers();

const typeOf = (body: string) => JSON.parse(body) as { type: string; data: { platform_id: string } };

/** Who did what to the webhook endpoint, in order, from the audit log. */
function webhookAudit(t: TestApp, endpointId: number) {
  return t.store.db
    .selectFrom('audit_log')
    .select(['actor', 'action'])
    .where('entity', '=', 'webhook')
    .where('entity_id', '=', String(endpointId))
    .orderBy('id')
    .execute();
}

describe.each(dialects)('webhook receivers that fail (%s)', (dialect) => {
  const app = webhookApp({ dialect });

  test('when the receiver refuses connections and comes up later, then every event is delivered, in order per member·gym', async () => {
    const t = app();
    const down = await startReceiver();
    const { port, url } = down;
    await down.close();
    const n = await arrangeNetwork(t);
    const endpoint = await register(t, n.partner.id, { url });

    const first = await createCheckin(t, n.product);
    expect((await admin(t, 'POST', `/checkins/${first.id}/cancel`)).statusCode).toBe(200);
    await createCheckin(t, n.product, { platform_id: first.platform_id });
    const other = await createCheckin(t, n.product);
    await eventually(async () => (await deliveriesOf(t, endpoint.id)).some((d) => d.attempts >= 2));
    const failing = await deliveriesOf(t, endpoint.id);
    expect(
      failing.filter((d) => d.attempts > 0).map((d) => [d.status, d.last_error, d.last_status_code]),
    ).toEqual(failing.filter((d) => d.attempts > 0).map(() => ['pending', 'connection refused', null]));

    const up = await receiver(undefined, port);
    await eventually(() => up.received.length === 4);

    const seen = up.received.map((r) => typeOf(r.body));
    const ofFirst = seen.filter((e) => e.data.platform_id === first.platform_id).map((e) => e.type);
    expect(ofFirst).toEqual(['checkin.created', 'checkin.cancelled', 'checkin.created']);
    expect(seen.filter((e) => e.data.platform_id === other.platform_id).map((e) => e.type)).toEqual([
      'checkin.created',
    ]);
    await eventually(async () => (await deliveriesOf(t, endpoint.id)).every((d) => d.status === 'delivered'));
  });

  test('when receivers answer 500, 429 with Retry-After, or hang past the timeout, then each is retried, Retry-After is honoured, and a healthy endpoint is not delayed', async () => {
    const t = app();
    const failingThenOk = await receiver((i) => ({ status: i < 2 ? 500 : 200 }));
    const limited = await receiver((i) =>
      i === 0 ? { status: 429, headers: { 'retry-after': '2' } } : { status: 204 },
    );
    const hanging = await receiver((i) => (i === 0 ? 'hang' : { status: 200 }));
    const healthy = await receiver();
    const n = await arrangeNetwork(t);
    const a = await register(t, n.partner.id, { url: failingThenOk.url });
    const b = await register(t, n.partner.id, { url: limited.url });
    const c = await register(t, n.partner.id, { url: hanging.url, timeout_ms: 3000 });
    const d = await register(t, n.partner.id, { url: healthy.url });

    await createCheckin(t, n.product);
    await eventually(() => healthy.received.length === 1 && hanging.received.length === 1);
    // The healthy endpoint's delivery is recorded while the hanging one still holds its connection, unanswered.
    await eventually(async () => (await deliveriesOf(t, d.id))[0]?.status === 'delivered');
    expect((await deliveriesOf(t, c.id)).map((x) => [x.status, x.attempts])).toEqual([['pending', 0]]);
    await eventually(
      () =>
        failingThenOk.received.length === 3 && limited.received.length === 2 && hanging.received.length === 2,
    );

    expect(limited.received[1]!.at - limited.received[0]!.at).toBeGreaterThanOrEqual(1900);
    await eventually(async () =>
      (await Promise.all([a, b, c, d].map((e) => deliveriesOf(t, e.id)))).every(
        (log) => log[0]?.status === 'delivered',
      ),
    );
    const logs = await Promise.all(
      [a, b, c, d].map(async (e) =>
        (await deliveriesOf(t, e.id)).map((x) => [x.attempts, x.last_status_code]),
      ),
    );
    expect(logs).toEqual([[[3, 200]], [[2, 204]], [[2, 200]], [[1, 200]]]);
  });

  test('when the receiver answers 410, then the endpoint is disabled and audited, later events are not fanned out to it, and enable (what it missed) + recover (what failed) delivers them all', async () => {
    const t = app();
    let gone = true;
    const hook = await receiver(() => ({ status: gone ? 410 : 200 }));
    const n = await arrangeNetwork(t);
    const endpoint = await register(t, n.partner.id, { url: hook.url });

    const first = await createCheckin(t, n.product);
    await eventually(async () =>
      (await admin(t, 'GET', `/webhooks/${endpoint.id}`)).body.includes('"disabled"'),
    );
    const second = await createCheckin(t, n.product);
    // Nothing is fanned out to a disabled endpoint: the dispatcher passes the event without a delivery for it.
    await eventually(async () => {
      const [head, cursor] = await Promise.all([
        t.store.db
          .selectFrom('events')
          .select((eb) => eb.fn.max('position').as('last'))
          .executeTakeFirst(),
        t.store.db.selectFrom('webhook_dispatch').select('position').executeTakeFirstOrThrow(),
      ]);
      return Number(cursor.position) >= Number(head?.last);
    });

    expect(hook.received).toHaveLength(1);
    expect(
      (await deliveriesOf(t, endpoint.id)).map((x) => [
        x.status,
        x.attempts,
        x.last_status_code,
        x.last_error,
      ]),
    ).toEqual([['failed', 1, 410, 'HTTP 410']]);
    expect(await webhookAudit(t, endpoint.id)).toEqual([
      { actor: 'operator', action: 'create' },
      { actor: 'system', action: 'disable' },
    ]);

    gone = false;
    const enabled = await admin(t, 'POST', `/webhooks/${endpoint.id}/enable`);
    expect(JSON.parse(enabled.body)).toMatchObject({
      id: endpoint.id,
      status: 'enabled',
      disabled_reason: null,
    });
    expectReply(
      await admin(t, 'POST', `/webhooks/${endpoint.id}/recover`, { since: '2000-01-01T00:00:00Z' }),
      202,
      { recovered: 1 },
    );
    await eventually(() => hook.received.length === 3);
    const delivered = hook.received
      .slice(1)
      .map((r) => typeOf(r.body).data.platform_id)
      .sort();
    expect(delivered).toEqual([first.platform_id, second.platform_id].sort());
  });

  test('when the receiver answers 302 to another URL, then it is a failure and the redirect is not followed', async () => {
    const t = app();
    const target = await receiver();
    const redirecting = await receiver(() => ({ status: 302, headers: { location: target.url } }));
    const n = await arrangeNetwork(t);
    const endpoint = await register(t, n.partner.id, { url: redirecting.url });

    await createCheckin(t, n.product);
    await eventually(() => redirecting.received.length >= 2);

    expect(target.received).toEqual([]);
    const [delivery] = await deliveriesOf(t, endpoint.id);
    expect([delivery?.status, delivery?.last_status_code, delivery?.last_error]).toEqual([
      'pending',
      302,
      'redirect (302) not followed',
    ]);
  });

  test('when every attempt to an endpoint has failed for five days, then gatehouse disables it and audits that', async () => {
    const t = app();
    const failing = await receiver(() => ({ status: 500 }));
    const n = await arrangeNetwork(t);
    const endpoint = await register(t, n.partner.id, { url: failing.url });

    await createCheckin(t, n.product);
    await eventually(async () => (await deliveriesOf(t, endpoint.id))[0]?.attempts === 1);
    t.clock.advance(5 * 86_400_000);
    await eventually(async () =>
      (await admin(t, 'GET', `/webhooks/${endpoint.id}`)).body.includes('"failing"'),
    );

    expect(await webhookAudit(t, endpoint.id)).toEqual([
      { actor: 'operator', action: 'create' },
      { actor: 'system', action: 'disable' },
    ]);
    expect(JSON.parse((await admin(t, 'GET', `/webhooks/${endpoint.id}`)).body)).toMatchObject({
      status: 'disabled',
      disabled_reason: 'failing',
    });
  });
});
