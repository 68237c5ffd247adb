import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import { dialects, startTestApp, type TestApp } from '../fixtures/test-app.js';
import { ADMIN_TOKEN, arrangeNetwork, createCheckin, validate } from '../fixtures/operator-api.js';
import { eventually } from '../fixtures/webhook-receiver.js';
import { startPrivateNats } from '../fixtures/private-nats.js';
import { openStreamReader, ownFeed } from '../fixtures/nats-stream-reader.js';

describe.each(dialects)('the NATS feed through an outage (%s)', (dialect) => {
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
    t.store.db.selectFrom('events').select(['position', 'id']).orderBy('position').execute();

  test('when NATS is killed while events happen and then comes back, then every event is published after it returns, in position order, once', async () => {
    const n = await arrangeNetwork(t);
    t.natsFeed?.start();
    const early = await createCheckin(t, n.product);
    const reader = await openStreamReader(nats.url);
    await eventually(async () => (await reader.count(feed.stream).catch(() => 0)) === 1);
    await reader.close();

    await nats.kill();
    // Every change is acknowledged as usual while the broker is down.
    expect((await validate(t, n.key.key, n.gym.id, early.platform_id)).statusCode).toBe(200);
    const during = await Promise.all(
      [1, 2, 3].map(() => createCheckin(t, n.product, { platform_id: platformId() })),
    );
    expect(during).toHaveLength(3);
    await nats.start();
    const after = await createCheckin(t, n.product);

    const expected = await logged();
    const back = await openStreamReader(nats.url);
    await eventually(async () => (await back.count(feed.stream).catch(() => 0)) >= expected.length, 30_000);
    const stored = await back.all(feed.stream);
    await back.close();

    expect(expected).toHaveLength(6);
    expect(stored.map((m) => m.msgId)).toEqual(expected.map((e) => e.id));
    expect(stored.at(-1)?.body.data?.checkin_id).toBe(after.id);
  });
});
