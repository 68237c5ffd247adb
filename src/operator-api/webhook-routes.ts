import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { pageRequest } from '../domain/pagination.js';
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
import { presentPage } from '../presenters/records.js';
import { IdString, ListOf, PageQuery, operatorErrorResponses } from './schemas.js';

const WebhookParams = Type.Object({ webhook_id: IdString });

/** Webhook endpoints of partners and their delivery log (README, "Webhooks"). */
export const webhookRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { endpoints } = services.webhooks;

  app.post(
    '/partners/:partner_id/webhooks',
    {
      schema: {
        summary: 'Register a webhook endpoint for a partner (the signing secret is shown once)',
        params: Type.Object({ partner_id: IdString }),
        body: EndpointBody,
        response: { 201: CreatedEndpoint, ...operatorErrorResponses },
      },
    },
    async (request, reply) => {
      const { body } = request;
      const created = await endpoints.create(Number(request.params.partner_id), {
        ...endpointInput(body),
        url: body.url,
        ...(body.format === undefined ? {} : { format: body.format }),
        ...(body.secret === undefined ? {} : { secret: body.secret }),
      });
      return reply.code(201).send({ ...presentEndpoint(created.endpoint), secret: created.secret });
    },
  );

  app.get(
    '/partners/:partner_id/webhooks',
    {
      schema: {
        summary: "List a partner's webhook endpoints (never their secrets)",
        params: Type.Object({ partner_id: IdString }),
        querystring: Type.Object(PageQuery),
        response: { 200: ListOf(Endpoint), ...operatorErrorResponses },
      },
    },
    async (request) =>
      presentPage(
        await endpoints.list(Number(request.params.partner_id), pageRequest(request.query)),
        presentEndpoint,
      ),
  );

  app.get(
    '/webhooks/:webhook_id',
    {
      schema: {
        summary: 'Read a webhook endpoint',
        params: WebhookParams,
        response: { 200: Endpoint, ...operatorErrorResponses },
      },
    },
    async (request) => presentEndpoint(await endpoints.get(Number(request.params.webhook_id))),
  );

  app.patch(
    '/webhooks/:webhook_id',
    {
      schema: {
        summary: 'Change a webhook endpoint’s URL, event types, gyms or timeout',
        params: WebhookParams,
        body: EndpointPatch,
        response: { 200: Endpoint, ...operatorErrorResponses },
      },
    },
    async (request) =>
      presentEndpoint(await endpoints.update(Number(request.params.webhook_id), endpointInput(request.body))),
  );

  app.delete(
    '/webhooks/:webhook_id',
    {
      schema: {
        summary: 'Remove a webhook endpoint and its delivery log',
        params: WebhookParams,
        response: { 204: Type.Null({ description: 'Removed' }), ...operatorErrorResponses },
      },
    },
    async (request, reply) => {
      await endpoints.remove(Number(request.params.webhook_id));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/webhooks/:webhook_id/secret',
    {
      schema: {
        summary: 'Rotate the signing secret: the old one keeps signing beside the new one for 24 hours',
        params: WebhookParams,
        body: SecretBody,
        response: { 201: NewSecret, ...operatorErrorResponses },
      },
      // No body at all asks for a generated secret.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      const secret = await endpoints.rotate(Number(request.params.webhook_id), request.body.secret);
      return reply.code(201).send({ secret });
    },
  );

  app.post(
    '/webhooks/:webhook_id/enable',
    {
      schema: {
        summary: 'Enable a webhook endpoint again after gatehouse disabled it',
        params: WebhookParams,
        response: { 200: Endpoint, ...operatorErrorResponses },
      },
    },
    async (request) => presentEndpoint(await endpoints.enable(Number(request.params.webhook_id))),
  );
};
