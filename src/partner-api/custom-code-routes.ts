import type { RouteGroup } from '../http/route-group.js';
import { Type } from 'typebox';
import { formatInstant } from '../domain/time-format.js';
import { successEnvelope } from '../http/envelope.js';
import { principalOf } from './authenticate.js';
import {
  CustomCodeBody,
  CustomCodeResult,
  EmptyResult,
  ErrorEnvelopeSchema,
  PartnerHeaders,
  PlatformIdParams,
  partnerErrorResponses,
} from './schemas.js';

const config = { unexpectedErrorKey: 'checkin.custom-code.unexpected-error' };

/** /access/v1/code/:platform_id: create, replace, delete, and the read gatehouse adds (docs/contract.md). */
export const customCodeRoutes: RouteGroup = async (app, { services }) => {
  const codes = services.customCodes;

  app.post(
    '/code/:platform_id',
    {
      schema: {
        summary: 'Create the custom code of a member at the gym',
        headers: PartnerHeaders,
        params: PlatformIdParams,
        body: CustomCodeBody,
        // A second create is a 409: POST never replaces a code, PUT does.
        response: { 201: EmptyResult, ...partnerErrorResponses, 409: ErrorEnvelopeSchema },
      },
      config,
    },
    async (request, reply) => {
      const { gymId, actor } = principalOf(request);
      await codes.create({ gymId, platformId: request.params.platform_id }, request.body.custom_code, actor);
      return reply.code(201).send(successEnvelope({}));
    },
  );

  app.put(
    '/code/:platform_id',
    {
      schema: {
        summary: 'Replace the custom code of a member at the gym',
        headers: PartnerHeaders,
        params: PlatformIdParams,
        body: CustomCodeBody,
        response: { 200: EmptyResult, ...partnerErrorResponses },
      },
      config,
    },
    async (request) => {
      const { gymId, actor } = principalOf(request);
      await codes.update({ gymId, platformId: request.params.platform_id }, request.body.custom_code, actor);
      return successEnvelope({});
    },
  );

  app.delete(
    '/code/:platform_id',
    {
      schema: {
        summary: 'Delete the custom code of a member at the gym',
        headers: PartnerHeaders,
        params: PlatformIdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...partnerErrorResponses },
      },
      config,
    },
    async (request, reply) => {
      const { gymId, actor } = principalOf(request);
      await codes.remove({ gymId, platformId: request.params.platform_id }, actor);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/code/:platform_id',
    {
      schema: {
        summary: 'Read the custom code of a member at the gym',
        headers: PartnerHeaders,
        params: PlatformIdParams,
        response: { 200: CustomCodeResult, ...partnerErrorResponses },
      },
      config,
    },
    async (request) => {
      const { gymId } = principalOf(request);
      const code = await codes.get({ gymId, platformId: request.params.platform_id });
      return successEnvelope({
        platform_id: code.platformId,
        custom_code: code.code,
        updated_at: formatInstant(code.updatedAt),
      });
    },
  );
};
