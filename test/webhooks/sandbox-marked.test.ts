import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import {
  admin,
  createGym,
  createPartner,
  createProduct,
  issueKey,
  validate,
  type Partner,
} from '../fixtures/operator-api.js';
import { platformId, unique } from '../fixtures/factories.js';
import { openStreamReader, ownFeed, SHARED_NATS, type StreamReader } from '../fixtures/nats-stream-reader.js';
import { eventually, useReceivers } from '../fixtures/webhook-receiver.js';
import { useWellhubHandlers } from '../fixtures/wellhub-handler.js';
import { register, startWebhookApp } from '../fixtures/webhook-app.js';
import { useApp } from '../fixtures/test-app.js';

const receiver = useReceivers();
const wellhubHandler = useWellhubHandlers();
const WELLHUB_SECRET = 'partner-chosen-secret-2';

describe.each(dialects)('sandbox events marked "sandbox": true wherever they go (%s)', (dialect) => {
  const feed = ownFeed();
  const app = useApp({
    start: () =>
      startWebhookApp({
        dialect,
        env: {
          GATEHOUSE_NATS_URL: SHARED_NATS,
          GATEHOUSE_NATS_SUBJECT_PREFIX: feed.prefix,
          GATEHOUSE_NATS_STREAM: feed.stream,
        },
      }),
  });
  let reader: StreamReader;
  beforeAll(async () => {
    reader = await openStreamReader(SHARED_NATS);
  });
  afterAll(async () => {
    await app().natsFeed?.stop();
    await reader.remove(feed.stream);
    await reader.close();
  });

  /** A partner (sandbox or live) with a gym, a product, a key, a Standard and a Wellhub endpoint. */
  async function arrange(t: TestApp, sandbox: boolean) {
    const partner = sandbox
      ? (JSON.parse(
          (await admin(t, 'POST', '/partners', { name: `Sandbox ${unique()}`, sandbox: true })).body,
        ) as Partner)
      : await createPartner(t);
    const gym = await createGym(t, partner.id);
    const product = await createProduct(t, gym.id, { description: 'Day pass', payout_cents: 1500 });
    const key = await issueKey(t, partner.id);
    const hook = await receiver();
    const standard = await register(t, partner.id, { url: hook.url });
    const handler = await wellhubHandler(() => WELLHUB_SECRET);
    await register(t, partner.id, { url: handler.url, format: 'wellhub', secret: WELLHUB_SECRET });
    return { partner, gym, product, key, hook, standard, handler };
  }

  /** The member checks in (the sandbox route for a sandbox key, the operator API otherwise) and is validated. */
  async function visit(t: TestApp, n: Awaited<ReturnType<typeof arrange>>, sandbox: boolean) {
    const member = platformId();
    const created = sandbox
      ? await t.app.inject({
          method: 'POST',
          url: '/access/v1/sandbox/checkins',
          headers: { authorization: `Bearer ${n.key.key}`, 'x-gym-id': String(n.gym.id) },
          payload: { platform_id: member },
        })
      : await admin(t, 'POST', '/checkins', {
          platform_id: member,
          gym_id: n.gym.id,
          product_id: n.product.id,
        });
    expect(created.statusCode, created.body).toBe(201);
    expect((await validate(t, n.key.key, n.gym.id, member)).statusCode).toBe(200);
  }

  /** The partner's events as written: what each reader must get, marked when the partner is a sandbox. */
  async function written(t: TestApp, partnerId: number) {
    const rows = await t.store.db
      .selectFrom('events')
      .selectAll()
      .where('partner_id', '=', partnerId)
      .orderBy('position')
      .execute();
    return rows.map((row) => ({
      position: Number(row.position),
      id: row.id,
      type: row.type,
      timestamp: new Date(Number(row.occurred_at)).toISOString(),
      data: JSON.parse(row.data ?? 'null') as Record<string, unknown>,
    }));
  }

  test('when a sandbox partner and a live one each have a visit, then the sandbox events end with "sandbox": true in the log, the Standard bodies and NATS, its Wellhub deliveries carry X-Gatehouse-Sandbox: true, and the live ones are exactly as written', async () => {
    const t = app();
    t.natsFeed?.start();
    const sandbox = await arrange(t, true);
    const live = await arrange(t, false);

    await visit(t, sandbox, true);
    await visit(t, live, false);
    await eventually(() =>
      [sandbox, live].every((n) => n.hook.received.length === 2 && n.handler.received.length === 1),
    );

    for (const [n, isSandbox] of [
      [sandbox, true],
      [live, false],
    ] as const) {
      const events = await written(t, n.partner.id);
      expect(events.map((e) => e.type)).toEqual(['checkin.created', 'checkin.validated']);
      expect(events.every((e) => !('sandbox' in e.data))).toBe(true);
      const asRead = (data: Record<string, unknown>) => (isSandbox ? { ...data, sandbox: true } : data);

      // Standard Webhooks: the signed bytes, the sandbox flag last in data.
      const verifier = new Webhook(n.standard.secret);
      expect(n.hook.received.map((r) => r.body)).toEqual(
        events.map((e) => JSON.stringify({ type: e.type, timestamp: e.timestamp, data: asRead(e.data) })),
      );
      for (const r of n.hook.received) verifier.verify(r.body, r.headers as Record<string, string>);
      expect(n.hook.received.map((r) => r.body.includes('"sandbox"'))).toEqual([isSandbox, isSandbox]);

      // Wellhub: its fixed body, verified by the handler (200), the flag in a header of gatehouse's own.
      const [wellhub] = n.handler.received;
      expect(wellhub?.status).toBe(200);
      expect(wellhub?.body).not.toContain('sandbox');
      expect(wellhub?.headers['x-gatehouse-sandbox']).toBe(isSandbox ? 'true' : undefined);

      // The event log.
      const page = await admin(t, 'GET', `/events?partner_id=${n.partner.id}`);
      expect({ status: page.statusCode, body: JSON.parse(page.body) as unknown }).toEqual({
        status: 200,
        body: {
          items: events.map((e) => ({
            position: e.position,
            id: e.id,
            type: e.type,
            occurred_at: e.timestamp,
            partner_id: n.partner.id,
            gym_id: n.gym.id,
            data: asRead(e.data),
          })),
          next_after: expect.any(Number) as unknown,
          has_more: false,
        },
      });

      // NATS: the partner's id beside the event, the same flag in data.
      const ids = events.map((e) => e.id);
      await eventually(async () => {
        const stored = await reader.all(feed.stream).catch(() => []);
        return ids.every((id) => stored.some((m) => m.msgId === id));
      });
      const published = (await reader.all(feed.stream)).filter((m) => ids.includes(m.msgId ?? ''));
      expect(published.map((m) => m.raw)).toEqual(
        events.map((e) =>
          JSON.stringify({
            id: e.id,
            type: e.type,
            timestamp: e.timestamp,
            partner_id: n.partner.id,
            data: asRead(e.data),
          }),
        ),
      );
    }
  });
});
