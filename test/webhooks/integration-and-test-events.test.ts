import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, test } from 'vitest';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import {
  admin,
  arrangeNetwork,
  createCheckin,
  createGym,
  createPartner,
  issueKey,
  wholeStore,
} from '../fixtures/operator-api.js';
import { expectReply } from '../fixtures/partner-api.js';
import { eventually, useReceivers } from '../fixtures/webhook-receiver.js';
import { startWellhubHandler } from '../fixtures/wellhub-handler.js';
import { webhookApp, type Endpoint } from '../fixtures/webhook-app.js';

const startReceiver = useReceivers();
const envelope = (results: unknown) => ({ metadata: { total: 1, errors: 0 }, results });

function partnerCall(t: TestApp, key: string, gymId?: number) {
  return (method: 'GET' | 'POST', url: string, body?: unknown) =>
    t.app.inject({
      method,
      url: `/access/v1${url}`,
      headers: {
        authorization: `Bearer ${key}`,
        ...(gymId === undefined ? {} : { 'x-gym-id': String(gymId) }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
}

const timezone = 'UTC';

describe.each(dialects)('the integration check and test events (%s)', (dialect) => {
  const app = webhookApp({ dialect });

  test('when a key limited to one gym checks its integration without X-Gym-Id, then it sees that gym only', async () => {
    const t = app();
    const n = await arrangeNetwork(t);
    await createGym(t, n.partner.id);
    const scoped = await issueKey(t, n.partner.id, { gym_ids: [n.gym.id] });
    const gym = await t.services.catalog.getGym(n.gym.id);

    expectReply(
      await partnerCall(t, scoped.key)('GET', '/integration'),
      200,
      envelope({
        partner: { id: n.partner.id, name: n.partner.name, environment: 'live' },
        key: { prefix: scoped.prefix, gym_ids: [n.gym.id] },
        gyms: [{ id: n.gym.id, name: gym.name, timezone }],
        rate_limit: { requests_per_second: 200 },
        compatibility: { cancelled_spelling: 'cancelled', gym_from_key: false },
        webhooks: [],
      }),
    );
  });

  test('when an unscoped key checks, then it sees every gym of its partner; a gym out of its reach is 403', async () => {
    const t = app();
    const n = await arrangeNetwork(t);
    const second = await createGym(t, n.partner.id);
    const names = await Promise.all([n.gym.id, second.id].map((id) => t.services.catalog.getGym(id)));
    const stranger = await arrangeNetwork(t);

    expectReply(
      await partnerCall(t, n.key.key, n.gym.id)('GET', '/integration'),
      200,
      envelope({
        partner: { id: n.partner.id, name: n.partner.name, environment: 'live' },
        key: { prefix: n.key.prefix, gym_ids: null },
        gyms: names.map((gym) => ({ id: gym.id, name: gym.name, timezone })),
        rate_limit: { requests_per_second: 200 },
        compatibility: { cancelled_spelling: 'cancelled', gym_from_key: false },
        webhooks: [],
      }),
    );
    const denied = await partnerCall(t, n.key.key, stranger.gym.id)('GET', '/integration');
    expect(denied.statusCode).toBe(403);
  });

  test('when a sandbox key checks, then its partner is a sandbox one', async () => {
    const t = app();
    const partner = (
      await admin(t, 'POST', '/partners', { name: `Sandbox ${Date.now()}`, sandbox: true })
    ).json<{
      id: number;
      name: string;
    }>();
    const gym = await createGym(t, partner.id);
    const key = await issueKey(t, partner.id);
    const stored = await t.services.catalog.getGym(gym.id);

    expectReply(
      await partnerCall(t, key.key)('GET', '/integration'),
      200,
      envelope({
        partner: { id: partner.id, name: partner.name, environment: 'sandbox' },
        key: { prefix: key.prefix, gym_ids: null },
        gyms: [{ id: gym.id, name: stored.name, timezone }],
        rate_limit: { requests_per_second: 200 },
        compatibility: { cancelled_spelling: 'cancelled', gym_from_key: false },
        webhooks: [],
      }),
    );
    expect(key.key.startsWith('ghk_test_')).toBe(true);
  });

  test('when an endpoint fails, then the check shows its last attempt, success rate, pending count; the operator sees the same', async () => {
    const t = app();
    const hook = await startReceiver(() => ({ status: 500 }));
    const n = await arrangeNetwork(t);
    const created = await admin(t, 'POST', `/partners/${n.partner.id}/webhooks`, { url: hook.url });
    const endpoint = created.json<Endpoint>();
    await createCheckin(t, n.product);
    await eventually(async () => {
      const [row] = await t.store.db
        .selectFrom('webhook_deliveries')
        .select(['attempts'])
        .where('endpoint_id', '=', endpoint.id)
        .execute();
      return Number(row?.attempts ?? 0) >= 1;
    });
    await t.webhookRunner.stop();
    const row = await t.store.db
      .selectFrom('webhook_deliveries')
      .select(['last_attempt_at', 'status'])
      .where('endpoint_id', '=', endpoint.id)
      .executeTakeFirstOrThrow();
    const gym = await t.services.catalog.getGym(n.gym.id);
    const report = {
      partner: { id: n.partner.id, name: n.partner.name, environment: 'live' },
      gyms: [{ id: n.gym.id, name: gym.name, timezone }],
      rate_limit: { requests_per_second: 200 },
      compatibility: { cancelled_spelling: 'cancelled', gym_from_key: false },
      webhooks: [
        {
          id: endpoint.id,
          url: hook.url,
          format: 'standard',
          status: 'enabled',
          disabled_reason: null,
          last_attempt: {
            at: new Date(Number(row.last_attempt_at)).toISOString(),
            delivered: false,
            status_code: 500,
            error: 'HTTP 500',
          },
          success_rate_24h: 0,
          pending: row.status === 'pending' ? 1 : 0,
        },
      ],
    };

    expectReply(
      await partnerCall(t, n.key.key, n.gym.id)('GET', '/integration'),
      200,
      envelope({ ...report, key: { prefix: n.key.prefix, gym_ids: null } }),
    );
    expectReply(await admin(t, 'GET', `/partners/${n.partner.id}/integration`), 200, {
      ...report,
      key: null,
    });
  });

  test('when a standard endpoint is sent a test event, then standardwebhooks verifies it and nothing is logged', async () => {
    const t = app();
    const hook = await startReceiver(() => ({ status: 200 }));
    const n = await arrangeNetwork(t);
    const call = partnerCall(t, n.key.key, n.gym.id);
    const created = (await call('POST', '/webhooks', { url: hook.url })).json<{
      results: Endpoint & { secret: string };
    }>().results;
    const before = await wholeStore(t);

    const response = await call('POST', `/webhooks/${created.id}/test`);

    const [received] = hook.received;
    if (received === undefined) throw new Error('the receiver got nothing');
    const verified = new Webhook(created.secret).verify(received.body, {
      'webhook-id': String(received.headers['webhook-id']),
      'webhook-timestamp': String(received.headers['webhook-timestamp']),
      'webhook-signature': String(received.headers['webhook-signature']),
    });
    const body = JSON.parse(received.body) as { timestamp: string };
    expect(verified).toEqual({
      type: 'test.ping',
      timestamp: body.timestamp,
      data: { webhook_id: created.id, partner_id: n.partner.id, test: true },
    });
    expect(received.headers['x-gatehouse-test']).toBe('true');
    const outcome = response.json<{ results: { duration_ms: number } }>().results;
    expectReply(
      response,
      200,
      envelope({
        webhook_id: created.id,
        format: 'standard',
        event_type: 'test.ping',
        event_id: received.headers['webhook-id'],
        delivered: true,
        status_code: 200,
        error: null,
        duration_ms: outcome.duration_ms,
        response_excerpt: 'ok',
      }),
    );
    expect(outcome.duration_ms).toBeGreaterThanOrEqual(0);
    expect(String(received.headers['webhook-id'])).toMatch(/^evt_test_[0-9a-f]{16}$/);
    expect(await wholeStore(t)).toEqual(before);
  });

  test('when a wellhub endpoint is tested by the operator, then the handler verifies X-Gympass-Signature of the test member', async () => {
    const t = app();
    const secret = 'partner-chosen-secret';
    const handler = await startWellhubHandler(() => secret);
    try {
      const n = await arrangeNetwork(t);
      const endpoint = (
        await admin(t, 'POST', `/partners/${n.partner.id}/webhooks`, {
          url: handler.url,
          format: 'wellhub',
          secret,
        })
      ).json<Endpoint>();
      const gym = await t.services.catalog.getGym(n.gym.id);

      const response = await admin(t, 'POST', `/webhooks/${endpoint.id}/test`);

      const [received] = handler.received;
      if (received === undefined) throw new Error('the handler got nothing');
      const expected = createHmac('sha1', secret).update(received.body).digest('hex').toUpperCase();
      expect(received.headers['x-gympass-signature']).toBe(expected);
      expect(received.status).toBe(200);
      const payload = JSON.parse(received.body) as { event_data: { timestamp: number } };
      expect(payload).toEqual({
        event_type: 'checkin',
        event_data: {
          user: { unique_token: '0000000000000', first_name: 'Test', last_name: 'Member' },
          gym: {
            id: n.gym.id,
            title: gym.name,
            product: { id: n.product.id, description: n.product.description },
          },
          timestamp: payload.event_data.timestamp,
        },
      });
      const outcome = response.json<{ duration_ms: number }>();
      expectReply(response, 200, {
        webhook_id: endpoint.id,
        format: 'wellhub',
        event_type: 'checkin',
        event_id: null,
        delivered: true,
        status_code: 200,
        error: null,
        duration_ms: outcome.duration_ms,
        response_excerpt: '',
      });
    } finally {
      await handler.close();
    }
  });

  test('when the receiver is down, then the test answers the error at once; another partner’s endpoint is 404', async () => {
    const t = app();
    const hook = await startReceiver(() => ({ status: 200 }));
    const url = hook.url;
    await hook.close();
    const n = await arrangeNetwork(t);
    const endpoint = (await admin(t, 'POST', `/partners/${n.partner.id}/webhooks`, { url })).json<Endpoint>();
    const other = await createPartner(t);
    const otherGym = await createGym(t, other.id);
    const otherKey = await issueKey(t, other.id);

    const response = await admin(t, 'POST', `/webhooks/${endpoint.id}/test`);
    const outcome = response.json<{ duration_ms: number }>();
    expectReply(response, 200, {
      webhook_id: endpoint.id,
      format: 'standard',
      event_type: 'test.ping',
      event_id: expect.stringMatching(/^evt_test_/) as unknown,
      delivered: false,
      status_code: null,
      error: 'connection refused',
      duration_ms: outcome.duration_ms,
      response_excerpt: null,
    });
    const foreign = await partnerCall(t, otherKey.key, otherGym.id)('POST', `/webhooks/${endpoint.id}/test`);
    expect(foreign.statusCode).toBe(404);
  });
});
