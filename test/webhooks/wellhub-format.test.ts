import { describe, expect, test } from 'vitest';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import { admin, createProduct, createPartner, issueKey } from '../fixtures/operator-api.js';
import { platformId, unique } from '../fixtures/factories.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';
import { expectReply } from '../fixtures/partner-api.js';
import { eventually } from '../fixtures/webhook-receiver.js';
import { deliveriesOf, register, webhookApp } from '../fixtures/webhook-app.js';
import { useWellhubHandlers } from '../fixtures/wellhub-handler.js';

const handler = useWellhubHandlers();

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

/** The exact delivery body of `checkin` at the gym, `user` being the token followed by `details` as spelled. */
function wellhubBytes(
  n: Awaited<ReturnType<typeof arrangeGym>>,
  checkin: { platform_id: string; checked_in_at: string },
  details: string,
): string {
  return (
    `{"event_type":"checkin","event_data":{"user":{"unique_token":"${checkin.platform_id}"${details}},` +
    `"gym":{"id":${n.gym.id},"title":"${n.gym.name}","product":{"id":${n.product.id},"description":"Day pass"}},` +
    `"timestamp":${seconds(checkin.checked_in_at)}}}`
  );
}

const tokenOf = (body: string) =>
  (JSON.parse(body) as { event_data: { user: { unique_token: string } } }).event_data.user.unique_token;

async function storedMember(t: TestApp, checkinId: number): Promise<unknown> {
  const row = await t.store.db
    .selectFrom('checkins')
    .select('member')
    .where('id', '=', checkinId)
    .executeTakeFirst();
  return JSON.parse(row?.member ?? 'null');
}

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
    const wellhub = await handler(() => SECRET);
    const n = await arrangeGym(t);
    const endpoint = await register(t, n.partner.id, { url: wellhub.url, format: 'wellhub', secret: SECRET });

    const checkin = await checkIn(t, n.product, ANA);
    const validated = await t.app.inject({
      method: 'POST',
      url: '/access/v1/validate',
      headers: { authorization: `Bearer ${n.key.key}`, 'x-gym-id': String(n.gym.id) },
      payload: { platform_id: checkin.platform_id },
    });
    expect(validated.statusCode).toBe(200);
    await eventually(async () => (await deliveriesOf(t, endpoint.id))[0]?.status === 'delivered');

    expect(wellhub.received.map((r) => r.status)).toEqual([200]);
    expect(wellhub.received[0]?.body).toBe(
      wellhubBytes(
        n,
        checkin,
        ',"first_name":"Ana","last_name":"Souza","email":"ana@example.com","phone_number":"+5511999990000"',
      ),
    );
    expect(wellhub.received[0]?.headers['content-type']).toBe('application/json');
    expect(wellhub.received[0]?.headers['x-gympass-signature']).toMatch(/^[0-9A-F]{40}$/);
    expect((await deliveriesOf(t, endpoint.id)).map((d) => [d.event_type, d.status, d.attempts])).toEqual([
      ['checkin.created', 'delivered', 1],
    ]);
  });

  test('when members check in with some, none, or empty-string details, then a handler that rejects "" and null accepts each delivery, the absent details left out', async () => {
    const t = app();
    const wellhub = await handler(() => SECRET);
    const n = await arrangeGym(t);
    const endpoint = await register(t, n.partner.id, { url: wellhub.url, format: 'wellhub', secret: SECRET });

    const some = await checkIn(t, n.product, { first_name: 'Bo', email: 'bo@example.com' });
    const none = await checkIn(t, n.product);
    // Stored as given, "" included, as older releases stored the details they were sent.
    const empty = await checkIn(t, n.product, { first_name: '', last_name: 'Lima', phone_number: '' });
    await eventually(async () => {
      const deliveries = await deliveriesOf(t, endpoint.id);
      return deliveries.length === 3 && deliveries.every((d) => d.status === 'delivered');
    });

    expect(wellhub.received.map((r) => r.status)).toEqual([200, 200, 200]);
    const bodies = new Map(wellhub.received.map((r) => [tokenOf(r.body), r.body]));
    expect(bodies).toEqual(
      new Map([
        [some.platform_id, wellhubBytes(n, some, ',"first_name":"Bo","email":"bo@example.com"')],
        [none.platform_id, wellhubBytes(n, none, '')],
        [empty.platform_id, wellhubBytes(n, empty, ',"last_name":"Lima"')],
      ]),
    );
    // A field sent as "" is absent: not stored either.
    expect(await storedMember(t, empty.id)).toEqual({ last_name: 'Lima' });
    expect(
      (await deliveriesOf(t, endpoint.id)).map((d) => [d.status, d.attempts, d.last_status_code]),
    ).toEqual([
      ['delivered', 1, 200],
      ['delivered', 1, 200],
      ['delivered', 1, 200],
    ]);
  });

  test('when the handler refuses a delivery once, then the retry carries the same bytes; when the secret is rotated, the new one replaces the old at once', async () => {
    const t = app();
    const wellhub = await handler(() => SECRET);
    const n = await arrangeGym(t);
    const endpoint = await register(t, n.partner.id, {
      url: wellhub.url,
      format: 'wellhub',
      secret: 'stale',
    });

    await checkIn(t, n.product, ANA);
    await eventually(() => wellhub.received.length === 1);
    const noSecret = await admin(t, 'POST', `/webhooks/${endpoint.id}/secret`, {});
    const rotated = await admin(t, 'POST', `/webhooks/${endpoint.id}/secret`, { secret: SECRET });
    await eventually(async () => (await deliveriesOf(t, endpoint.id))[0]?.status === 'delivered');

    expectReply(noSecret, 400, errorEnvelope('secret', 'is required for the wellhub format'));
    expectReply(rotated, 201, { secret: SECRET });
    // Attempts before the rotation were signed with the old secret; the first after it, with the new one only.
    const verdicts = wellhub.received.map((r) => r.status);
    expect(verdicts).toEqual([...verdicts.slice(0, -1).map(() => 401), 200]);
    expect(new Set(wellhub.received.map((r) => r.body)).size).toBe(1);
    const [delivery] = await deliveriesOf(t, endpoint.id);
    expect([delivery?.attempts, delivery?.last_status_code]).toEqual([wellhub.received.length, 200]);
  });
});
