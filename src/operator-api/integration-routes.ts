import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Compatibility, CompatibilityBody, Integration } from '../http/integration-wire.js';
import { presentCompatibility, presentIntegration } from '../presenters/integration.js';
import type { Services } from '../services/index.js';
import { actorOfRequest } from './authenticate.js';
import { IdString, operatorErrorResponses } from './schemas.js';

const PartnerParams = Type.Object({ partner_id: IdString });

/** A partner's compatibility profile, and its integration as its keys see it (docs/contract.md). */
export const integrationRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (
  app,
  { services },
) => {
  app.get(
    '/partners/:partner_id/compatibility',
    {
      schema: {
        summary: "A partner's compatibility profile",
        params: PartnerParams,
        response: { 200: Compatibility, ...operatorErrorResponses },
      },
    },
    async (request) => {
      const id = Number(request.params.partner_id);
      return presentCompatibility(id, await services.compatibility.get(id));
    },
  );

  app.put(
    '/partners/:partner_id/compatibility',
    {
      schema: {
        summary: "Set a partner's compatibility profile (an option left out is the spec's answer)",
        params: PartnerParams,
        body: CompatibilityBody,
        response: { 200: Compatibility, ...operatorErrorResponses },
      },
    },
    async (request) => {
      const id = Number(request.params.partner_id);
      const { cancelled_spelling: cancelledSpelling, gym_from_key: gymFromKey } = request.body;
      const profile = await services.compatibility.set(
        id,
        { cancelledSpelling, gymFromKey },
        actorOfRequest(request),
      );
      return presentCompatibility(id, profile);
    },
  );

  app.get(
    '/partners/:partner_id/integration',
    {
      schema: {
        summary:
          "A partner's integration: gyms, rate limit, compatibility profile, webhook endpoints' health",
        params: PartnerParams,
        response: { 200: Integration, ...operatorErrorResponses },
      },
    },
    async (request) =>
      presentIntegration(await services.integration.check(Number(request.params.partner_id))),
  );
};
