import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pageRequest, type PageOrder } from '../domain/pagination.js';
import { webhookRoutes as sharedWebhookRoutes } from '../http/webhook-routes.js';
import type { Listing } from '../http/webhook-side.js';
import { OPERATOR_MANAGER } from '../services/webhooks/endpoint-access.js';
import type { Services } from '../services/index.js';
import { presentPage } from '../presenters/records.js';
import { actorOfRequest } from './authenticate.js';
import { IdString, ListOf, OrderQuery, PageQuery, operatorErrorResponses } from './schemas.js';

/** Every list of the operator API: `limit` and `cursor`, `{items, next_cursor}`. */
const pages: Listing = {
  query: PageQuery,
  schema: ListOf,
  page: (request) => pageRequest(request.query as { limit?: string; cursor?: string }),
  answer: presentPage,
};

/** A delivery log reads newest first too (`order=desc`). */
const deliveryPages: Listing = {
  ...pages,
  query: { ...OrderQuery, ...PageQuery },
  page: (request) => pageRequest(request.query as { limit?: string; cursor?: string; order?: PageOrder }),
};

/** Webhook endpoints of partners, their delivery log and test events (README, "Webhooks"). */
export const webhookRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  sharedWebhookRoutes(app, services, {
    collection: '/partners/:partner_id/webhooks',
    retry: '/deliveries/:delivery_id/retry',
    pathId: IdString,
    errors: operatorErrorResponses,
    wrap: { schema: (results) => results, value: (results) => results },
    endpointList: pages,
    deliveryList: deliveryPages,
    listSummary: "List a partner's webhook endpoints (never their secrets)",
    caller: (request) => ({
      partnerId: Number((request.params as { partner_id?: string }).partner_id),
      actor: actorOfRequest(request),
      as: OPERATOR_MANAGER,
    }),
  });
};
