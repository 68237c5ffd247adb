import { Webhook } from 'standardwebhooks';
import { describe, expect, test } from 'vitest';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import { arrangeNetwork, createCheckin, partnerHeaders } from '../fixtures/operator-api.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';
import { expectReply } from '../fixtures/partner-api.js';
import { eventually, useReceivers } from '../fixtures/webhook-receiver.js';
import { webhookApp, type Delivery, type Endpoint } from '../fixtures/webhook-app.js';

const startReceiver = useReceivers();

function partner(t: TestApp, key: string, gymId: number) {
  return (method: 'POST' | 'GET', url: string, body?: unknown) =>
    t.app.inject({
      method,
      url: `/access/v1${url}`,
      headers: {
        ...partnerHeaders(key, gymId),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
}

describe.each(dialects)('a partner runs its own webhooks with its key (%s)', (dialect) => {
  const app = webhookApp({ dialect });

  test('when its receiver answered 410, then the partner reads the log, enables, recovers, retries and rotates on its own', async () => {
    const t = app();
    let gone = true;
    const hook = await startReceiver(() => ({ status: gone ? 410 : 200 }));
    const n = await arrangeNetwork(t);
    const call = partner(t, n.key.key, n.gym.id);
    const created = await call('POST', '/webhooks', { url: hook.url });
    const endpoint = (JSON.parse(created.body) as { results: Endpoint }).results;
    const log = async () =>
      (JSON.parse((await call('GET', `/webhooks/${endpoint.id}/deliveries`)).body) as { results: Delivery[] })
        .results;

    await createCheckin(t, n.product);
    await eventually(async () => (await log())[0]?.status === 'failed');
    const [failed] = await log();
    expectReply(await call('GET', `/webhooks/${endpoint.id}/deliveries?status=failed`), 200, {
      metadata: { total: 1, errors: 0 },
      results: [failed],
      next_cursor: null,
    });
    expect(JSON.parse((await call('GET', `/webhooks/${endpoint.id}`)).body)).toMatchObject({
      results: { status: 'disabled', disabled_reason: 'gone' },
    });

    gone = false;
    expect(JSON.parse((await call('POST', `/webhooks/${endpoint.id}/enable`)).body)).toMatchObject({
      results: { status: 'enabled', disabled_reason: null },
    });
    expectReply(
      await call('POST', `/webhooks/${endpoint.id}/recover`, { since: '2000-01-01T00:00:00Z' }),
      202,
      {
        metadata: { total: 1, errors: 0 },
        results: { recovered: 1 },
      },
    );
    await eventually(async () => (await log())[0]?.status === 'delivered');
    const rotated = await call('POST', `/webhooks/${endpoint.id}/secret`);
    const { secret } = (JSON.parse(rotated.body) as { results: { secret: string } }).results;
    const retried = await call('POST', `/webhooks/${endpoint.id}/deliveries/${failed?.id}/retry`);
    expect([retried.statusCode, (JSON.parse(retried.body) as { results: Delivery }).results.status]).toEqual([
      202,
      'pending',
    ]);
    await eventually(() => hook.received.length === 3);

    const last = hook.received[2]!;
    expect(new Webhook(secret).verify(last.body, last.headers as Record<string, string>)).toMatchObject({
      type: 'checkin.created',
    });
    expect(
      new Webhook(endpoint.secret).verify(last.body, last.headers as Record<string, string>),
    ).toMatchObject({ type: 'checkin.created' });
    expect(new Set(hook.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    await eventually(async () => (await log())[0]?.attempts === 3);
    expect((await log()).map((d) => [d.status, d.attempts, d.last_status_code])).toEqual([
      ['delivered', 3, 200],
    ]);

    const other = await arrangeNetwork(t);
    const notFound = errorEnvelope('delivery.not-found', 'delivery not found');
    expectReply(
      await partner(
        t,
        other.key.key,
        other.gym.id,
      )('POST', `/webhooks/${endpoint.id}/deliveries/${failed?.id}/retry`),
      404,
      notFound,
    );
  });
});
