import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Redis } from 'ioredis';
import type { Config } from '../config/index.js';
import type { Services } from '../services/index.js';
import { behindPartnerKeys } from './authenticate.js';
import { customCodeRoutes } from './custom-code-routes.js';
import { eventStreamRoute } from './event-stream-route.js';
import { integrationRoute } from './integration-route.js';
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
export const partnerApi: FastifyPluginAsyncTypebox<PartnerApiOptions> = async (app, options) => {
  await behindPartnerKeys(app, options);
  const { services } = options;
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
