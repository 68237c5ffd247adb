import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Redis } from 'ioredis';
import type { Services } from '../services/index.js';
import { createAuthFailureLimit } from './auth-failure-limit.js';
import { authenticateOperator } from './authenticate.js';
import { catalogChangeRoutes } from './catalog-change-routes.js';
import { catalogRoutes } from './catalog-routes.js';
import { checkinRoutes } from './checkin-routes.js';
import { eventRoutes } from './event-routes.js';
import { eventStreamRoute } from './event-stream-route.js';
import { integrationRoutes } from './integration-routes.js';
import { keyRoutes } from './key-routes.js';
import { ledgerRoutes } from './ledger-routes.js';
import { lookupRoutes } from './lookup-routes.js';
import { memberRoutes } from './member-routes.js';
import { operatorRoutes } from './operator-routes.js';
import { payoutRuleRoutes } from './payout-rule-routes.js';
import { planRoutes } from './plan-routes.js';
import { reversalRoutes } from './reversal-routes.js';
import { settlementRoutes } from './settlement-routes.js';
import { authorizeRole, declarePermissions, type OperatorRoute } from './permissions.js';
import { declareRouteErrors } from './route-errors.js';
import { statsRoutes } from './stats-routes.js';
import { webhookRoutes } from './webhook-routes.js';

/**
 * The operator API, `/admin/v1`, over the same services as the partner API: authenticated, then each route's
 * permission checked against the caller's role, before the body is read.
 */
export const operatorApi: FastifyPluginAsyncTypebox<{
  services: Services;
  adminTokens: readonly string[];
  authFailureLimitPerMinute: number;
  redis?: Redis | undefined;
  /** Filled with every route as it is registered, with its permission. */
  routes?: OperatorRoute[];
}> = async (app, { services, adminTokens, authFailureLimitPerMinute, redis, routes = [] }) => {
  const limit = await createAuthFailureLimit(app, authFailureLimitPerMinute, redis);
  app.decorateRequest('operatorPrincipal', null);
  app.addHook('onRequest', authenticateOperator(adminTokens, services.operators, limit));
  app.addHook('onRequest', authorizeRole);
  declarePermissions(app, routes);
  declareRouteErrors(app);
  await app.register(catalogRoutes, { services });
  await app.register(catalogChangeRoutes, { services });
  await app.register(keyRoutes, { services });
  await app.register(checkinRoutes, { services });
  await app.register(ledgerRoutes, { services });
  await app.register(reversalRoutes, { services });
  await app.register(settlementRoutes, { services });
  await app.register(lookupRoutes, { services });
  await app.register(eventRoutes, { services });
  await app.register(operatorRoutes, { services });
  await app.register(memberRoutes, { services });
  await app.register(webhookRoutes, { services });
  await app.register(integrationRoutes, { services });
  await app.register(planRoutes, { services });
  await app.register(payoutRuleRoutes, { services });
  await app.register(statsRoutes, { services });
  await app.register(eventStreamRoute, { services });
};
