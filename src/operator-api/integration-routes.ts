import type { RouteGroup } from '../http/route-group.js';
import { Type } from 'typebox';
import { Compatibility, CompatibilityBody, Integration } from '../http/integration-wire.js';
import { presentCompatibility, presentIntegration } from '../presenters/integration.js';
import { recordChangeRoute } from './record-routes.js';
import { IdString, operatorErrorResponses } from './schemas.js';

const PartnerParams = Type.Object({ partner_id: IdString });

/** A partner's compatibility profile, and its integration as its keys see it (docs/contract.md). */
export const integrationRoutes: RouteGroup = async (app, { services }) => {
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

  recordChangeRoute(app, {
    method: 'PUT',
    url: '/partners/:partner_id/compatibility',
    summary: "Set a partner's compatibility profile (an option left out is the spec's answer)",
    body: CompatibilityBody,
    record: Compatibility,
    change: async (id, actor, { cancelled_spelling: cancelledSpelling, gym_from_key: gymFromKey }) =>
      presentCompatibility(
        id,
        await services.compatibility.set(id, { cancelledSpelling, gymFromKey }, actor),
      ),
  });

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
