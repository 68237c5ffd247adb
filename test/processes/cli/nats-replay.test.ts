import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { dialects, startTestApp, type TestApp } from '../../fixtures/test-app.js';
import { ADMIN_TOKEN, arrangeNetwork, createCheckin, validate } from '../../fixtures/operator-api.js';
import { eventually } from '../../fixtures/webhook-receiver.js';
import {
  openStreamReader,
  ownFeed,
  SHARED_NATS,
  type StreamReader,
} from '../../fixtures/nats-stream-reader.js';
import { gatehouse } from '../../fixtures/processes/cli.js';

describe.each(dialects)('gatehouse nats replay, run as an operator runs it (%s)', (dialect) => {
  const feed = ownFeed();
  const natsEnv = {
    GATEHOUSE_NATS_URL: SHARED_NATS,
    GATEHOUSE_NATS_SUBJECT_PREFIX: feed.prefix,
    GATEHOUSE_NATS_STREAM: feed.stream,
  };
  let t: TestApp;
  let reader: StreamReader;
  beforeAll(async () => {
    t = await startTestApp({ dialect, env: { ...natsEnv, GATEHOUSE_ADMIN_TOKEN: ADMIN_TOKEN } });
    reader = await openStreamReader(SHARED_NATS);
  });
  afterAll(async () => {
    await t.natsFeed?.stop();
    await reader.remove(feed.stream);
    await reader.close();
    await t.close();
  });

  const replay = (from: string, env: Record<string, string> = natsEnv) =>
    gatehouse(['nats', 'replay', '--from', from], { GATEHOUSE_DATABASE_URL: t.databaseUrl, ...env });
  const logged = () =>
    t.store.db
      .selectFrom('events')
      .select(['position', 'id', 'type', 'occurred_at', 'partner_id', 'data'])
      .orderBy('position')
      .execute();
  const cursor = async () =>
    (await t.store.db.selectFrom('nats_feed').select(['stream', 'position']).execute()).map((row) => [
      row.stream,
      Number(row.position),
    ]);

  test('when the stream was lost whole, then replay from the first position publishes the log again in order with its ids and positions, and a second replay adds nothing', async () => {
    const n = await arrangeNetwork(t);
    t.natsFeed?.start();
    const first = await createCheckin(t, n.product);
    expect((await validate(t, n.key.key, n.gym.id, first.platform_id)).statusCode).toBe(200);
    await createCheckin(t, n.product);
    await eventually(async () => (await reader.count(feed.stream).catch(() => 0)) === 3);
    await t.natsFeed?.stop();
    // The broker lost its store: the stream, and with it its memory of the ids it held.
    await reader.remove(feed.stream);
    const events = await logged();
    const [from, , last] = events.map((e) => Number(e.position));

    const repaired = await replay(String(from));

    expect(repaired).toEqual({
      code: 0,
      stdout: `3 events from position ${from} to ${last} published again to stream ${feed.stream}\n`,
      stderr: '',
    });
    const asPublished = events.map((e, index) => [
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
    ]);
    const stored = async () =>
      (await reader.all(feed.stream)).map((m) => [m.seq, m.subject, m.msgId, m.position, m.body]);
    expect(await stored()).toEqual(asPublished);
    expect(events.map((e) => e.type)).toEqual(['checkin.created', 'checkin.validated', 'checkin.created']);
    expect(await cursor()).toEqual([[feed.stream, last]]);

    // Within the stream's duplicate window the same ids are dropped: the stream holds each event once.
    const again = await replay(String(events[1]?.position));

    expect(again).toEqual({
      code: 0,
      stdout: `2 events from position ${events[1]?.position} to ${last} published again to stream ${feed.stream}\n`,
      stderr: '',
    });
    expect(await stored()).toEqual(asPublished);
    expect(await cursor()).toEqual([[feed.stream, last]]);
  });

  test('when no NATS is configured or the position is not a positive whole number, then replay says so, exits 1 and moves nothing', async () => {
    const before = { stream: await reader.all(feed.stream), cursor: await cursor() };

    const withoutNats = await replay('1', {});
    const zero = await replay('0');

    expect(withoutNats).toEqual({
      code: 1,
      stdout: '',
      stderr: 'gatehouse: GATEHOUSE_NATS_URL is not set: there is no NATS feed to replay\n',
    });
    expect(zero).toEqual({
      code: 1,
      stdout: '',
      stderr:
        "error: option '--from <position>' argument '0' is invalid. must be a positive integer\n" +
        "Run 'gatehouse nats replay --help' for its usage.\n",
    });
    expect({ stream: await reader.all(feed.stream), cursor: await cursor() }).toEqual(before);
  });
});
