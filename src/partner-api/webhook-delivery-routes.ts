import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { parseInstant } from '../domain/instant.js';
import { pageRequest } from '../domain/pagination.js';
import { successEnvelope } from '../http/envelope.js';
import {
  Delivery,
  DeliveryQuery,
  Endpoint,
  RecoverBody,
  Recovered,
  presentDelivery,
  presentEndpoint,
} from '../http/webhook-wire.js';
import type { Services } from '../services/index.js';
import { PartnerHeaders, partnerErrorResponses } from './schemas.js';
import { Envelope, IdString, Metadata, WebhookParams, config, manager } from './webhook-route-parts.js';

/** /access/v1/webhooks/:id/…: the partner reads its delivery log, and gets deliveries going again. */
export const webhookDeliveryRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (
  app,
  { services },
) => {
  const { deliveries, endpoints } = services.webhooks;
  app.get(
    '/webhooks/:webhook_id/deliveries',
    {
      schema: {
        summary: 'The delivery log of a webhook endpoint, oldest first',
        headers: PartnerHeaders,
        params: WebhookParams,
        querystring: Type.Object({
          ...DeliveryQuery,
          limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$' })),
          cursor: Type.Optional(Type.String({ maxLength: 200 })),
        }),
        response: {
          200: Type.Object({
            metadata: Metadata,
            results: Type.Array(Delivery),
            next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as cursor for more' }),
          }),
          ...partnerErrorResponses,
        },
      },
      config,
    },
    async (request) => {
      const { status, event_type: eventType } = request.query;
      const page = await deliveries.list(
        Number(request.params.webhook_id),
        { ...(status === undefined ? {} : { status }), ...(eventType === undefined ? {} : { eventType }) },
        pageRequest(request.query),
        manager(request).as,
      );
      return {
        ...successEnvelope(page.items.map(presentDelivery), page.items.length),
        next_cursor: page.nextCursor,
      };
    },
  );

  app.post(
    '/webhooks/:webhook_id/enable',
    {
      schema: {
        summary: 'Enable a webhook endpoint again after gatehouse disabled it',
        headers: PartnerHeaders,
        params: WebhookParams,
        response: { 200: Envelope(Endpoint), ...partnerErrorResponses },
      },
      config,
    },
    async (request) => {
      const { actor, as } = manager(request);
      return successEnvelope(
        presentEndpoint(await endpoints.enable(Number(request.params.webhook_id), actor, as)),
      );
    },
  );

  app.post(
    '/webhooks/:webhook_id/recover',
    {
      schema: {
        summary: 'Send again every failed delivery created since a time',
        headers: PartnerHeaders,
        params: WebhookParams,
        body: RecoverBody,
        response: { 202: Envelope(Recovered), ...partnerErrorResponses },
      },
      config,
    },
    async (request, reply) => {
      const { actor, as } = manager(request);
      const since = parseInstant('since', request.body.since);
      const recovered = await deliveries.recover(Number(request.params.webhook_id), since, actor, as);
      return reply.code(202).send(successEnvelope({ recovered }));
    },
  );

  app.post(
    '/webhooks/:webhook_id/deliveries/:delivery_id/retry',
    {
      schema: {
        summary: 'Send one delivery again now, recorded as a new attempt',
        headers: PartnerHeaders,
        params: Type.Object({ webhook_id: IdString, delivery_id: IdString }),
        response: { 202: Envelope(Delivery), ...partnerErrorResponses },
      },
      config,
    },
    async (request, reply) => {
      const { actor, as } = manager(request);
      const { webhook_id: webhookId, delivery_id: deliveryId } = request.params;
      const delivery = await deliveries.retry(Number(deliveryId), actor, as, Number(webhookId));
      return reply.code(202).send(successEnvelope(presentDelivery(delivery)));
    },
  );
};
