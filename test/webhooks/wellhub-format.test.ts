import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import { admin, createProduct, createPartner, issueKey } from '../fixtures/operator-api.js';
import { platformId, unique } from '../fixtures/factories.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';
import { expectReply } from '../fixtures/partner-api.js';
import { eventually } from '../fixtures/webhook-receiver.js';
import { deliveriesOf, register, webhookApp } from '../fixtures/webhook-app.js';

/**
 * A receiver that checks deliveries exactly as webhook handlers written for Wellhub do: the HMAC-SHA1 of the raw
 * body with the partner's secret, as uppercase hex, against `X-Gympass-Signature` (a `0x` prefix tolerated).
 * A good signature gets 200, a bad one 401.
 */
async function startWellhubHandler(secret: () => string) {
  const received: { headers: IncomingHttpHeaders; body: string; verified: boolean }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      const header = String(request.headers['x-gympass-signature'] ?? '').replace(/^0x/, '');
      const expected = createHmac('sha1', secret()).update(raw).digest('hex').toUpperCase();
      const verified = header === expected;
      received.push({ headers: request.headers, body: raw.toString('utf8'), verified });
      response.writeHead(verified ? 200 : 401).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/gympass/checkin`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const handlers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(handlers.splice(0).map((handler) => handler.close()));
});

const SECRET = 'partner-chosen-secret-1';
const ANA = {
  first_name: 'Ana',
  last_name: 'Souza',
  email: 'ana@example.com',
  phone_number: '+5511999990000',
};

/** A partner, one gym named as the test says, a Day pass product and a key. */
async function arrangeGym(t: TestApp) {
  const partner = await createPartner(t);
  const name = `Academia Centro ${unique()}`;
  const gymResponse = await admin(t, 'POST', '/gyms', { partner_id: partner.id, name });
  const gym = JSON.parse(gymResponse.body) as { id: number };
  const product = await createProduct(t, gym.id, { description: 'Day pass', payout_cents: 1500 });
  const key = await issueKey(t, partner.id);
  return { partner, gym: { id: gym.id, name }, product, key };
}

async function checkIn(t: TestApp, product: { id: number; gym_id: number }, member?: Record<string, string>) {
  const response = await admin(t, 'POST', '/checkins', {
    platform_id: platformId(),
    gym_id: product.gym_id,
    product_id: product.id,
    ...(member === undefined ? {} : { member }),
  });
  return JSON.parse(response.body) as { id: number; platform_id: string; checked_in_at: string };
}

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

describe.each(dialects)('Wellhub-format webhooks (%s)', (dialect) => {
  const app = webhookApp({ dialect });

  test('when a Wellhub endpoint is registered, then it takes only checkin.created, a 1 s timeout, and shows the secret once', async () => {
    const t = app();
    const n = await arrangeGym(t);

    const response = await admin(t, 'POST', `/partners/${n.partner.id}/webhooks`, {
      url: 'http://127.0.0.1:9/gympass',
      format: 'wellhub',
      secret: SECRET,
    });

    const id = (JSON.parse(response.body) as { id: number }).id;
    expectReply(response, 201, {
      id,
      partner_id: n.partner.id,
      url: 'http://127.0.0.1:9/gympass',
      event_types: ['checkin.created'],
      gym_ids: null,
      format: 'wellhub',
      timeout_ms: 1000,
      status: 'enabled',
      disabled_reason: null,
      secret: SECRET,
      created_at: expect.any(String) as unknown,
      updated_at: expect.any(String) as unknown,
    });
  });

  test.each([
    ['no secret', {}, 'secret', 'is required for the wellhub format'],
    ['a secret of 101 characters', { secret: 's'.repeat(101) }, 'secret', 'must be at most 100 characters'],
    [
      'another event type',
      { secret: SECRET, event_types: ['checkin.created', 'checkin.validated'] },
      'event_types',
      'the wellhub format carries only checkin.created',
    ],
  ])(
    'when a Wellhub endpoint is registered with %s, then 400 and nothing is stored',
    async (_, body, key, message) => {
      const t = app();
      const n = await arrangeGym(t);
      const before = await t.store.db.selectFrom('webhook_endpoints').selectAll().execute();

      const response = await admin(t, 'POST', `/partners/${n.partner.id}/webhooks`, {
        url: 'http://127.0.0.1:9/gympass',
        format: 'wellhub',
        ...body,
      });

      expectReply(response, 400, errorEnvelope(key, message));
      expect(await t.store.db.selectFrom('webhook_endpoints').selectAll().execute()).toEqual(before);
    },
  );

  test('when a member checks in, then a handler written for Wellhub accepts the delivery, whose body is Wellhub checkin byte for byte; validation sends nothing more', async () => {
    const t = app();
    const handler = await startWellhubHandler(() => SECRET);
    handlers.push(handler);
    const n = await arrangeGym(t);
    const endpoint = await register(t, n.partner.id, { url: handler.url, format: 'wellhub', secret: SECRET });

    const checkin = await checkIn(t, n.product, ANA);
    const validated = await t.app.inject({
      method: 'POST',
      url: '/access/v1/validate',
      headers: { authorization: `Bearer ${n.key.key}`, 'x-gym-id': String(n.gym.id) },
      payload: { platform_id: checkin.platform_id },
    });
    expect(validated.statusCode).toBe(200);
    await eventually(async () => (await deliveriesOf(t, endpoint.id))[0]?.status === 'delivered');

    expect(handler.received.map((r) => r.verified)).toEqual([true]);
    expect(handler.received[0]?.body).toBe(
      `{"event_type":"checkin","event_data":{"user":{"unique_token":"${checkin.platform_id}",` +
        `"first_name":"Ana","last_name":"Souza","email":"ana@example.com","phone_number":"+5511999990000"},` +
        `"gym":{"id":${n.gym.id},"title":"${n.gym.name}","product":{"id":${n.product.id},"description":"Day pass"}},` +
        `"timestamp":${seconds(checkin.checked_in_at)}}}`,
    );
    expect(handler.received[0]?.headers['content-type']).toBe('application/json');
    expect(handler.received[0]?.headers['x-gympass-signature']).toMatch(/^[0-9A-F]{40}$/);
    expect((await deliveriesOf(t, endpoint.id)).map((d) => [d.event_type, d.status, d.attempts])).toEqual([
      ['checkin.created', 'delivered', 1],
    ]);
  });

  test('when the member gave no details, then the user fields are empty strings', async () => {
    const t = app();
    const handler = await startWellhubHandler(() => SECRET);
    handlers.push(handler);
    const n = await arrangeGym(t);
    await register(t, n.partner.id, { url: handler.url, format: 'wellhub', secret: SECRET });

    const checkin = await checkIn(t, n.product, { first_name: 'Bo' });
    await eventually(() => handler.received.length === 1);

    expect(handler.received[0]?.verified).toBe(true);
    expect(JSON.parse(handler.received[0]?.body ?? '')).toEqual({
      event_type: 'checkin',
      event_data: {
        user: {
          unique_token: checkin.platform_id,
          first_name: 'Bo',
          last_name: '',
          email: '',
          phone_number: '',
        },
        gym: { id: n.gym.id, title: n.gym.name, product: { id: n.product.id, description: 'Day pass' } },
        timestamp: seconds(checkin.checked_in_at),
      },
    });
  });

  test('when the handler refuses a delivery once, then the retry carries the same bytes; when the secret is rotated, the new one replaces the old at once', async () => {
    const t = app();
    const handler = await startWellhubHandler(() => SECRET);
    handlers.push(handler);
    const n = await arrangeGym(t);
    const endpoint = await register(t, n.partner.id, {
      url: handler.url,
      format: 'wellhub',
      secret: 'stale',
    });

    await checkIn(t, n.product, ANA);
    await eventually(() => handler.received.length === 1);
    const noSecret = await admin(t, 'POST', `/webhooks/${endpoint.id}/secret`, {});
    const rotated = await admin(t, 'POST', `/webhooks/${endpoint.id}/secret`, { secret: SECRET });
    await eventually(async () => (await deliveriesOf(t, endpoint.id))[0]?.status === 'delivered');

    expectReply(noSecret, 400, errorEnvelope('secret', 'is required for the wellhub format'));
    expectReply(rotated, 201, { secret: SECRET });
    // Attempts before the rotation were signed with the old secret; the first after it, with the new one only.
    const verdicts = handler.received.map((r) => r.verified);
    expect(verdicts).toEqual([...verdicts.slice(0, -1).map(() => false), true]);
    expect(new Set(handler.received.map((r) => r.body)).size).toBe(1);
    const [delivery] = await deliveriesOf(t, endpoint.id);
    expect([delivery?.attempts, delivery?.last_status_code]).toEqual([handler.received.length, 200]);
  });
});
