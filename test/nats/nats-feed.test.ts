import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import { admin, arrangeNetwork, createCheckin, operatorApp, validate } from '../fixtures/operator-api.js';
import { eventually } from '../fixtures/webhook-receiver.js';
import { openStreamReader, ownFeed, SHARED_NATS, type StreamReader } from '../fixtures/nats-stream-reader.js';

/** Every event of the log, oldest first, as the feed must publish them. */
const loggedEvents = (t: TestApp) =>
  t.store.db.selectFrom('events').select(['position', 'id', 'type', 'data']).orderBy('position').execute();

describe.each(dialects)('the NATS JetStream feed (%s)', (dialect) => {
  const feed = ownFeed();
  const app = operatorApp({
    dialect,
    env: {
      GATEHOUSE_NATS_URL: SHARED_NATS,
      GATEHOUSE_NATS_SUBJECT_PREFIX: feed.prefix,
      GATEHOUSE_NATS_STREAM: feed.stream,
    },
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

  test('when events happen, then each is published once to <prefix>.<type>, in position order, with Nats-Msg-Id = its id, the stream created', async () => {
    const t = app();
    const n = await arrangeNetwork(t);
    const checkin = await createCheckin(t, n.product);
    expect((await validate(t, n.key.key, n.gym.id, checkin.platform_id)).statusCode).toBe(200);
    const cancelled = await createCheckin(t, n.product);
    expect((await admin(t, 'POST', `/checkins/${cancelled.id}/cancel`, {})).statusCode).toBe(200);

    t.natsFeed?.start();
    const logged = await loggedEvents(t);
    await eventually(async () => (await reader.count(feed.stream).catch(() => 0)) === logged.length);

    const stored = await reader.all(feed.stream);
    expect(stored.map((m) => [m.subject, m.msgId, m.body.id, m.body.type])).toEqual(
      logged.map((e) => [`${feed.prefix}.${e.type}`, e.id, e.id, e.type]),
    );
    expect(stored.map((m) => m.body.data)).toEqual(
      logged.map((e) => JSON.parse(e.data ?? 'null') as unknown),
    );
    expect(logged.map((e) => e.type)).toEqual([
      'checkin.created',
      'checkin.validated',
      'checkin.created',
      'checkin.cancelled',
    ]);
    expect(stored[0]?.body.timestamp).toBe(checkin.checked_in_at);
  });

  test('when the feed starts again from an older cursor, then what it publishes again is deduplicated by Nats-Msg-Id, and new events follow in order', async () => {
    const t = app();
    const before = await reader.count(feed.stream);
    await t.natsFeed?.stop();
    await t.store.db.updateTable('nats_feed').set({ position: 0 }).execute();

    t.natsFeed?.start();
    const n = await arrangeNetwork(t);
    await createCheckin(t, n.product);
    const logged = await loggedEvents(t);
    await eventually(async () => {
      const row = await t.store.db.selectFrom('nats_feed').select('position').executeTakeFirst();
      return Number(row?.position) === logged.at(-1)?.position;
    });

    expect(await reader.count(feed.stream)).toBe(before + 1);
    expect((await reader.all(feed.stream)).map((m) => m.msgId)).toEqual(logged.map((e) => e.id));
  });

  test("when a plan changes and a member is put on it, then <prefix>.plan.changed and <prefix>.member.plan-changed carry them, with no partner: they are the network's", async () => {
    const t = app();
    const before = await reader.count(feed.stream);
    const plan = JSON.parse(
      (
        await admin(t, 'POST', '/plans', {
          name: `Feed ${before}`,
          rules: [{ category: 'standard', per: 'day', limit: 1, scope: 'gym' }],
        })
      ).body,
    ) as { id: number };
    expect((await admin(t, 'PUT', `/members/4000000000077/plan`, { plan_id: plan.id })).statusCode).toBe(200);
    const logged = (await loggedEvents(t)).slice(-2);
    await eventually(async () => (await reader.count(feed.stream)) === before + 2);

    const published = (await reader.all(feed.stream)).slice(-2);
    expect(published.map((m) => [m.subject, m.msgId, m.body])).toEqual(
      logged.map((e) => [
        `${feed.prefix}.${e.type}`,
        e.id,
        {
          id: e.id,
          type: e.type,
          timestamp: expect.any(String) as unknown,
          partner_id: null,
          data: JSON.parse(e.data ?? 'null') as unknown,
        },
      ]),
    );
    expect(logged.map((e) => e.type)).toEqual(['plan.changed', 'member.plan-changed']);
  });
});
