import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { InputError } from '../domain/errors.js';
import type { StreamEndReason } from '../domain/event-streams.js';

/** Comments that keep proxies and idle timers from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;
/** What a client should wait before reconnecting, sent once at the start. */
const RETRY_MS = 2000;

export interface StreamMessage {
  readonly id: number;
  readonly event: string;
  readonly data: unknown;
}

/** The stream's headers and query, shared by the operator's and the partner's stream. */
export const StreamQuery = Type.Object({
  after: Type.Optional(
    Type.String({
      maxLength: 32,
      description:
        'Only events after this position (default: from now on); Last-Event-ID wins when both are sent',
    }),
  ),
});
export const LastEventIdHeader = {
  'last-event-id': Type.Optional(
    Type.String({ maxLength: 32, description: 'The last position received, when reconnecting' }),
  ),
};
export const EventStreamResponse = {
  description:
    'text/event-stream: first `event: ready` with the starting position as its id, then one message per event ' +
    '(`id` its position, `event` its type, `data` the event as GET /admin/v1/events lists it), and a comment ' +
    'every 15 s. When the server ends the stream, its last message is `event: end` with `data` ' +
    '{"reason": "revoked" | "expired" | "lifetime" | "shutdown"}: after revoked or expired, sign in again; ' +
    'after lifetime or shutdown, reconnect with Last-Event-ID.',
  content: { 'text/event-stream': { schema: Type.String() } },
};

function position(name: string, value: string): number {
  const parsed = Number(value);
  if (!/^[0-9]{1,16}$/.test(value) || !Number.isSafeInteger(parsed)) {
    throw new InputError(name, 'must be a position: a non-negative integer');
  }
  return parsed;
}

/** Where a stream starts: Last-Event-ID (a reconnect), else `after`, else undefined (from now on). */
export function streamStart(
  request: FastifyRequest<{ Querystring: { after?: string } }>,
): number | undefined {
  const lastEventId = request.headers['last-event-id'];
  if (typeof lastEventId === 'string') return position('Last-Event-ID', lastEventId);
  return request.query.after === undefined ? undefined : position('after', request.query.after);
}

const frame = (message: StreamMessage) =>
  `id: ${message.id}\nevent: ${message.event}\ndata: ${JSON.stringify(message.data)}\n\n`;

/** The stream's last message when the server ends it: no `id`, so a client resumes from the last event it got. */
const endFrame = (reason: StreamEndReason) => `event: end\ndata: ${JSON.stringify({ reason })}\n\n`;

/** What a stream sends: its first message, then batches until the server ends it (and why) or `close()`. */
export interface StreamSource {
  readonly start: StreamMessage;
  messages(): AsyncGenerator<StreamMessage[], StreamEndReason | undefined>;
  /** The client has gone: the messages end. */
  close(): void;
}

/**
 * Answers with a server-sent event stream of `source`, until the client goes away or the messages end; when the
 * server ends them (revoked or expired credentials, the lifetime, the shutdown), the last message says why.
 */
export function sendEventStream(reply: FastifyReply, source: StreamSource): FastifyReply {
  reply.raw.once('close', () => source.close());
  // A stream is quiet between events: only the heartbeat, not the idle-socket timeout, bounds it.
  reply.raw.setTimeout(0);
  async function* body() {
    yield `retry: ${RETRY_MS}\n${frame(source.start)}`;
    const iterator = source.messages();
    let next = iterator.next();
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const quiet = new Promise<'quiet'>((resolve) => (timer = setTimeout(resolve, HEARTBEAT_MS, 'quiet')));
      const result = await Promise.race([next, quiet]).finally(() => clearTimeout(timer));
      if (result === 'quiet') {
        yield ': keep-alive\n\n';
        continue;
      }
      if (result.done === true) {
        if (result.value !== undefined) yield endFrame(result.value);
        return;
      }
      yield result.value.map(frame).join('');
      next = iterator.next();
    }
  }
  const stream = Readable.from(body(), { objectMode: false });
  // The client went away: the generator above may be waiting for events, which the close ends.
  stream.once('close', () => source.close());
  return (
    reply
      .header('content-type', 'text/event-stream; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('x-accel-buffering', 'no')
      // A stream lasts until the client leaves or the server ends it: its connection then closes with it, rather than
      // idling on keep-alive past the moment a draining server closes idle connections.
      .header('connection', 'close')
      .send(stream)
  );
}
