import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Redis } from 'ioredis';
import type { Config } from '../config/index.js';
import type { Services } from '../services/index.js';
import { authenticatePartner } from './authenticate.js';
import { customCodeRoutes } from './custom-code-routes.js';
import { eventStreamRoute } from './event-stream-route.js';
import { integrationRoute } from './integration-route.js';
import { createPartnerRateLimits } from './rate-limits.js';
import { settlementRoutes } from './settlement-routes.js';
import { sandboxRoute } from './sandbox-route.js';
import { transactionsRoute } from './transactions-route.js';
import { validateRoute } from './validate-route.js';
import { webhookRoutes } from './webhook-routes.js';
import { waitingListRoute } from './waiting-list-route.js';

export interface PartnerApiOptions {
  readonly services: Services;
  readonly config: Pick<Config, 'rateLimitPerSecond' | 'authFailureLimitPerMinute'>;
  readonly redis: Redis | undefined;
}

/** The partner API, `/access/v1`: every route behind the rate limits and the key, gym and scope checks. */
export const partnerApi: FastifyPluginAsyncTypebox<PartnerApiOptions> = async (
  app,
  { services, config, redis },
) => {
  app.decorateRequest('partner', null);
  const limits = await createPartnerRateLimits(app, config, redis);
  app.addHook('onRequest', authenticatePartner(services.apiKeys, limits));
  await app.register(validateRoute, { services });
  await app.register(customCodeRoutes, { services });
  await app.register(transactionsRoute, { services });
  await app.register(settlementRoutes, { services });
  await app.register(webhookRoutes, { services });
  await app.register(integrationRoute, { services });
  await app.register(waitingListRoute, { services });
  await app.register(eventStreamRoute, { services });
  await app.register(sandboxRoute, { services });
};
