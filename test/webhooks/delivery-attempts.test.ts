import { describe, expect, test } from 'vitest';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import { admin, arrangeNetwork, createCheckin, partnerHeaders } from '../fixtures/operator-api.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';
import { expectReply, expectReplyNoWrite } from '../fixtures/partner-api.js';
import { eventually, useReceivers } from '../fixtures/webhook-receiver.js';
import { deliveriesOf, register, webhookApp, type Delivery } from '../fixtures/webhook-app.js';

const receiver = useReceivers();

const ANY_TIME: unknown = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const ANY_MS: unknown = expect.any(Number);

/** A busy receiver's first answer: an escape sequence, then more than the log keeps. */
const BUSY = Buffer.concat([Buffer.from('busy\u001b[31m\u0000'), Buffer.alloc(2000, 'x')]);
/** What the log keeps of it: its first 1,024 bytes, each control character written out. */
const BUSY_KEPT = `busy\\u001b[31m\\u0000${'x'.repeat(1024 - 10)}`;

async function attemptRows(t: TestApp, deliveryId: number) {
  return t.store.db
    .selectFrom('webhook_attempts')
    .select(['attempt', 'status_code', 'error', 'request_body', 'response_excerpt'])
    .where('delivery_id', '=', deliveryId)
    .orderBy('id')
    .execute();
}

async function settled(t: TestApp, webhookId: number): Promise<Delivery> {
  await eventually(async () => (await deliveriesOf(t, webhookId))[0]?.status === 'delivered');
  const [delivery] = await deliveriesOf(t, webhookId);
  if (delivery === undefined) throw new Error('no delivery');
  return delivery;
}

describe.each(dialects)('each attempt of a webhook delivery is kept (%s)', (dialect) => {
  const app = webhookApp({ dialect });

  test('when the receiver answers 503 with control characters and then 200, then the delivery lists both attempts with their answers, durations and the body sent, and the store keeps one row per attempt', async () => {
    const t = app();
    const hook = await receiver((n) =>
      n === 0 ? { status: 503, body: BUSY } : { status: 200, body: 'thanks' },
    );
    const n = await arrangeNetwork(t);
    const endpoint = await register(t, n.partner.id, { url: hook.url, event_types: ['checkin.created'] });

    await createCheckin(t, n.product);
    const delivery = await settled(t, endpoint.id);

    const sent = hook.received.map((request) => request.body);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toBe(sent[0]);
    const listed = await admin(t, 'GET', `/webhooks/${endpoint.id}/deliveries/${delivery.id}/attempts`);
    const first = { id: ANY_MS, delivery_id: delivery.id, attempted_at: ANY_TIME, duration_ms: ANY_MS };
    expectReply(listed, 200, {
      items: [
        {
          ...first,
          attempt: 1,
          status_code: 503,
          error: 'HTTP 503',
          request_body: sent[0],
          response_excerpt: BUSY_KEPT,
        },
        {
          ...first,
          attempt: 2,
          status_code: 200,
          error: null,
          request_body: sent[0],
          response_excerpt: 'thanks',
        },
      ],
      next_cursor: null,
    });
    // The standard body is the event's on every attempt: it is read from the event, not stored twice.
    expect(await attemptRows(t, delivery.id)).toEqual([
      { attempt: 1, status_code: 503, error: 'HTTP 503', request_body: null, response_excerpt: BUSY_KEPT },
      { attempt: 2, status_code: 200, error: null, request_body: null, response_excerpt: 'thanks' },
    ]);
    const newestFirst = await admin(
      t,
      'GET',
      `/webhooks/${endpoint.id}/deliveries/${delivery.id}/attempts?order=desc&limit=1`,
    );
    const page = JSON.parse(newestFirst.body) as { items: { attempt: number }[]; next_cursor: string };
    expect([page.items.map((item) => item.attempt), typeof page.next_cursor]).toEqual([[2], 'string']);
  });

  test('when no receiver listens, then the attempt says why there was no answer, with no excerpt', async () => {
    const t = app();
    const gone = await receiver();
    await gone.close();
    const n = await arrangeNetwork(t);
    const endpoint = await register(t, n.partner.id, { url: gone.url, event_types: ['checkin.created'] });

    await createCheckin(t, n.product);
    await eventually(async () => ((await deliveriesOf(t, endpoint.id))[0]?.attempts ?? 0) >= 1);
    const [delivery] = await deliveriesOf(t, endpoint.id);

    const listed = await admin(
      t,
      'GET',
      `/webhooks/${endpoint.id}/deliveries/${delivery?.id}/attempts?limit=1`,
    );
    const body = JSON.parse(listed.body) as { items: unknown[] };
    expect([listed.statusCode, body.items[0]]).toEqual([
      200,
      {
        id: ANY_MS,
        delivery_id: delivery?.id,
        attempt: 1,
        attempted_at: ANY_TIME,
        duration_ms: ANY_MS,
        status_code: null,
        error: 'connection refused',
        request_body: expect.stringContaining('"type":"checkin.created"') as unknown,
        response_excerpt: null,
      },
    ]);
  });

  test('when the endpoint takes the Wellhub format, then each attempt keeps the body it sent; the purge and the removal of the endpoint take the attempts with their delivery', async () => {
    const t = app();
    const hook = await receiver();
    const n = await arrangeNetwork(t);
    const endpoint = await register(t, n.partner.id, {
      url: hook.url,
      format: 'wellhub',
      secret: 'club-secret-1',
    });

    await createCheckin(t, n.product);
    const delivery = await settled(t, endpoint.id);

    const [sent] = hook.received.map((request) => request.body);
    const url = `/webhooks/${endpoint.id}/deliveries/${delivery.id}/attempts`;
    const attempt = {
      id: ANY_MS,
      delivery_id: delivery.id,
      attempt: 1,
      attempted_at: ANY_TIME,
      duration_ms: ANY_MS,
      status_code: 200,
      error: null,
      response_excerpt: 'ok',
    };
    expectReply(await admin(t, 'GET', url), 200, {
      items: [{ ...attempt, request_body: sent }],
      next_cursor: null,
    });
    expect((await attemptRows(t, delivery.id)).map((row) => row.request_body)).toEqual([sent]);

    t.clock.advance(31 * 86_400_000);
    await t.services.retention.purge();
    expectReply(await admin(t, 'GET', url), 200, {
      items: [{ ...attempt, request_body: null }],
      next_cursor: null,
    });
    expect((await attemptRows(t, delivery.id)).map((row) => row.request_body)).toEqual([null]);

    expect((await admin(t, 'DELETE', `/webhooks/${endpoint.id}`)).statusCode).toBe(204);
    expect(await attemptRows(t, delivery.id)).toEqual([]);
  });

  test('when a member is erased, then the Wellhub bodies their deliveries sent are forgotten with the event payloads, and the attempts stay', async () => {
    const t = app();
    const hook = await receiver();
    const n = await arrangeNetwork(t);
    const endpoint = await register(t, n.partner.id, {
      url: hook.url,
      format: 'wellhub',
      secret: 'club-secret-2',
    });
    const checkin = await createCheckin(t, n.product, { member: { first_name: 'Ana', last_name: 'Souza' } });
    const delivery = await settled(t, endpoint.id);
    expect((await attemptRows(t, delivery.id)).map((row) => row.request_body)).toEqual([
      expect.stringContaining('"first_name":"Ana"'),
    ]);

    const erased = await admin(t, 'POST', `/members/${checkin.platform_id}/erase`);

    expect(erased.statusCode).toBe(200);
    expect(await attemptRows(t, delivery.id)).toEqual([
      { attempt: 1, status_code: 200, error: null, request_body: null, response_excerpt: 'ok' },
    ]);
    const listed = await admin(t, 'GET', `/webhooks/${endpoint.id}/deliveries/${delivery.id}/attempts`);
    expect(JSON.stringify(listed.json())).not.toContain('Ana');
  });

  test('when the delivery is not the endpoint’s, the endpoint is another partner’s, or an id is no id, then the answer says so and nothing is written', async () => {
    const t = app();
    const hook = await receiver();
    const n = await arrangeNetwork(t);
    const other = await arrangeNetwork(t);
    const endpoint = await register(t, n.partner.id, { url: hook.url, event_types: ['checkin.created'] });
    const elsewhere = await register(t, other.partner.id, {
      url: hook.url,
      event_types: ['checkin.created'],
    });
    await createCheckin(t, n.product);
    await createCheckin(t, other.product);
    const delivery = await settled(t, endpoint.id);
    await settled(t, elsewhere.id);

    const notFound = errorEnvelope('delivery.not-found', 'delivery not found');
    await expectReplyNoWrite(t, 404, notFound, () =>
      admin(t, 'GET', `/webhooks/${elsewhere.id}/deliveries/${delivery.id}/attempts`),
    );
    await expectReplyNoWrite(t, 404, errorEnvelope('webhook.not-found', 'webhook not found'), () =>
      admin(t, 'GET', `/webhooks/999999999/deliveries/${delivery.id}/attempts`),
    );
    await expectReplyNoWrite(t, 400, errorEnvelope('delivery_id', 'must be a positive integer'), () =>
      admin(t, 'GET', `/webhooks/${endpoint.id}/deliveries/abc/attempts`),
    );
    await expectReplyNoWrite(t, 400, errorEnvelope('order', 'must be one of asc, desc'), () =>
      admin(t, 'GET', `/webhooks/${endpoint.id}/deliveries/${delivery.id}/attempts?order=up`),
    );
    // A partner reads its own endpoints' attempts, in its envelope, and no other partner's.
    const partner = (key: string, gymId: number, path: string) =>
      t.app.inject({ method: 'GET', url: `/access/v1${path}`, headers: partnerHeaders(key, gymId) });
    const own = await partner(
      n.key.key,
      n.gym.id,
      `/webhooks/${endpoint.id}/deliveries/${delivery.id}/attempts`,
    );
    const ownBody = JSON.parse(own.body) as { metadata: unknown; results: { attempt: number }[] };
    expect([own.statusCode, ownBody.metadata, ownBody.results.map((a) => a.attempt)]).toEqual([
      200,
      { total: 1, errors: 0 },
      [1],
    ]);
    await expectReplyNoWrite(t, 404, errorEnvelope('webhook.not-found', 'webhook not found'), () =>
      partner(other.key.key, other.gym.id, `/webhooks/${endpoint.id}/deliveries/${delivery.id}/attempts`),
    );
  });
});
