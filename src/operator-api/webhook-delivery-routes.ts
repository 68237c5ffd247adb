import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { parseInstant } from '../domain/instant.js';
import { pageRequest } from '../domain/pagination.js';
import { Delivery, DeliveryQuery, RecoverBody, Recovered, presentDelivery } from '../http/webhook-wire.js';
import type { Services } from '../services/index.js';
import { presentPage } from '../presenters/records.js';
import { IdString, ListOf, PageQuery, operatorErrorResponses } from './schemas.js';

const WebhookParams = Type.Object({ webhook_id: IdString });

/** The delivery log of a webhook endpoint: read it, send one delivery again, recover failures since a time. */
export const webhookDeliveryRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (
  app,
  { services },
) => {
  const { deliveries } = services.webhooks;
  app.get(
    '/webhooks/:webhook_id/deliveries',
    {
      schema: {
        summary: 'The delivery log of a webhook endpoint, oldest first',
        params: WebhookParams,
        querystring: Type.Object({ ...DeliveryQuery, ...PageQuery }),
        response: { 200: ListOf(Delivery), ...operatorErrorResponses },
      },
    },
    async (request) => {
      const { status, event_type: eventType } = request.query;
      const page = await deliveries.list(
        Number(request.params.webhook_id),
        { ...(status === undefined ? {} : { status }), ...(eventType === undefined ? {} : { eventType }) },
        pageRequest(request.query),
      );
      return presentPage(page, presentDelivery);
    },
  );

  app.post(
    '/deliveries/:delivery_id/retry',
    {
      schema: {
        summary: 'Send one delivery again now, recorded as a new attempt',
        params: Type.Object({ delivery_id: IdString }),
        response: { 202: Delivery, ...operatorErrorResponses },
      },
    },
    async (request, reply) => {
      const delivery = await deliveries.retry(Number(request.params.delivery_id));
      return reply.code(202).send(presentDelivery(delivery));
    },
  );

  app.post(
    '/webhooks/:webhook_id/recover',
    {
      schema: {
        summary: 'Send again every failed delivery created since a time',
        params: WebhookParams,
        body: RecoverBody,
        response: { 202: Recovered, ...operatorErrorResponses },
      },
    },
    async (request, reply) => {
      const since = parseInstant('since', request.body.since);
      const recovered = await deliveries.recover(Number(request.params.webhook_id), since);
      return reply.code(202).send({ recovered });
    },
  );
};
