import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  EventStreamResponse,
  LastEventIdHeader,
  StreamQuery,
  sendEventStream,
  streamStart,
} from '../http/server-sent-events.js';
import type { Services } from '../services/index.js';
import { presentEvent } from '../presenters/event.js';
import { EventType } from './event-routes.js';
import { IdString, operatorErrorResponses } from './schemas.js';

/** GET /admin/v1/events/stream: the event log as it grows, as server-sent events, resumable by position. */
export const eventStreamRoute: FastifyPluginAsyncTypebox<{ services: Services }> = async (
  app,
  { services },
) => {
  app.get(
    '/events/stream',
    {
      schema: {
        summary: 'The event log as it grows (server-sent events)',
        headers: Type.Object(LastEventIdHeader),
        querystring: Type.Object({
          ...StreamQuery.properties,
          type: Type.Optional(EventType),
          partner_id: Type.Optional(IdString),
          gym_id: Type.Optional(IdString),
        }),
        response: { 200: EventStreamResponse, ...operatorErrorResponses },
      },
    },
    async (request, reply) => {
      const { query } = request;
      const after = streamStart(request) ?? (await services.eventFeed.head());
      const filter = {
        ...(query.type === undefined ? {} : { type: query.type }),
        ...(query.partner_id === undefined ? {} : { partnerId: Number(query.partner_id) }),
        ...(query.gym_id === undefined ? {} : { gymId: Number(query.gym_id) }),
      };
      return sendEventStream(reply, { id: after, event: 'ready', data: { after } }, (signal) =>
        toMessages(services.eventFeed.follow(filter, after, signal)),
      );
    },
  );
};

async function* toMessages(batches: ReturnType<Services['eventFeed']['follow']>) {
  for await (const batch of batches) {
    yield batch.map((event) => ({ id: event.position, event: event.type, data: presentEvent(event) }));
  }
}
