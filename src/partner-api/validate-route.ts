import type { RouteGroup } from '../http/route-group.js';
import { assertIdsAgree, resolveMember } from '../domain/member-id.js';
import { formatValidatedAt } from '../domain/time-format.js';
import { successEnvelope } from '../http/envelope.js';
import { principalOf } from './authenticate.js';
import { PartnerHeaders, ValidateBody, ValidationResult, partnerErrorResponses } from './schemas.js';

/** POST /access/v1/validate: the member's most recent check-in at the gym becomes a visit. */
export const validateRoute: RouteGroup = async (app, { services }) => {
  app.post(
    '/validate',
    {
      schema: {
        summary: "Validate a member's check-in at the gym",
        headers: PartnerHeaders,
        body: ValidateBody,
        response: { 200: ValidationResult, ...partnerErrorResponses },
      },
      config: { unexpectedErrorKey: 'checkin.validation.unexpected-error' },
      // The alias conflict is a platform_id error, and platform_id errors come before custom_code ones.
      preValidation: (request, _reply, done) => {
        assertIdsAgree(request.body);
        done();
      },
    },
    async (request) => {
      const { gymId, actor, compatibility } = principalOf(request);
      const member = resolveMember(request.body);
      const validation = await services.validation.validate({
        gymId,
        platformId: member.platformId,
        customCode: request.body.custom_code ?? undefined,
        actor,
        cancelledSpelling: compatibility.cancelledSpelling,
      });
      return successEnvelope({
        user: member.echo,
        gym: { Id: gymId, product: { Id: validation.productId, description: validation.productDescription } },
        validated_at: formatValidatedAt(validation.validatedAt),
      });
    },
  );
};
