import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  EventStreamResponse,
  LastEventIdHeader,
  StreamQuery,
  sendEventStream,
  streamStart,
} from '../http/server-sent-events.js';
import { presentEvent } from '../presenters/event.js';
import type { Services } from '../services/index.js';
import { principalOf } from './authenticate.js';
import { PartnerHeaders, partnerErrorResponses } from './schemas.js';

/**
 * GET /access/v1/events/stream (an addition to the spec): the calling gym's own events as they happen, for a front
 * desk's screen; the same messages as the operator's stream, resumable by position.
 */
export const eventStreamRoute: FastifyPluginAsyncTypebox<{ services: Services }> = async (
  app,
  { services },
) => {
  app.get(
    '/events/stream',
    {
      schema: {
        summary: "The gym's events as they happen (server-sent events)",
        headers: Type.Object({ ...PartnerHeaders.properties, ...LastEventIdHeader }),
        querystring: StreamQuery,
        response: { 200: EventStreamResponse, ...partnerErrorResponses },
      },
    },
    async (request, reply) => {
      const { key, gymId } = principalOf(request);
      const after = streamStart(request) ?? (await services.eventFeed.head());
      const filter = { partnerId: key.partnerId, gymId };
      return sendEventStream(reply, { id: after, event: 'ready', data: { after } }, async function* (signal) {
        for await (const batch of services.eventFeed.follow(filter, after, signal)) {
          yield batch.map((event) => ({ id: event.position, event: event.type, data: presentEvent(event) }));
        }
      });
    },
  );
};
