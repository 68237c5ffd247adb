import type { RouteGroup } from '../http/route-group.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { behindPartnerKeys, principalOf, type GymSource } from './authenticate.js';
import type { PartnerApiOptions } from './index.js';
import {
  WellhubCheckinPayload,
  WellhubGymParams,
  WellhubSimulationBody,
  partnerErrorResponses,
} from './schemas.js';

/** The helper names the gym in its path, as Wellhub's does. */
const GYM_IN_PATH: GymSource = {
  field: 'gym_id',
  read: (request) => (request.params as { gym_id?: string }).gym_id,
};

/**
 * `/helper/v1`: Wellhub's sandbox helper, in its shape, so integration tests written against Wellhub's sandbox run
 * against gatehouse. Behind the same key checks, budgets and refusals as the partner API; sandbox keys only.
 */
export const sandboxHelperApi: FastifyPluginAsyncTypebox<PartnerApiOptions> = async (app, options) => {
  await behindPartnerKeys(app, options, GYM_IN_PATH);
  await app.register(simulateRoute, { services: options.services });
};

const simulateRoute: RouteGroup = async (app, { services }) => {
  app.post(
    '/gyms/:gym_id/simulate/checkins',
    {
      schema: {
        summary: "Simulate a member check-in, as Wellhub's sandbox helper does (sandbox keys only)",
        params: WellhubGymParams,
        body: WellhubSimulationBody,
        response: { 201: WellhubCheckinPayload, ...partnerErrorResponses },
      },
    },
    async (request, reply) => {
      const { gympass_user_id: platformId, product_id: productId } = request.body;
      const payload = await services.sandbox.simulateWellhub(principalOf(request), {
        platformId,
        ...(productId === undefined ? {} : { productId }),
      });
      return reply.code(201).send(payload);
    },
  );
};
