import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { successEnvelope } from '../http/envelope.js';
import {
  CreatedEndpoint,
  Endpoint,
  EndpointBody,
  EndpointPatch,
  NewSecret,
  SecretBody,
  endpointInput,
  presentEndpoint,
} from '../http/webhook-wire.js';
import type { Services } from '../services/index.js';
import { ErrorEnvelopeSchema, PartnerHeaders, partnerErrorResponses } from './schemas.js';
import { Envelope, WebhookParams, config, manager } from './webhook-route-parts.js';

/** /access/v1/webhooks: the partner registers, changes, rotates and removes its webhooks, and reads their log. */
export const webhookRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { endpoints } = services.webhooks;

  app.post(
    '/webhooks',
    {
      schema: {
        summary: 'Register a webhook endpoint (the signing secret is shown once)',
        headers: PartnerHeaders,
        body: EndpointBody,
        // 409 `webhook.limit`: the partner has its quota of endpoints (README, "Webhooks").
        response: { 201: Envelope(CreatedEndpoint), ...partnerErrorResponses, 409: ErrorEnvelopeSchema },
      },
      config,
    },
    async (request, reply) => {
      const { actor, as } = manager(request);
      const { body } = request;
      const created = await endpoints.create(
        as.kind === 'partner' ? as.partnerId : 0,
        {
          ...endpointInput(body),
          url: body.url,
          ...(body.format === undefined ? {} : { format: body.format }),
          ...(body.secret === undefined ? {} : { secret: body.secret }),
        },
        actor,
        as,
      );
      return reply
        .code(201)
        .send(successEnvelope({ ...presentEndpoint(created.endpoint), secret: created.secret }));
    },
  );

  app.get(
    '/webhooks',
    {
      schema: {
        summary: 'List the webhook endpoints this key may manage',
        headers: PartnerHeaders,
        response: { 200: Envelope(Type.Array(Endpoint)), ...partnerErrorResponses },
      },
      config,
    },
    async (request) => {
      const { as } = manager(request);
      const page = await endpoints.list(
        as.kind === 'partner' ? as.partnerId : 0,
        { afterId: 0, limit: 1000 },
        as,
      );
      return successEnvelope(page.items.map(presentEndpoint), page.items.length);
    },
  );

  app.get(
    '/webhooks/:webhook_id',
    {
      schema: {
        summary: 'Read a webhook endpoint',
        headers: PartnerHeaders,
        params: WebhookParams,
        response: { 200: Envelope(Endpoint), ...partnerErrorResponses },
      },
      config,
    },
    async (request) =>
      successEnvelope(
        presentEndpoint(await endpoints.get(Number(request.params.webhook_id), manager(request).as)),
      ),
  );

  app.patch(
    '/webhooks/:webhook_id',
    {
      schema: {
        summary: 'Change a webhook endpoint',
        headers: PartnerHeaders,
        params: WebhookParams,
        body: EndpointPatch,
        response: { 200: Envelope(Endpoint), ...partnerErrorResponses },
      },
      config,
    },
    async (request) => {
      const { actor, as } = manager(request);
      const id = Number(request.params.webhook_id);
      return successEnvelope(
        presentEndpoint(await endpoints.update(id, endpointInput(request.body), actor, as)),
      );
    },
  );

  app.delete(
    '/webhooks/:webhook_id',
    {
      schema: {
        summary: 'Remove a webhook endpoint',
        headers: PartnerHeaders,
        params: WebhookParams,
        response: { 204: Type.Null({ description: 'Removed' }), ...partnerErrorResponses },
      },
      config,
    },
    async (request, reply) => {
      const { actor, as } = manager(request);
      await endpoints.remove(Number(request.params.webhook_id), actor, as);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/webhooks/:webhook_id/secret',
    {
      schema: {
        summary: 'Rotate the signing secret (the old one signs beside it for 24 hours)',
        headers: PartnerHeaders,
        params: WebhookParams,
        body: SecretBody,
        response: { 201: Envelope(NewSecret), ...partnerErrorResponses },
      },
      config,
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      const { actor, as } = manager(request);
      const secret = await endpoints.rotate(
        Number(request.params.webhook_id),
        request.body.secret,
        actor,
        as,
      );
      return reply.code(201).send(successEnvelope({ secret }));
    },
  );
};
