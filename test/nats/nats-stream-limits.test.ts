import { jetstreamManager } from '@nats-io/jetstream';
import { connect, nanos, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { operatorApp } from '../fixtures/operator-api.js';
import { eventually } from '../fixtures/webhook-receiver.js';
import { ownFeed, SHARED_NATS } from '../fixtures/nats-stream-reader.js';

const DAY_MS = 86_400_000;

/** The stream the feed made, or the one a test made before it, as JetStream describes it. */
async function streamConfig(nats: NatsConnection, stream: string) {
  return (await (await jetstreamManager(nats)).streams.info(stream)).config;
}

describe("the NATS stream's limits: an erased member's data leaves the broker with the event retention", () => {
  const made = ownFeed();
  const older = ownFeed();
  const feedApp = (feed: { prefix: string; stream: string }) =>
    operatorApp({
      dialect: 'sqlite',
      env: {
        GATEHOUSE_NATS_URL: SHARED_NATS,
        GATEHOUSE_NATS_SUBJECT_PREFIX: feed.prefix,
        GATEHOUSE_NATS_STREAM: feed.stream,
        GATEHOUSE_EVENT_RETENTION_DAYS: '9',
      },
    });
  const madeApp = feedApp(made);
  const olderApp = feedApp(older);
  let nats: NatsConnection;
  beforeAll(async () => {
    nats = await connect({ servers: SHARED_NATS, timeout: 2000 });
  });
  afterAll(async () => {
    await madeApp().natsFeed?.stop();
    await olderApp().natsFeed?.stop();
    const manager = await jetstreamManager(nats);
    for (const { stream } of [made, older]) await manager.streams.delete(stream).catch(() => false);
    await nats.close();
  });

  test('when the feed creates its stream, then the stream keeps a message at most GATEHOUSE_EVENT_RETENTION_DAYS, and nothing is reported', async () => {
    const t = madeApp();

    t.natsFeed?.start();

    await eventually(
      async () => (await streamConfig(nats, made.stream).catch(() => undefined)) !== undefined,
    );
    const config = await streamConfig(nats, made.stream);
    expect({ max_age: config.max_age, subjects: config.subjects }).toEqual({
      max_age: nanos(9 * DAY_MS),
      subjects: [`${made.prefix}.>`],
    });
    expect(t.logs.text()).not.toContain('longer than the event retention');
  });

  test('when the stream was made earlier without a maximum age, then the feed leaves it as it is and says once at start that members stay there for ever, and how to limit it', async () => {
    const manager = await jetstreamManager(nats);
    await manager.streams.add({ name: older.stream, subjects: [`${older.prefix}.>`] });
    const t = olderApp();

    t.natsFeed?.start();

    const warning = `NATS stream ${older.stream} keeps messages for ever, longer than the event retention (9 days): members' data stays there after their erasure; set its maximum age (nats stream edit ${older.stream} --max-age=9d)`;
    await eventually(() => Promise.resolve(t.logs.text().includes(warning)));
    const warned = t.logs.lines
      .map(
        (line) => JSON.parse(line) as { msg?: string; stream?: string; maxAgeDays?: unknown; level?: number },
      )
      .filter((line) => line.msg === warning);
    expect(warned.map(({ stream, maxAgeDays, level }) => ({ stream, maxAgeDays, level }))).toEqual([
      { stream: older.stream, maxAgeDays: null, level: 40 },
    ]);
    expect((await streamConfig(nats, older.stream)).max_age).toBe(0);
  });
});
