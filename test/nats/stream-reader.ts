import { randomBytes } from 'node:crypto';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';

/** The NATS the machine runs (CI makes sure it answers: .ci/run). */
export const SHARED_NATS = 'nats://127.0.0.1:4222';

/** A prefix and a stream of the test's own, so tests never read each other's messages. */
export function ownFeed(): { prefix: string; stream: string } {
  const tag = randomBytes(4).toString('hex');
  return { prefix: `test_${tag}`, stream: `TEST_${tag.toUpperCase()}` };
}

export interface StoredEvent {
  readonly seq: number;
  readonly subject: string;
  readonly msgId: string | undefined;
  readonly body: { id: string; type: string; timestamp: string; data: Record<string, unknown> | null };
}

/** Reads a stream as a subscriber would: every stored message, in stream order. */
export async function openStreamReader(url: string) {
  const connection: NatsConnection = await connect({ servers: url, timeout: 2000 });
  const manager: JetStreamManager = await jetstreamManager(connection);
  return {
    async count(stream: string): Promise<number> {
      return (await manager.streams.info(stream)).state.messages;
    },
    async all(stream: string): Promise<StoredEvent[]> {
      const { first_seq: first, last_seq: last } = (await manager.streams.info(stream)).state;
      const stored: StoredEvent[] = [];
      for (let seq = first; seq <= last && last > 0; seq += 1) {
        const message = await manager.streams.getMessage(stream, { seq });
        if (message === null) continue;
        stored.push({
          seq: message.seq,
          subject: message.subject,
          msgId: message.header?.get('Nats-Msg-Id') || undefined,
          body: JSON.parse(new TextDecoder().decode(message.data)) as StoredEvent['body'],
        });
      }
      return stored;
    },
    async remove(stream: string): Promise<void> {
      await manager.streams.delete(stream).catch(() => false);
    },
    close: () => connection.close(),
  };
}

export type StreamReader = Awaited<ReturnType<typeof openStreamReader>>;
