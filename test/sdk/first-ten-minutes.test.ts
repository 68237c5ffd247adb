import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { admit, setUp, webhookReceiver } from '../../sdk/examples/first-ten-minutes.js';
import { GatehouseClient, type WebhookEvent } from '../../sdk/src/index.js';
import { admin, arrangeNetwork, createCheckin, createGym, wholeStore } from '../fixtures/operator-api.js';
import { dialects } from '../fixtures/test-app.js';
import { eventually } from '../fixtures/webhook-receiver.js';
import { webhookApp } from '../fixtures/webhook-app.js';
import { expectRefusal } from '../fixtures/live-gatehouse.js';
import { DENY_MESSAGE } from '../fixtures/wire-bodies.js';

const root = new URL('../../', import.meta.url);

/** The lines of sdk/examples/first-ten-minutes.ts between `// README:<name>:begin` and `:end`, unindented. */
function region(name: string): string[] {
  const source = readFileSync(new URL('sdk/examples/first-ten-minutes.ts', root), 'utf8').split('\n');
  const begin = source.findIndex((line) => line.trim() === `// README:${name}:begin`);
  const end = source.findIndex((line) => line.trim() === `// README:${name}:end`);
  return source.slice(begin + 1, end).map((line) => line.replace(/^ {2}/, ''));
}

/** The TypeScript blocks of sdk/README.md's "A partner's first ten minutes", in order. */
function readmeBlocks(): string[][] {
  const readme = readFileSync(new URL('sdk/README.md', root), 'utf8');
  const start = readme.indexOf("## A partner's first ten minutes");
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  return [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => (m[1] ?? '').trimEnd().split('\n'));
}

describe("sdk/README.md's first ten minutes", () => {
  it('when the README quotes the example, then its blocks are the marked lines, with the imports they need', () => {
    const [receive, setup, desk] = readmeBlocks();

    expect(receive).toEqual([
      "import { createServer } from 'node:http';",
      "import { isTestEvent, verifyWebhook, WebhookVerificationError } from '@gatehouse/client';",
      '',
      ...region('receive'),
    ]);
    expect(setup).toEqual(["import { GatehouseClient } from '@gatehouse/client';", '', ...region('setup')]);
    expect(desk).toEqual(region('desk'));
  });
});

async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/gatehouse/hooks`;
}

describe.each(dialects)("sdk/README.md's first ten minutes, run (%s)", (dialect) => {
  const app = webhookApp({ dialect });
  let baseUrl: string;
  const servers: Server[] = [];
  beforeAll(async () => {
    baseUrl = await app().app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('when a partner checks its key, registers its receiver, tests it, and the desk validates a visit, then each step answers as the README says', async () => {
    const t = app();
    const n = await arrangeNetwork(t);
    const gym = await t.services.catalog.getGym(n.gym.id);
    const secrets = new Map<number, string>();
    const handled: WebhookEvent[] = [];
    const receiver = webhookReceiver(
      () => [...secrets.values()][0] ?? '',
      (event) => handled.push(event),
    );
    servers.push(receiver);
    const webhookUrl = await listening(receiver);

    const { gatehouse, integration, endpoint, outcome } = await setUp(
      baseUrl,
      n.key.key,
      n.gym.id,
      webhookUrl,
      secrets,
    );

    expect(integration).toEqual({
      partner: { id: n.partner.id, name: n.partner.name, environment: 'live' },
      key: { prefix: n.key.prefix, gym_ids: null },
      gyms: [{ id: n.gym.id, name: gym.name, timezone: 'UTC' }],
      rate_limit: { requests_per_second: 200 },
      compatibility: { cancelled_spelling: 'cancelled', gym_from_key: false },
      webhooks: [],
    });
    expect(endpoint).toEqual({
      id: endpoint.id,
      partner_id: n.partner.id,
      url: webhookUrl,
      event_types: ['checkin.created'],
      gym_ids: null,
      format: 'standard',
      timeout_ms: 15000,
      status: 'enabled',
      disabled_reason: null,
      created_at: endpoint.created_at,
      updated_at: endpoint.created_at,
      secret: expect.stringMatching(/^whsec_/) as unknown,
    });
    expect(secrets).toEqual(new Map([[endpoint.id, endpoint.secret]]));
    expect(outcome).toEqual({
      webhook_id: endpoint.id,
      format: 'standard',
      event_type: 'test.ping',
      event_id: expect.stringMatching(/^evt_test_[0-9a-f]{16}$/) as unknown,
      delivered: true,
      status_code: 204,
      error: null,
      duration_ms: outcome.duration_ms,
      response_excerpt: '',
    });
    expect(handled).toEqual([]);

    // The member app checks the member in; the receiver verifies the delivery and hands it on.
    const checkin = await createCheckin(t, n.product);
    await eventually(() => handled.length === 1);
    expect(handled).toEqual([
      {
        format: 'standard',
        id: expect.stringMatching(/^evt_/) as unknown,
        type: 'checkin.created',
        timestamp: expect.any(String) as unknown,
        data: {
          checkin_id: checkin.id,
          platform_id: checkin.platform_id,
          gym_id: n.gym.id,
          product: { id: n.product.id, description: n.product.description },
          status: 'pending',
          checked_in_at: checkin.checked_in_at,
          expires_at: checkin.expires_at,
        },
      },
    ]);
    await eventually(async () => {
      const rows = await t.store.db.selectFrom('webhook_deliveries').select('status').execute();
      return rows.length === 1 && rows[0]?.status === 'delivered';
    });

    const { result, health } = await admit(gatehouse, checkin.platform_id);

    expect(result).toMatchObject({
      status: 'validated',
      details: { user: { platform_id: checkin.platform_id }, gym: { Id: n.gym.id } },
    });
    const validated = await t.store.db
      .selectFrom('checkins')
      .select('status')
      .where('id', '=', checkin.id)
      .executeTakeFirstOrThrow();
    expect(validated.status).toBe('validated');
    expect(health).toEqual([
      {
        id: endpoint.id,
        url: webhookUrl,
        format: 'standard',
        status: 'enabled',
        disabled_reason: null,
        last_attempt: { at: expect.any(String) as unknown, delivered: true, status_code: 204, error: null },
        success_rate_24h: 1,
        pending: 0,
      },
    ]);
  });

  it('when the receiver holds a wrong secret, then the test event is not delivered and says 401; a Wellhub endpoint gets the test member', async () => {
    const t = app();
    const n = await arrangeNetwork(t);
    const handled: WebhookEvent[] = [];
    const receiver = webhookReceiver(
      () => 'whsec_' + Buffer.from('some other secret').toString('base64'),
      (event) => handled.push(event),
    );
    servers.push(receiver);
    const { outcome, gatehouse } = await setUp(
      baseUrl,
      n.key.key,
      n.gym.id,
      await listening(receiver),
      new Map(),
    );

    expect(outcome).toMatchObject({ delivered: false, status_code: 401, error: null, response_excerpt: '' });

    const wellhub = webhookReceiver(
      () => 'club-secret',
      (event) => handled.push(event),
    );
    servers.push(wellhub);
    const created = await gatehouse.createWebhook({
      url: await listening(wellhub),
      format: 'wellhub',
      secret: 'club-secret',
    });
    const tested = await gatehouse.testWebhook(created.id);

    expect(tested).toMatchObject({
      format: 'wellhub',
      event_type: 'checkin',
      delivered: true,
      status_code: 204,
    });
    expect(handled).toEqual([]); // the test member, recognised by isTestEvent, is acted on nowhere
  });

  it('when the partner deletes its endpoint, then it is gone from the store and a second delete is 404', async () => {
    const t = app();
    const n = await arrangeNetwork(t);
    const gatehouse = new GatehouseClient({ baseUrl, apiKey: n.key.key, gymId: n.gym.id });
    const created = await gatehouse.createWebhook({ url: 'http://127.0.0.1:9/hooks', timeoutMs: 2000 });
    expect(created).toMatchObject({ url: 'http://127.0.0.1:9/hooks', timeout_ms: 2000, event_types: null });

    await gatehouse.deleteWebhook(created.id);

    const rows = await t.store.db
      .selectFrom('webhook_endpoints')
      .select('id')
      .where('partner_id', '=', n.partner.id)
      .execute();
    expect(rows).toEqual([]);
    await expectRefusal(gatehouse.deleteWebhook(created.id), {
      status: 404,
      key: 'webhook.not-found',
      message: 'webhook not found',
    });
  });

  it('when the input is bad or the endpoint not the key’s, then the SDK throws the API’s error and nothing changes', async () => {
    const t = app();
    const n = await arrangeNetwork(t);
    const other = await arrangeNetwork(t);
    const theirs = (
      await admin(t, 'POST', `/partners/${other.partner.id}/webhooks`, { url: 'http://127.0.0.1:9/x' })
    ).json<{ id: number }>();
    const gatehouse = new GatehouseClient({ baseUrl, apiKey: n.key.key, gymId: n.gym.id });
    const stranger = await createGym(t, other.partner.id);
    const everything = async () => ({
      ...(await wholeStore(t)),
      endpoints: await t.store.db.selectFrom('webhook_endpoints').selectAll().orderBy('id').execute(),
      deliveries: await t.store.db.selectFrom('webhook_deliveries').selectAll().orderBy('id').execute(),
    });
    const before = await everything();

    await expectRefusal(gatehouse.createWebhook({ url: 'ftp://club.example/hooks' }), {
      status: 400,
      key: 'url',
      message: 'must be an http or https URL',
    });
    await expectRefusal(gatehouse.testWebhook(theirs.id), {
      status: 404,
      key: 'webhook.not-found',
      message: 'webhook not found',
    });
    const error = await expectRefusal(
      new GatehouseClient({ baseUrl, apiKey: n.key.key, gymId: stranger.id }).checkIntegration(),
      { status: 403, key: 'forbidden', message: DENY_MESSAGE },
    );
    expect(error.requestId).toEqual(expect.any(String));
    expect(await everything()).toEqual(before);
  });
});
