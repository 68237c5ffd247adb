import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../services/index.js';
import { authenticatePartner } from './authenticate.js';
import { customCodeRoutes } from './custom-code-routes.js';
import { transactionsRoute } from './transactions-route.js';
import { validateRoute } from './validate-route.js';

/** The partner API, `/access/v1`: every route behind the key, gym and scope checks. */
export const partnerApi: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.decorateRequest('partner', null);
  app.addHook('onRequest', authenticatePartner(services.apiKeys));
  await app.register(validateRoute, { services });
  await app.register(customCodeRoutes, { services });
  await app.register(transactionsRoute, { services });
};
