import type { RouteGroup } from '../http/route-group.js';
import { Type } from 'typebox';
import { successEnvelope } from '../http/envelope.js';
import { Integration } from '../http/integration-wire.js';
import { presentIntegration } from '../presenters/integration.js';
import { principalOf } from './authenticate.js';
import { Metadata, PartnerHeaders, partnerErrorResponses } from './schemas.js';

/**
 * GET /access/v1/integration: what the key is set up for — its partner (live or sandbox), the gyms it may act on,
 * its rate limit, its compatibility profile, its webhook endpoints' health. X-Gym-Id is optional here: a fresh key
 * asks which gyms it reaches before it names one.
 */
export const integrationRoute: RouteGroup = async (app, { services }) => {
  app.get(
    '/integration',
    {
      schema: {
        summary: 'Check this key’s integration: partner, gyms, rate limit, compatibility, webhooks’ health',
        headers: PartnerHeaders,
        response: {
          200: Type.Object({ metadata: Metadata, results: Integration }),
          ...partnerErrorResponses,
        },
      },
      config: { gymOptional: true },
    },
    async (request) => {
      const { key } = principalOf(request);
      return successEnvelope(presentIntegration(await services.integration.check(key.partnerId, key)));
    },
  );
};
