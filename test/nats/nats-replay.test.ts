import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { dialects, startTestApp, type TestApp } from '../fixtures/test-app.js';
import { ADMIN_TOKEN, arrangeNetwork, createCheckin, validate } from '../fixtures/operator-api.js';
import { eventually } from '../fixtures/webhook-receiver.js';
import { startPrivateNats } from '../fixtures/private-nats.js';
import { openStreamReader, ownFeed } from '../fixtures/nats-stream-reader.js';

describe.each(dialects)('the NATS feed repaired after the broker lost messages (%s)', (dialect) => {
  let nats: Awaited<ReturnType<typeof startPrivateNats>>;
  let t: TestApp;
  const feed = ownFeed();
  beforeAll(async () => {
    nats = await startPrivateNats();
    t = await startTestApp({
      dialect,
      env: {
        GATEHOUSE_ADMIN_TOKEN: ADMIN_TOKEN,
        GATEHOUSE_NATS_URL: nats.url,
        GATEHOUSE_NATS_SUBJECT_PREFIX: feed.prefix,
        GATEHOUSE_NATS_STREAM: feed.stream,
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await nats.stop();
  });

  const logged = () =>
    t.store.db
      .selectFrom('events')
      .select(['position', 'id', 'type', 'occurred_at', 'partner_id', 'data'])
      .orderBy('position')
      .execute();
  const stored = async () => {
    const reader = await openStreamReader(nats.url);
    try {
      return await reader.all(feed.stream);
    } finally {
      await reader.close();
    }
  };
  const storedCount = async () => {
    const reader = await openStreamReader(nats.url);
    try {
      return await reader.count(feed.stream).catch(() => 0);
    } finally {
      await reader.close();
    }
  };

  test('when the broker loses messages it acknowledged, then replay from a position publishes them again with the same ids and positions, and what it still held is not doubled', async () => {
    const n = await arrangeNetwork(t);
    t.natsFeed?.start();
    const first = await createCheckin(t, n.product);
    await createCheckin(t, n.product);
    await eventually(async () => (await storedCount()) === 2);
    await nats.saveStore();
    expect((await validate(t, n.key.key, n.gym.id, first.platform_id)).statusCode).toBe(200);
    await createCheckin(t, n.product);
    await eventually(async () => (await storedCount()) === 4, 30_000);

    await nats.loseSinceSave();
    expect(await storedCount()).toBe(2);
    const events = await logged();
    const from = Number(events[1]?.position);
    // The feed's connection comes back within its reconnect wait; until then a replay fails and is run again.
    let replayed: unknown;
    await eventually(async () => {
      replayed = await t.natsFeed?.replay(from).catch(() => undefined);
      return replayed !== undefined;
    }, 30_000);

    expect(replayed).toEqual({ read: 3, position: Number(events[3]?.position) });
    const messages = await stored();
    expect(messages.map((m) => [m.seq, m.subject, m.msgId, m.position, m.body])).toEqual(
      events.map((e, index) => [
        index + 1,
        `${feed.prefix}.${e.type}`,
        e.id,
        String(e.position),
        {
          id: e.id,
          type: e.type,
          timestamp: new Date(Number(e.occurred_at)).toISOString(),
          partner_id: Number(e.partner_id),
          data: JSON.parse(e.data ?? 'null') as unknown,
        },
      ]),
    );
    expect(events.map((e) => e.type)).toEqual([
      'checkin.created',
      'checkin.created',
      'checkin.validated',
      'checkin.created',
    ]);
    const cursor = await t.store.db.selectFrom('nats_feed').select(['stream', 'position']).execute();
    expect(cursor.map((row) => [row.stream, Number(row.position)])).toEqual([
      [feed.stream, Number(events[3]?.position)],
    ]);
  });
});
