import { setTimeout as sleep } from 'node:timers/promises';
import { jetstream, jetstreamManager, JetStreamApiError, type JetStreamClient } from '@nats-io/jetstream';
import { connect, headers, millis, nanos, type NatsConnection } from '@nats-io/transport-node';
import { feedMessage, feedSubject, feedSubjects, POSITION_HEADER } from '../domain/broker-feed.js';
import type { Clock } from '../domain/clock.js';
import { listEvents } from '../store/events/event-repository.js';
import { readFeedCursor, rewindFeedCursor, saveFeedCursor } from '../store/events/nats-feed-repository.js';
import type { Store } from '../store/store.js';

export interface NatsFeedOptions {
  readonly store: Store;
  readonly clock: Clock;
  readonly url: string;
  readonly prefix: string;
  readonly stream: string;
  /** How long the stream keeps a message: the event retention, so an erased member's data leaves it with the log's. */
  readonly retentionDays: number;
  readonly log: {
    warn(details: object, message: string): void;
    info(details: object, message: string): void;
  };
  /** How often the log is looked at for new events. */
  readonly pollMs?: number;
  /** How long to wait before trying again after NATS failed to take an event. */
  readonly retryMs?: number;
  /** How long NATS has to acknowledge one message. */
  readonly ackTimeoutMs?: number;
}

const BATCH = 500;
const STREAM_NOT_FOUND = 10059;

/**
 * The broker feed: follows the event log by position (like webhook dispatch) and publishes every event to NATS
 * JetStream, one at a time, each acknowledged before the next, with `Nats-Msg-Id` = the event id and
 * `Gatehouse-Position` = its position in the log (where `replay` starts to repair a broker that lost messages). Its place in the
 * log is stored after what NATS acknowledged, so after a restart or an outage it resumes there: an event may be
 * published twice (the stream drops the second within its duplicate window), never skipped, and always in position
 * order. Payloads already purged by retention are passed over.
 */
export function createNatsFeed(options: NatsFeedOptions) {
  const { store, clock, log, stream, prefix } = options;
  const pollMs = options.pollMs ?? 100;
  const retryMs = options.retryMs ?? 500;
  let connection: NatsConnection | undefined;
  let client: JetStreamClient | undefined;
  let streamReady = false;
  let running = false;
  let loop: Promise<void> | undefined;
  let interrupt = new AbortController();
  let failing = false;

  async function ready(): Promise<JetStreamClient> {
    connection ??= await connect({
      servers: options.url,
      name: 'gatehouse-feed',
      reconnect: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
      timeout: 2000,
    });
    if (!streamReady) {
      await ensureStream(connection);
      streamReady = true;
    }
    client ??= jetstream(connection, { timeout: options.ackTimeoutMs ?? 2000 });
    return client;
  }

  /**
   * Creates the stream with a maximum age of the event retention. A stream that exists is left as its operator set
   * it, but one that keeps messages longer is reported once: members' data would outlive their erasure there.
   */
  async function ensureStream(nats: NatsConnection): Promise<void> {
    const manager = await jetstreamManager(nats);
    const maxAgeMs = options.retentionDays * 86_400_000;
    try {
      const { config } = await manager.streams.info(stream);
      if (config.max_age === 0 || millis(config.max_age) > maxAgeMs) {
        const kept = config.max_age === 0 ? 'for ever' : `${millis(config.max_age) / 86_400_000} days`;
        log.warn(
          { stream, maxAgeDays: config.max_age === 0 ? null : millis(config.max_age) / 86_400_000 },
          `NATS stream ${stream} keeps messages ${kept}, longer than the event retention ` +
            `(${options.retentionDays} days): members' data stays there after their erasure; ` +
            `set its maximum age (nats stream edit ${stream} --max-age=${options.retentionDays}d)`,
        );
      }
    } catch (error) {
      if (!(error instanceof JetStreamApiError) || error.code !== STREAM_NOT_FOUND) throw error;
      await manager.streams.add({ name: stream, subjects: feedSubjects(prefix), max_age: nanos(maxAgeMs) });
    }
  }

  /** Publishes what follows `after` in the log, up to a batch; the position reached and how many events it read. */
  async function publishAfter(after: number): Promise<{ position: number; read: number }> {
    const js = await ready();
    const events = (await listEvents(store.db, after, BATCH, false)).slice(0, BATCH);
    let published = after;
    try {
      for (const event of events) {
        if (event.data !== null) {
          const tags = headers();
          tags.set(POSITION_HEADER, String(event.position));
          const subject = feedSubject(prefix, event.type);
          await js.publish(subject, feedMessage(event), { msgID: event.id, headers: tags });
        }
        published = event.position;
      }
    } finally {
      if (published > after) await saveFeedCursor(store.db, stream, published, clock.now());
    }
    return { position: published, read: events.length };
  }

  async function publishBatch(): Promise<number> {
    return (await publishAfter(await readFeedCursor(store.db, stream))).read;
  }

  async function pause(ms: number): Promise<void> {
    await sleep(ms, undefined, { signal: interrupt.signal }).catch(() => undefined);
  }

  async function run(): Promise<void> {
    while (running) {
      try {
        const read = await publishBatch();
        if (failing) log.info({ stream }, 'NATS feed: publishing again');
        failing = false;
        if (read >= BATCH) continue;
        await pause(pollMs);
      } catch (error) {
        if (!failing) log.warn({ stream, error: (error as Error).message }, 'NATS feed: paused, will resume');
        failing = true;
        // The stream may have gone with the server: look for it again once NATS answers.
        streamReady = false;
        await pause(retryMs);
      }
    }
  }

  return {
    start(): void {
      if (running) return;
      running = true;
      interrupt = new AbortController();
      loop = run();
    },
    /**
     * `gatehouse nats replay`: moves the feed's place back to just before `from` (so a serving process's feed
     * republishes from there too) and republishes every event from `from` to the end of the log itself. The stream
     * drops a message whose `Nats-Msg-Id` it stored within its duplicate window; an older one is sent again.
     */
    async replay(from: number): Promise<{ read: number; position: number }> {
      await rewindFeedCursor(store.db, stream, from - 1, clock.now());
      let reached = { position: from - 1, read: 0 };
      let read = 0;
      do {
        reached = await publishAfter(reached.position);
        read += reached.read;
      } while (reached.read >= BATCH);
      return { read, position: reached.position };
    },
    /** Stops after the message in flight; what NATS acknowledged is recorded, the rest goes out at the next start. */
    async stop(): Promise<void> {
      running = false;
      interrupt.abort();
      await loop;
      await connection?.close();
      connection = undefined;
      client = undefined;
      streamReady = false;
    },
  };
}

export type NatsFeed = ReturnType<typeof createNatsFeed>;
