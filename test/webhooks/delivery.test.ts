import { Webhook } from 'standardwebhooks';
import { describe, expect, test } from 'vitest';
import { dispatchEvents } from '../../src/services/webhooks/dispatcher.js';
import { dialects } from '../fixtures/test-app.js';
import { admin, arrangeNetwork, createCheckin, createGym, validate } from '../fixtures/operator-api.js';
import { expectReply } from '../fixtures/partner-api.js';
import { eventually, useReceivers } from '../fixtures/webhook-receiver.js';
import { deliveriesOf, register, startWebhookApp, webhookApp } from '../fixtures/webhook-app.js';

const receiver = useReceivers();

describe.each(dialects)('webhook delivery (%s)', (dialect) => {
  const app = webhookApp({ dialect });

  test('when a check-in is created and validated, then the endpoint receives both events, signed as Standard Webhooks verifies, and the log says delivered', async () => {
    const t = app();
    const hook = await receiver();
    const n = await arrangeNetwork(t, { payout_cents: 990, currency: 'USD', description: 'Yoga class' });
    const endpoint = await register(t, n.partner.id, { url: hook.url });

    const checkin = await createCheckin(t, n.product);
    expect((await validate(t, n.key.key, n.gym.id, checkin.platform_id)).statusCode).toBe(200);
    await eventually(() => hook.received.length === 2);

    const verifier = new Webhook(endpoint.secret);
    const payloads = hook.received.map((r) => verifier.verify(r.body, r.headers as Record<string, string>));
    const [transaction] = await t.store.db
      .selectFrom('transactions')
      .selectAll()
      .where('checkin_id', '=', checkin.id)
      .execute();
    const data = {
      checkin_id: checkin.id,
      platform_id: checkin.platform_id,
      gym_id: n.gym.id,
      product: { id: n.product.id, description: 'Yoga class' },
      checked_in_at: checkin.checked_in_at,
      expires_at: checkin.expires_at,
    };
    expect(payloads).toEqual([
      { type: 'checkin.created', timestamp: checkin.checked_in_at, data: { ...data, status: 'pending' } },
      {
        type: 'checkin.validated',
        timestamp: expect.any(String) as unknown,
        data: {
          ...data,
          status: 'validated',
          transaction_id: transaction?.id,
          validated_at: expect.any(String) as unknown,
          payout_cents: 990,
          currency: 'USD',
        },
      },
    ]);
    const events = await t.store.db
      .selectFrom('events')
      .select(['id', 'type'])
      .where('partner_id', '=', n.partner.id)
      .orderBy('position')
      .execute();
    expect(hook.received.map((r) => r.headers['webhook-id'])).toEqual(events.map((e) => e.id));
    expect(hook.received.map((r) => r.headers['content-type'])).toEqual([
      'application/json',
      'application/json',
    ]);
    await eventually(async () => (await deliveriesOf(t, endpoint.id)).every((d) => d.status === 'delivered'));
    expect(await deliveriesOf(t, endpoint.id)).toEqual(
      events.map((event, i) => ({
        id: expect.any(Number) as unknown,
        webhook_id: endpoint.id,
        event_id: event.id,
        event_type: event.type,
        status: 'delivered',
        attempts: 1,
        last_status_code: 200,
        last_error: null,
        last_attempt_at: expect.any(String) as unknown,
        next_attempt_at: null,
        delivered_at: expect.any(String) as unknown,
        created_at: expect.any(String) as unknown,
        ...(i === 0 ? {} : {}),
      })),
    );
  });

  test('when events happen before any endpoint exists, then the dispatcher writes nothing, and the first endpoint registered brings its cursor up to date and hears only of what follows', async () => {
    // An app of its own: no endpoint of any other test.
    const t = await startWebhookApp({ dialect });
    try {
      const untouched = Number(
        (await t.store.db.selectFrom('webhook_dispatch').select('position').executeTakeFirstOrThrow())
          .position,
      );
      const n = await arrangeNetwork(t);
      const before = await createCheckin(t, n.product);
      const lastEvent = async () =>
        Number(
          (
            await t.store.db
              .selectFrom('events')
              .select((eb) => eb.fn.max('position').as('last'))
              .executeTakeFirstOrThrow()
          ).last,
        );
      const cursor = async () =>
        Number(
          (await t.store.db.selectFrom('webhook_dispatch').select('position').executeTakeFirstOrThrow())
            .position,
        );
      const logged = await lastEvent();
      expect(logged).toBeGreaterThan(untouched);
      // Nobody listens: a dispatch reads nothing and commits nothing, however often it runs.
      expect(await dispatchEvents(t.store, t.clock)).toBe(0);
      expect(await cursor()).toBe(untouched);
      expect(await t.store.db.selectFrom('webhook_deliveries').selectAll().execute()).toEqual([]);

      const hook = await receiver();
      const endpoint = await register(t, n.partner.id, { url: hook.url });
      expect(await cursor()).toBe(logged);
      const after = await createCheckin(t, n.product);
      await eventually(() => hook.received.length === 1);
      const verifier = new Webhook(endpoint.secret);
      const payload = verifier.verify(
        hook.received[0]?.body ?? '',
        hook.received[0]?.headers as Record<string, string>,
      );
      const { type, data } = payload as { type: string; data: { checkin_id: number } };
      expect([type, data.checkin_id]).toEqual(['checkin.created', after.id]);
      expect(after.id).not.toBe(before.id);
      expect((await deliveriesOf(t, endpoint.id)).map((d) => d.event_type)).toEqual(['checkin.created']);
    } finally {
      await t.webhookRunner.stop();
      await t.close();
    }
  });

  test('when the secret is rotated, then each delivery carries both signatures and either secret verifies it', async () => {
    const t = app();
    const hook = await receiver();
    const n = await arrangeNetwork(t);
    const endpoint = await register(t, n.partner.id, { url: hook.url });
    const rotated = await admin(t, 'POST', `/webhooks/${endpoint.id}/secret`);
    expect(rotated.statusCode).toBe(201);
    const { secret } = JSON.parse(rotated.body) as { secret: string };
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    await createCheckin(t, n.product);
    await eventually(() => hook.received.length === 1);

    const [got] = hook.received;
    const headers = got?.headers as Record<string, string>;
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(new Webhook(secret).verify(got?.body ?? '', headers)).toMatchObject({ type: 'checkin.created' });
    expect(new Webhook(endpoint.secret).verify(got?.body ?? '', headers)).toMatchObject({
      type: 'checkin.created',
    });
  });

  test('when several partners have endpoints, then each event is fanned out to its own partner’s endpoints that want it, in event order and each partner’s endpoints in the order registered', async () => {
    // An app of its own with its loop stopped: the store shows the dispatch's rows as it wrote them.
    const t = await startWebhookApp({ dialect });
    try {
      await t.webhookRunner.stop();
      const hook = await receiver();
      const a = await arrangeNetwork(t);
      const b = await arrangeNetwork(t);
      const c = await arrangeNetwork(t);
      const bOtherGym = await createGym(t, b.partner.id);
      const a1 = await register(t, a.partner.id, { url: hook.url });
      const b1 = await register(t, b.partner.id, { url: hook.url, gym_ids: [b.gym.id] });
      const a2 = await register(t, a.partner.id, { url: hook.url, event_types: ['checkin.validated'] });
      // Wants only B's other gym: none of these events.
      await register(t, b.partner.id, { url: hook.url, gym_ids: [bOtherGym.id] });

      const atA = await createCheckin(t, a.product);
      const atB = await createCheckin(t, b.product);
      await createCheckin(t, c.product);
      expect((await validate(t, a.key.key, a.gym.id, atA.platform_id)).statusCode).toBe(200);
      expect((await validate(t, b.key.key, b.gym.id, atB.platform_id)).statusCode).toBe(200);
      const events = await t.store.db
        .selectFrom('events')
        .select(['position', 'type'])
        .orderBy('position')
        .execute();
      const positions = events.slice(-5).map((event) => Number(event.position));
      expect(events.slice(-5).map((event) => event.type)).toEqual([
        'checkin.created',
        'checkin.created',
        'checkin.created',
        'checkin.validated',
        'checkin.validated',
      ]);

      expect(await dispatchEvents(t.store, t.clock)).toBe(5);
      const written = await t.store.db
        .selectFrom('webhook_deliveries')
        .select(['endpoint_id', 'event_position', 'event_type'])
        .orderBy('id')
        .execute();
      const [createdA, createdB, , validatedA, validatedB] = positions;
      expect(
        written.map((row) => [Number(row.endpoint_id), Number(row.event_position), row.event_type]),
      ).toEqual([
        [a1.id, createdA, 'checkin.created'],
        [b1.id, createdB, 'checkin.created'],
        [a1.id, validatedA, 'checkin.validated'],
        [a2.id, validatedA, 'checkin.validated'],
        [b1.id, validatedB, 'checkin.validated'],
      ]);
      expect(hook.received).toEqual([]);
    } finally {
      await t.close();
    }
  });

  test('when events are refused or filtered out, then nothing is sent for them', async () => {
    const t = app();
    const hook = await receiver();
    const n = await arrangeNetwork(t);
    const endpoint = await register(t, n.partner.id, { url: hook.url, event_types: ['checkin.validated'] });
    const other = await arrangeNetwork(t);

    const checkin = await createCheckin(t, n.product);
    await createCheckin(t, other.product);
    // A refused validation (a member with no check-in) changes nothing and emits nothing.
    expectReply(await validate(t, n.key.key, n.gym.id, '9999999999999'), 404, {
      metadata: { total: 0, errors: 1 },
      errors: [{ message: 'Check-In not found in database', key: 'checkin.validation.notfound' }],
    });
    expect((await validate(t, n.key.key, n.gym.id, checkin.platform_id)).statusCode).toBe(200);
    await eventually(() => hook.received.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 400));

    expect(hook.received.map((r) => (JSON.parse(r.body) as { type: string }).type)).toEqual([
      'checkin.validated',
    ]);
    expect((await deliveriesOf(t, endpoint.id)).map((d) => d.event_type)).toEqual(['checkin.validated']);
  });

  test('when the delivery log is read with order=desc, then the newest delivery comes first, a page at a time, back to the oldest', async () => {
    const t = app();
    const hook = await receiver();
    const n = await arrangeNetwork(t);
    const endpoint = await register(t, n.partner.id, { url: hook.url });
    for (let i = 0; i < 5; i += 1) await createCheckin(t, n.product);
    await eventually(() => hook.received.length === 5);
    await eventually(async () => (await deliveriesOf(t, endpoint.id)).every((d) => d.status === 'delivered'));
    const oldest = await deliveriesOf(t, endpoint.id);
    const url = `/webhooks/${endpoint.id}/deliveries?order=desc&limit=2`;

    const first = await admin(t, 'GET', url);
    const pages = [first.json<{ items: unknown[]; next_cursor: string }>()];
    for (let cursor = pages[0]?.next_cursor; typeof cursor === 'string'; cursor = pages.at(-1)?.next_cursor) {
      pages.push((await admin(t, 'GET', `${url}&cursor=${cursor}`)).json());
    }

    expect(oldest).toHaveLength(5);
    expectReply(first, 200, {
      items: oldest.slice(-2).reverse(),
      next_cursor: expect.any(String) as unknown,
    });
    expect(pages.map((page) => page.items)).toEqual([
      oldest.slice(3).reverse(),
      oldest.slice(1, 3).reverse(),
      oldest.slice(0, 1),
    ]);
    expect(pages.at(-1)?.next_cursor).toBeNull();
  });
});
