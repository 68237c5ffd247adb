import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { InputError } from '../domain/errors.js';

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
    'every 15 s. The server ends the stream when it shuts down; reconnect with Last-Event-ID.',
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

/**
 * Answers with a server-sent event stream of `messages`, until the client goes away or the messages end (the
 * server's shutdown ends them). `messages` receives the signal that tells it the client has gone.
 */
export function sendEventStream(
  reply: FastifyReply,
  start: StreamMessage,
  messages: (signal: AbortSignal) => AsyncIterable<StreamMessage[]>,
): FastifyReply {
  const gone = new AbortController();
  reply.raw.once('close', () => gone.abort());
  // A stream is quiet between events: only the heartbeat, not the idle-socket timeout, bounds it.
  reply.raw.setTimeout(0);
  async function* body() {
    yield `retry: ${RETRY_MS}\n${frame(start)}`;
    const iterator = messages(gone.signal)[Symbol.asyncIterator]();
    let next = iterator.next();
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const quiet = new Promise<'quiet'>((resolve) => (timer = setTimeout(resolve, HEARTBEAT_MS, 'quiet')));
      const result = await Promise.race([next, quiet]).finally(() => clearTimeout(timer));
      if (result === 'quiet') {
        yield ': keep-alive\n\n';
        continue;
      }
      if (result.done === true) return;
      yield result.value.map(frame).join('');
      next = iterator.next();
    }
  }
  const stream = Readable.from(body(), { objectMode: false });
  // The client went away: the generator above may be waiting for events, which the abort ends.
  stream.once('close', () => gone.abort());
  return (
    reply
      .header('content-type', 'text/event-stream; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('x-accel-buffering', 'no')
      // A stream lasts until the client leaves or the server drains: its connection then closes with it, rather than
      // idling on keep-alive past the moment a draining server closes idle connections.
      .header('connection', 'close')
      .send(stream)
  );
}
