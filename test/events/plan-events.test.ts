import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { openStream, type OpenStream } from '../fixtures/event-stream-reader.js';
import { platformId, unique } from '../fixtures/factories.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { lastEventPosition } from '../fixtures/store-state.js';
import { eventually, useReceivers } from '../fixtures/webhook-receiver.js';
import { deliveriesOf, register, webhookApp } from '../fixtures/webhook-app.js';

const receiver = useReceivers();
const RULE = { category: 'standard', per: 'day', limit: 1, scope: 'network' };
const EVENT_ID: unknown = expect.stringMatching(/^evt_[0-9a-f]{32}$/);
const ISO: unknown = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

/** The log after `after`, as the operator reads it. */
async function eventsAfter(t: TestApp, after: number) {
  const response = await op.admin(t, 'GET', `/events?after=${after}`);
  expect(response.statusCode, response.body).toBe(200);
  return (JSON.parse(response.body) as { items: Record<string, unknown>[] }).items;
}

describe.each(dialects)('plan.changed and member.plan-changed (%s)', (dialect) => {
  const app = webhookApp({ dialect });

  test('when a plan is created, versioned and a member put on it, then each change appends its event with no partner or gym, in the same commit as the rows it describes', async () => {
    const t = app();
    const after = await lastEventPosition(t.store);
    const name = `Gold ${unique()}`;
    const member = platformId();

    const created = op.ok<{ id: number; effective_from: string }>(
      await op.admin(t, 'POST', '/plans', { name, rules: [RULE] }),
      201,
    );
    const later = '2031-01-01T00:00:00.000Z';
    const premium = { category: 'premium', per: 'week', limit: 2, scope: 'partner' };
    op.ok(
      await op.admin(t, 'PUT', `/plans/${created.id}`, { rules: [RULE, premium], effective_from: later }),
      200,
    );
    const set = op.ok<{ effective_from: string; set_at: string }>(
      await op.admin(t, 'PUT', `/members/${member}/plan`, { plan_id: created.id }),
      200,
    );

    const network = { id: EVENT_ID, partner_id: null, gym_id: null };
    expect(await eventsAfter(t, after)).toEqual([
      {
        ...network,
        position: expect.any(Number) as unknown,
        type: 'plan.changed',
        occurred_at: ISO,
        data: {
          plan_id: created.id,
          name,
          version: 1,
          rules: [RULE],
          effective_from: created.effective_from,
        },
      },
      {
        ...network,
        position: expect.any(Number) as unknown,
        type: 'plan.changed',
        occurred_at: ISO,
        data: { plan_id: created.id, name, version: 2, rules: [RULE, premium], effective_from: later },
      },
      {
        ...network,
        position: expect.any(Number) as unknown,
        type: 'member.plan-changed',
        occurred_at: set.set_at,
        data: { platform_id: member, plan_id: created.id, effective_from: set.effective_from },
      },
    ]);
    // Stored with 0 for partner and gym: ids start at 1, so no partner's endpoint or stream matches them.
    const rows = await t.store.db
      .selectFrom('events')
      .select(['type', 'partner_id', 'gym_id', 'occurred_at'])
      .where('position', '>', after)
      .orderBy('position')
      .execute();
    const versions = await t.store.db
      .selectFrom('plan_versions')
      .select('created_at')
      .where('plan_id', '=', created.id)
      .orderBy('version')
      .execute();
    expect(rows).toEqual([
      { type: 'plan.changed', partner_id: 0, gym_id: 0, occurred_at: versions[0]?.created_at },
      { type: 'plan.changed', partner_id: 0, gym_id: 0, occurred_at: versions[1]?.created_at },
      { type: 'member.plan-changed', partner_id: 0, gym_id: 0, occurred_at: Date.parse(set.set_at) },
    ]);
  });

  test('when a plan change is refused (a name taken, an unknown plan, a bad rule), then no event is appended and nothing changes', async () => {
    const t = app();
    const name = `Taken ${unique()}`;
    op.ok(await op.admin(t, 'POST', '/plans', { name, rules: [RULE] }), 201);
    const before = await op.wholeStore(t);

    const refused = [
      await op.admin(t, 'POST', '/plans', { name, rules: [RULE] }),
      await op.admin(t, 'PUT', '/plans/999999', { rules: [RULE] }),
      await op.admin(t, 'POST', '/plans', { name: `Bad ${unique()}`, rules: [{ ...RULE, per: 'hour' }] }),
      await op.admin(t, 'PUT', `/members/${platformId()}/plan`, { plan_id: 999_999 }),
    ];

    expect(refused.map((response) => response.statusCode)).toEqual([409, 404, 400, 404]);
    expect(await op.wholeStore(t)).toEqual(before);
  });

  test("when a partner's endpoint listens to every type, then it gets the check-in that follows plan changes and none of them: a plan is the network's, a member's plan not the gym's", async () => {
    const t = app();
    const hook = await receiver();
    const n = await op.arrangeNetwork(t);
    const endpoint = await register(t, n.partner.id, { url: hook.url });
    const member = platformId();

    const plan = op.ok<{ id: number }>(
      await op.admin(t, 'POST', '/plans', { name: `Open ${unique()}`, rules: [RULE] }),
      201,
    );
    op.ok(await op.admin(t, 'PUT', `/members/${member}/plan`, { plan_id: plan.id }), 200);
    const checkin = await op.createCheckin(t, n.product, { platform_id: member });

    await eventually(() => hook.received.length === 1);
    expect(
      hook.received.map((r) => JSON.parse(r.body) as { type: string; data: { checkin_id: number } }),
    ).toEqual([
      {
        type: 'checkin.created',
        timestamp: checkin.checked_in_at,
        data: expect.objectContaining({ checkin_id: checkin.id, platform_id: member }) as unknown,
      },
    ]);
    // Fan-out writes a delivery for each event an endpoint wants: the plan's events have none.
    await eventually(async () => (await deliveriesOf(t, endpoint.id)).every((d) => d.status === 'delivered'));
    expect((await deliveriesOf(t, endpoint.id)).map((d) => d.event_type)).toEqual(['checkin.created']);
  });

  test('when an endpoint asks for a network event type, then 400 naming event_types, and nothing is stored', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const before = await op.wholeStore(t);

    for (const type of ['plan.changed', 'member.plan-changed']) {
      const response = await op.admin(t, 'POST', `/partners/${n.partner.id}/webhooks`, {
        url: 'https://hooks.example.com/in',
        event_types: ['checkin.created', type],
      });
      expect(response.statusCode, response.body).toBe(400);
      expect((JSON.parse(response.body) as { errors: { key: string }[] }).errors.map((e) => e.key)).toEqual([
        'event_types',
      ]);
    }
    expect(await op.wholeStore(t)).toEqual(before);
  });

  test('when a member is erased, then their member.plan-changed payload is purged with the rest of their data', async () => {
    const t = app();
    const member = platformId();
    const plan = op.ok<{ id: number }>(
      await op.admin(t, 'POST', '/plans', { name: `Erased ${unique()}`, rules: [RULE] }),
      201,
    );
    const after = await lastEventPosition(t.store);
    op.ok(await op.admin(t, 'PUT', `/members/${member}/plan`, { plan_id: plan.id }), 200);

    const erased = op.ok<{ erased: { events: number } }>(
      await op.admin(t, 'POST', `/members/${member}/erase`, {}),
      200,
    );

    expect(erased.erased.events).toBe(1);

    const rows = await t.store.db
      .selectFrom('events')
      .select(['type', 'data'])
      .where('position', '>', after)
      .orderBy('position')
      .execute();
    expect(rows).toEqual([{ type: 'member.plan-changed', data: null }]);
  });
});

describe.each(dialects)('network events on the event streams (%s)', (dialect) => {
  const app = op.operatorApp({ dialect });
  const open: OpenStream[] = [];
  beforeAll(async () => {
    await app().app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterEach(async () => {
    for (const stream of open.splice(0)) await stream.close();
  });
  const stream = async (t: TestApp, path: string, headers: Record<string, string>) => {
    const opened = await openStream(t, path, headers);
    open.push(opened);
    return opened;
  };

  test("when a plan changes and a member is put on it, then the operator's stream sends both events as the log lists them, and a front desk's stream only the check-in after them", async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const start = await lastEventPosition(t.store);
    const operator = await stream(t, '/admin/v1/events/stream', op.ADMIN);
    const desk = await stream(t, '/access/v1/events/stream', op.partnerHeaders(n.key.key, n.gym.id));
    const ready = { id: String(start), event: 'ready', data: { after: start } };
    expect(await operator.next(1)).toEqual([ready]);
    expect(await desk.next(1)).toEqual([ready]);

    const member = platformId();
    const plan = op.ok<{ id: number }>(
      await op.admin(t, 'POST', '/plans', { name: `Streamed ${unique()}`, rules: [RULE] }),
      201,
    );
    op.ok(await op.admin(t, 'PUT', `/members/${member}/plan`, { plan_id: plan.id }), 200);
    await op.createCheckin(t, n.product, { platform_id: member });

    const logged = await eventsAfter(t, start);
    expect(logged.map((event) => [event.type, event.partner_id])).toEqual([
      ['plan.changed', null],
      ['member.plan-changed', null],
      ['checkin.created', n.partner.id],
    ]);
    const asMessage = (event: Record<string, unknown>) => ({
      id: String(event.position),
      event: event.type,
      data: event,
    });
    expect(await operator.next(3)).toEqual(logged.map(asMessage));
    expect(await desk.next(1)).toEqual(logged.slice(2).map(asMessage));
  });
});
