import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type, type Static, type TObject, type TSchema } from 'typebox';
import type { StreamCredential } from '../domain/event-streams.js';
import type { MemberDetailsView } from '../domain/member-details.js';
import { presentEvent } from '../presenters/event.js';
import type { EventSelector } from '../services/event-feed.js';
import type { EventStream } from '../services/event-streams.js';
import type { Services } from '../services/index.js';
import {
  EventStreamResponse,
  LastEventIdHeader,
  StreamQuery,
  sendEventStream,
  streamStart,
} from './server-sent-events.js';

/** Who opens a stream, and what it may see. */
export interface StreamSubscriber {
  /** The stream lives as long as this credential, and counts against its quota. */
  readonly credential: StreamCredential;
  readonly selector: EventSelector;
  /** How the subscriber sees members' details in events' data (an operator's role may mask them); default full. */
  readonly memberDetails?: MemberDetailsView;
}

/** What one API's stream route says of itself; everything else is the same for both. */
export interface EventStreamRouteOptions<Query extends TObject> {
  readonly summary: string;
  /** The API's own headers (the partner API's X-Gym-Id), beside Last-Event-ID. */
  readonly headers: TObject;
  /** Filters the API takes, beside `after`. */
  readonly filters: Query;
  /** The API's error answers; 429 `stream.limit` is among them. */
  readonly errors: Record<number, TSchema>;
  /** The caller (its authentication hook ran first) and the filters it asked for, as a subscriber. */
  subscriber(request: FastifyRequest, filters: Static<Query>): StreamSubscriber;
  /** Called once the stream is open (the operator API audits a stream that shows members' details in full). */
  opened?(request: FastifyRequest, services: Services, subscriber: StreamSubscriber): Promise<void>;
}

/**
 * GET /events/stream, for either API: the event log as it grows, as server-sent events, resumable by position.
 * The APIs differ only in the options: their authentication (run before), their filters, their error answers.
 */
export function eventStreamRoute<Query extends TObject>(
  options: EventStreamRouteOptions<Query>,
): FastifyPluginAsyncTypebox<{ services: Services }> {
  const messagesOf = async function* (stream: EventStream, view: MemberDetailsView) {
    const events = stream.events();
    for (;;) {
      const next = await events.next();
      if (next.done === true) return next.value;
      yield next.value.map((event) => ({
        id: event.position,
        event: event.type,
        data: presentEvent(event, view),
      }));
    }
  };
  return async (app, { services }) => {
    app.get(
      '/events/stream',
      {
        schema: {
          summary: options.summary,
          headers: Type.Object({ ...options.headers.properties, ...LastEventIdHeader }),
          querystring: Type.Object({ ...StreamQuery.properties, ...options.filters.properties }),
          response: { 200: EventStreamResponse, ...options.errors },
        },
      },
      async (request, reply) => {
        const after = streamStart(request);
        const subscriber = options.subscriber(request, request.query as Static<Query>);
        const { credential, selector } = subscriber;
        const stream = await services.eventStreams.open({ credential, selector, after });
        try {
          await options.opened?.(request, services, subscriber);
        } catch (error) {
          stream.close();
          throw error;
        }
        return sendEventStream(reply, {
          start: { id: stream.after, event: 'ready', data: { after: stream.after } },
          messages: () => messagesOf(stream, subscriber.memberDetails ?? 'full'),
          close: () => stream.close(),
        });
      },
    );
  };
}
