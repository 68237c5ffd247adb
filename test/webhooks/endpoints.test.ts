import { beforeAll, describe, expect, test } from 'vitest';
import { dialects, useApp, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';
import { expectReply } from '../fixtures/partner-api.js';
import { eventually, startReceiver } from '../fixtures/webhook-receiver.js';
import { deliveriesOf, startWebhookApp, type Endpoint } from '../fixtures/webhook-app.js';

const A_SECRET: unknown = expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/);
const A_TIME: unknown = expect.any(String);
/** Host names this resolver knows: one public, one pointing at loopback. */
const names: Record<string, string[]> = {
  'hooks.example.com': ['93.184.216.34'],
  'sneaky.example.com': ['127.0.0.1'],
};

describe.each(dialects)('webhook endpoints, operator and partner (%s)', (dialect) => {
  let t: TestApp;
  const shared = useApp({
    start: () =>
      startWebhookApp({
        dialect,
        env: { GATEHOUSE_WEBHOOK_ALLOW_PRIVATE: 'false', GATEHOUSE_SECRET_KEY: 'k'.repeat(40) },
        resolver: async (host) => names[host] ?? [],
        deliver: false,
      }),
  });
  beforeAll(async () => {
    t = shared();
  });

  test('when an endpoint is registered, listed, changed and removed, then each answer is whole, the secret shows once and is stored encrypted', async () => {
    const n = await op.arrangeNetwork(t);
    const created = await op.admin(t, 'POST', `/partners/${n.partner.id}/webhooks`, {
      url: 'https://hooks.example.com/in',
      event_types: ['checkin.validated', 'checkin.created'],
      gym_ids: [n.gym.id],
    });
    const endpoint = JSON.parse(created.body) as Endpoint;
    const shown = {
      id: endpoint.id,
      partner_id: n.partner.id,
      url: 'https://hooks.example.com/in',
      event_types: ['checkin.created', 'checkin.validated'],
      gym_ids: [n.gym.id],
      format: 'standard',
      timeout_ms: 15000,
      status: 'enabled',
      disabled_reason: null,
      created_at: A_TIME,
      updated_at: A_TIME,
    };
    expectReply(created, 201, { ...shown, secret: A_SECRET });
    const [row] = await t.store.db
      .selectFrom('webhook_endpoints')
      .select('secret')
      .where('id', '=', endpoint.id)
      .execute();
    expect(row?.secret).toMatch(/^enc:v1:/);
    expect(row?.secret).not.toContain(endpoint.secret.slice(6));

    expectReply(await op.admin(t, 'GET', `/partners/${n.partner.id}/webhooks`), 200, {
      items: [shown],
      next_cursor: null,
    });
    expectReply(
      await op.admin(t, 'PATCH', `/webhooks/${endpoint.id}`, { timeout_ms: 2000, event_types: null }),
      200,
      {
        ...shown,
        timeout_ms: 2000,
        event_types: null,
      },
    );
    expect((await op.admin(t, 'DELETE', `/webhooks/${endpoint.id}`)).statusCode).toBe(204);
    expectReply(
      await op.admin(t, 'GET', `/webhooks/${endpoint.id}`),
      404,
      errorEnvelope('webhook.not-found', 'webhook not found'),
    );
  });

  test.each([
    ['http://127.0.0.1:8080/in'],
    ['http://10.1.2.3/in'],
    ['http://169.254.169.254/latest/meta-data'],
    ['http://[::1]/in'],
    ['http://0x7f.1/in'],
    ['http://sneaky.example.com/in'],
    ['file:///etc/passwd'],
    ['http://unknown.invalid/in'],
  ])('when the URL is %s, then it is refused with key url and nothing is stored', async (url) => {
    const n = await op.arrangeNetwork(t);
    const before = await op.wholeStore(t);
    const response = await op.admin(t, 'POST', `/partners/${n.partner.id}/webhooks`, { url });

    expect(response.statusCode).toBe(400);
    expect((JSON.parse(response.body) as { errors: { key: string }[] }).errors.map((e) => e.key)).toEqual([
      'url',
    ]);
    expect(
      await t.store.db
        .selectFrom('webhook_endpoints')
        .select('id')
        .where('partner_id', '=', n.partner.id)
        .execute(),
    ).toEqual([]);
    expect((await op.wholeStore(t)).audit_log).toEqual(before.audit_log);
  });

  // The IPv4-mapped form reaches a receiver listening on 127.0.0.1 if it is let through.
  test.each(['127.0.0.1', '::ffff:127.0.0.1'])(
    'when a name that was public at registration resolves to %s at connect time, then nothing is sent',
    async (loopback) => {
      const hook = await startReceiver();
      const n = await op.arrangeNetwork(t);
      const created = await op.admin(t, 'POST', `/partners/${n.partner.id}/webhooks`, {
        url: `http://hooks.example.com:${hook.port}/in`,
      });
      const endpoint = JSON.parse(created.body) as Endpoint;
      names['hooks.example.com'] = [loopback];
      try {
        await op.createCheckin(t, n.product);
        t.webhookRunner.start();
        await eventually(async () => (await deliveriesOf(t, endpoint.id))[0]?.attempts === 1);
        expect((await deliveriesOf(t, endpoint.id))[0]?.last_error).toBe(
          'address not allowed for webhooks (GATEHOUSE_WEBHOOK_ALLOW_PRIVATE)',
        );
        expect(hook.received).toEqual([]);
      } finally {
        names['hooks.example.com'] = ['93.184.216.34'];
        await hook.close();
      }
    },
  );

  test('when a partner key manages webhooks, then it sees only its own, and a key limited to a gym only those within it', async () => {
    const n = await op.arrangeNetwork(t);
    const other = await op.arrangeNetwork(t);
    const scoped = await op.issueKey(t, n.partner.id, { gym_ids: [n.gym.id] });
    const call = (key: string, method: 'POST' | 'GET' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
      t.app.inject({
        method,
        url: `/access/v1${url}`,
        headers: {
          ...op.partnerHeaders(key, n.gym.id),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });

    const wide = await call(n.key.key, 'POST', '/webhooks', { url: 'https://hooks.example.com/all' });
    expect(wide.statusCode).toBe(201);
    const wideEndpoint = (JSON.parse(wide.body) as { results: Endpoint }).results;
    expectReply(
      await call(scoped.key, 'POST', '/webhooks', { url: 'https://hooks.example.com/x' }),
      400,
      errorEnvelope('gym_ids', 'a key limited to some gyms must limit its webhooks to gyms within its scope'),
    );
    const narrow = await call(scoped.key, 'POST', '/webhooks', {
      url: 'https://hooks.example.com/gym',
      gym_ids: [n.gym.id],
    });
    expect(narrow.statusCode).toBe(201);
    const narrowEndpoint = (JSON.parse(narrow.body) as { results: Endpoint }).results;
    const otherEndpoint = JSON.parse(
      (
        await op.admin(t, 'POST', `/partners/${other.partner.id}/webhooks`, {
          url: 'https://hooks.example.com/o',
        })
      ).body,
    ) as Endpoint;

    const listed = (key: string) =>
      call(key, 'GET', '/webhooks').then((r) =>
        (JSON.parse(r.body) as { results: Endpoint[] }).results.map((e) => e.id),
      );
    expect(await listed(n.key.key)).toEqual([wideEndpoint.id, narrowEndpoint.id]);
    expect(await listed(scoped.key)).toEqual([narrowEndpoint.id]);
    const notFound = errorEnvelope('webhook.not-found', 'webhook not found');
    expectReply(await call(scoped.key, 'DELETE', `/webhooks/${wideEndpoint.id}`), 404, notFound);
    expectReply(
      await call(n.key.key, 'PATCH', `/webhooks/${otherEndpoint.id}`, { timeout_ms: 1000 }),
      404,
      notFound,
    );
    const patched = await call(n.key.key, 'PATCH', `/webhooks/${wideEndpoint.id}`, { timeout_ms: 1000 });
    expect((JSON.parse(patched.body) as { results: { timeout_ms: number } }).results.timeout_ms).toBe(1000);
    expect((await call(scoped.key, 'DELETE', `/webhooks/${narrowEndpoint.id}`)).statusCode).toBe(204);
    expect(await listed(n.key.key)).toEqual([wideEndpoint.id]);
    const audit = await t.store.db
      .selectFrom('audit_log')
      .select(['actor', 'action'])
      .where('entity', '=', 'webhook')
      .where('entity_id', 'in', [String(wideEndpoint.id), String(narrowEndpoint.id)])
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      { actor: `key:${n.key.prefix}`, action: 'create' },
      { actor: `key:${scoped.prefix}`, action: 'create' },
      { actor: `key:${n.key.prefix}`, action: 'update' },
      { actor: `key:${scoped.prefix}`, action: 'delete' },
    ]);
  });

  test('when bad fields are given, then each gets a 400 naming it and nothing is stored', async () => {
    const n = await op.arrangeNetwork(t);
    const before = await op.wholeStore(t);
    const bad = [
      [{ url: 'https://hooks.example.com/in', event_types: ['checkin.exploded'] }, 'event_types'],
      [{ url: 'https://hooks.example.com/in', gym_ids: [999_999] }, 'gym_ids'],
      [{ url: 'https://hooks.example.com/in', timeout_ms: 50 }, 'timeout_ms'],
      [{ url: 'https://hooks.example.com/in', secret: 'not-a-secret' }, 'secret'],
      [{ url: 'https://hooks.example.com/in', format: 'svix' }, 'format'],
      [{}, 'url'],
    ] as const;
    for (const [body, key] of bad) {
      const response = await op.admin(t, 'POST', `/partners/${n.partner.id}/webhooks`, body);
      expect([
        response.statusCode,
        (JSON.parse(response.body) as { errors: { key: string }[] }).errors[0]?.key,
      ]).toEqual([400, key]);
    }
    expect(await op.wholeStore(t)).toEqual(before);
  });
});
