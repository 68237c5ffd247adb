import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type TSchema } from 'typebox';
import { successEnvelope } from '../http/envelope.js';
import { webhookRoutes as sharedWebhookRoutes } from '../http/webhook-routes.js';
import type { Listing } from '../http/webhook-side.js';
import { pageRequest } from '../domain/pagination.js';
import type { Services } from '../services/index.js';
import { principalOf } from './authenticate.js';
import { ErrorEnvelopeSchema, PartnerHeaders, partnerErrorResponses } from './schemas.js';

const Metadata = Type.Object({ total: Type.Integer(), errors: Type.Literal(0) });
const Envelope = (results: TSchema) => Type.Object({ metadata: Metadata, results });

/** Every endpoint the key may manage, in one answer: a partner has at most its quota of them. */
const allEndpoints: Listing = {
  schema: (item) => Envelope(Type.Array(item)),
  page: () => ({ afterId: 0, limit: 1000 }),
  answer: (page, present) => successEnvelope(page.items.map(present), page.items.length),
};

/** The delivery log a page at a time, in the envelope with the cursor beside it. */
const deliveryPages: Listing = {
  query: {
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$' })),
    cursor: Type.Optional(Type.String({ maxLength: 200 })),
  },
  schema: (item) =>
    Type.Object({
      metadata: Metadata,
      results: Type.Array(item),
      next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as cursor for more' }),
    }),
  page: (request) => pageRequest(request.query as { limit?: string; cursor?: string }),
  answer: (page, present) => ({
    ...successEnvelope(page.items.map(present), page.items.length),
    next_cursor: page.nextCursor,
  }),
};

/**
 * /access/v1/webhooks: the partner registers, changes, rotates and removes its webhooks, reads their log and sends
 * test events, with its own key; a key limited to some gyms manages only endpoints within them.
 */
export const webhookRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  sharedWebhookRoutes(app, services, {
    collection: '/webhooks',
    retry: '/webhooks/:webhook_id/deliveries/:delivery_id/retry',
    pathId: Type.String({ pattern: '^[1-9][0-9]{0,15}$', description: 'A positive integer' }),
    headers: PartnerHeaders,
    errors: partnerErrorResponses,
    // 409 `webhook.limit`: the partner has its quota of endpoints (README, "Webhooks").
    createErrors: { 409: ErrorEnvelopeSchema },
    config: { unexpectedErrorKey: 'webhook.unexpected-error' },
    wrap: { schema: Envelope, value: (results) => successEnvelope(results) },
    endpointList: allEndpoints,
    deliveryList: deliveryPages,
    listSummary: 'List the webhook endpoints this key may manage',
    caller: (request) => {
      const { key, actor } = principalOf(request);
      return {
        partnerId: key.partnerId,
        actor,
        as: { kind: 'partner', partnerId: key.partnerId, gymIds: key.gymIds },
      };
    },
  });
};
