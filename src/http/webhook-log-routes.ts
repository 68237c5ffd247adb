import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { parseInstant } from '../domain/instant.js';
import type { DeliveryStatus } from '../domain/webhooks/delivery.js';
import type { EventType } from '../domain/events.js';
import { presentTestOutcome } from '../presenters/integration.js';
import type { Services } from '../services/index.js';
import { TestEventOutcome } from './integration-wire.js';
import { declare, declareList, pathId, type WebhookRouteSide } from './webhook-side.js';
import {
  Delivery,
  DeliveryAttempt,
  DeliveryQuery,
  RecoverBody,
  Recovered,
  presentAttempt,
  presentDelivery,
} from './webhook-wire.js';

/** A webhook endpoint's delivery log, its retries and recoveries, and test events: one side's routes. */
export function webhookLogRoutes(app: FastifyInstance, services: Services, side: WebhookRouteSide): void {
  const { deliveries, tests } = services.webhooks;
  const { wrap } = side;

  declareList(app, side, side.deliveryList, {
    url: '/webhooks/:webhook_id/deliveries',
    summary: 'The delivery log of a webhook endpoint, oldest first',
    query: DeliveryQuery,
    item: Delivery,
    list: (request, { as }, page) => {
      const query = request.query as { status?: DeliveryStatus; event_type?: EventType };
      const filter = {
        ...(query.status === undefined ? {} : { status: query.status }),
        ...(query.event_type === undefined ? {} : { eventType: query.event_type }),
      };
      return deliveries.list(pathId(request, 'webhook_id'), filter, page, as);
    },
    present: presentDelivery,
  });

  declareList(app, side, side.deliveryList, {
    url: '/webhooks/:webhook_id/deliveries/:delivery_id/attempts',
    summary: "A delivery's attempts, oldest first: each one's answer, duration and the body it sent",
    item: DeliveryAttempt,
    list: (request, { as }, page) =>
      deliveries.attempts(pathId(request, 'webhook_id'), pathId(request, 'delivery_id'), page, as),
    present: presentAttempt,
  });

  declare(app, side, {
    method: 'POST',
    url: '/webhooks/:webhook_id/recover',
    summary: 'Send again every failed delivery created since a time',
    body: RecoverBody,
    status: 202,
    answer: wrap.schema(Recovered),
    handle: async (request, { actor, as }) => {
      const since = parseInstant('since', (request.body as Static<typeof RecoverBody>).since);
      return wrap.value({
        recovered: await deliveries.recover(pathId(request, 'webhook_id'), since, actor, as),
      });
    },
  });

  declare(app, side, {
    method: 'POST',
    url: side.retry,
    summary: 'Send one delivery again now, recorded as a new attempt',
    status: 202,
    answer: wrap.schema(Delivery),
    handle: async (request, { actor, as }) => {
      const named = side.retry.includes(':webhook_id') ? pathId(request, 'webhook_id') : undefined;
      const delivery = await deliveries.retry(pathId(request, 'delivery_id'), actor, as, named);
      return wrap.value(presentDelivery(delivery));
    },
  });

  declare(app, side, {
    method: 'POST',
    url: '/webhooks/:webhook_id/test',
    summary:
      'Send a test event now (test.ping, or a Wellhub checkin of the test member) and answer how it went; ' +
      'it is no event of the log and is not kept in the delivery log',
    status: 200,
    answer: wrap.schema(TestEventOutcome),
    handle: async (request, { as }) =>
      wrap.value(presentTestOutcome(await tests.send(pathId(request, 'webhook_id'), as))),
  });
}
