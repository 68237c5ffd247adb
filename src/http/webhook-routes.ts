import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Services } from '../services/index.js';
import { webhookLogRoutes } from './webhook-log-routes.js';
import { declare, declareList, pathId, type WebhookRouteSide } from './webhook-side.js';
import {
  CreatedEndpoint,
  Endpoint,
  EndpointBody,
  EndpointPatch,
  NewSecret,
  SecretBody,
  endpointInput,
  presentEndpoint,
} from './webhook-wire.js';

/**
 * Every webhook route of one side, the partner's (`/access/v1`) or the operator's (`/admin/v1`): the endpoints and
 * their secrets here, their delivery log and test events in webhook-log-routes.ts.
 */
export function webhookRoutes(app: FastifyInstance, services: Services, side: WebhookRouteSide): void {
  const { endpoints } = services.webhooks;
  const { wrap } = side;

  declare(app, side, {
    method: 'POST',
    url: side.collection,
    summary: 'Register a webhook endpoint (the signing secret is shown once)',
    body: EndpointBody,
    status: 201,
    answer: wrap.schema(CreatedEndpoint),
    ...(side.createErrors === undefined ? {} : { errors: side.createErrors }),
    handle: async (request, { partnerId, actor, as }) => {
      const body = request.body as Static<typeof EndpointBody>;
      const input = {
        ...endpointInput(body),
        url: body.url,
        ...(body.format === undefined ? {} : { format: body.format }),
        ...(body.secret === undefined ? {} : { secret: body.secret }),
      };
      const created = await endpoints.create(partnerId, input, actor, as);
      return wrap.value({ ...presentEndpoint(created.endpoint), secret: created.secret });
    },
  });

  declareList(app, side, side.endpointList, {
    url: side.collection,
    summary: side.listSummary,
    item: Endpoint,
    list: (_request, { partnerId, as }, page) => endpoints.list(partnerId, page, as),
    present: presentEndpoint,
  });

  declare(app, side, {
    method: 'GET',
    url: '/webhooks/:webhook_id',
    summary: 'Read a webhook endpoint',
    status: 200,
    answer: wrap.schema(Endpoint),
    handle: async (request, { as }) =>
      wrap.value(presentEndpoint(await endpoints.get(pathId(request, 'webhook_id'), as))),
  });

  declare(app, side, {
    method: 'PATCH',
    url: '/webhooks/:webhook_id',
    summary: 'Change a webhook endpoint’s URL, event types, gyms or timeout',
    body: EndpointPatch,
    status: 200,
    answer: wrap.schema(Endpoint),
    handle: async (request, { actor, as }) => {
      const input = endpointInput(request.body as Static<typeof EndpointPatch>);
      return wrap.value(
        presentEndpoint(await endpoints.update(pathId(request, 'webhook_id'), input, actor, as)),
      );
    },
  });

  declare(app, side, {
    method: 'DELETE',
    url: '/webhooks/:webhook_id',
    summary: 'Remove a webhook endpoint and its delivery log',
    status: 204,
    answer: Type.Null({ description: 'Removed' }),
    handle: async (request, { actor, as }) => {
      await endpoints.remove(pathId(request, 'webhook_id'), actor, as);
      return null;
    },
  });

  declare(app, side, {
    method: 'POST',
    url: '/webhooks/:webhook_id/secret',
    summary: 'Rotate the signing secret: the old one keeps signing beside the new one for 24 hours',
    body: SecretBody,
    status: 201,
    answer: wrap.schema(NewSecret),
    // No body at all asks for a generated secret.
    preValidation: async (request) => {
      request.body ??= {};
    },
    handle: async (request, { actor, as }) => {
      const { secret } = request.body as Static<typeof SecretBody>;
      return wrap.value({ secret: await endpoints.rotate(pathId(request, 'webhook_id'), secret, actor, as) });
    },
  });

  declare(app, side, {
    method: 'POST',
    url: '/webhooks/:webhook_id/enable',
    summary: 'Enable a webhook endpoint again after gatehouse disabled it',
    status: 200,
    answer: wrap.schema(Endpoint),
    handle: async (request, { actor, as }) =>
      wrap.value(presentEndpoint(await endpoints.enable(pathId(request, 'webhook_id'), actor, as))),
  });

  webhookLogRoutes(app, services, side);
}
