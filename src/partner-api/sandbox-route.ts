import type { RouteGroup } from '../http/route-group.js';
import { parseInstant } from '../domain/instant.js';
import { assertIdsAgree, resolveMember } from '../domain/member-id.js';
import { successEnvelope } from '../http/envelope.js';
import { presentCheckin } from '../presenters/records.js';
import { principalOf } from './authenticate.js';
import {
  PartnerHeaders,
  SandboxCheckinBody,
  SandboxCheckinResult,
  partnerErrorResponses,
} from './schemas.js';

/** POST /access/v1/sandbox/checkins: a sandbox key simulates a member checking in at the gym (README, "The sandbox"). */
export const sandboxRoute: RouteGroup = async (app, { services }) => {
  app.post(
    '/sandbox/checkins',
    {
      schema: {
        summary: 'Simulate a member check-in at the gym (sandbox keys only)',
        headers: PartnerHeaders,
        body: SandboxCheckinBody,
        response: { 201: SandboxCheckinResult, ...partnerErrorResponses },
      },
      preValidation: async (request) => assertIdsAgree(request.body),
    },
    async (request, reply) => {
      const { product_id: productId, member, checked_in_at: at } = request.body;
      const checkin = await services.sandbox.checkIn(principalOf(request), {
        platformId: resolveMember(request.body).platformId,
        ...(productId === undefined ? {} : { productId }),
        ...(member === undefined ? {} : { member }),
        ...(at === undefined ? {} : { checkedInAt: parseInstant('checked_in_at', at) }),
      });
      return reply.code(201).send(successEnvelope(presentCheckin(checkin, services.clock.now())));
    },
  );
};
