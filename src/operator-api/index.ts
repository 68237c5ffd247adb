import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../services/index.js';
import { authenticateOperator } from './authenticate.js';
import { catalogRoutes } from './catalog-routes.js';
import { checkinRoutes } from './checkin-routes.js';
import { eventRoutes } from './event-routes.js';
import { keyRoutes } from './key-routes.js';
import { ledgerRoutes } from './ledger-routes.js';
import { lookupRoutes } from './lookup-routes.js';

/** The operator API, `/admin/v1` (product.md §4), over the same services as the partner API. */
export const operatorApi: FastifyPluginAsyncTypebox<{
  services: Services;
  adminToken: string | undefined;
}> = async (app, { services, adminToken }) => {
  app.addHook('onRequest', authenticateOperator(adminToken));
  await app.register(catalogRoutes, { services });
  await app.register(keyRoutes, { services });
  await app.register(checkinRoutes, { services });
  await app.register(ledgerRoutes, { services });
  await app.register(lookupRoutes, { services });
  await app.register(eventRoutes, { services });
};
