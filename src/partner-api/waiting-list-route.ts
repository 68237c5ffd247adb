import type { RouteGroup } from '../http/route-group.js';
import { Type } from 'typebox';
import { PAGE_LIMIT_PATTERN } from '../domain/identifiers.js';
import { pageRequest } from '../domain/pagination.js';
import { formatValidatedAt } from '../domain/time-format.js';
import { principalOf } from './authenticate.js';
import { PartnerHeaders, partnerErrorResponses } from './schemas.js';

const Timestamp = Type.String({ description: 'YYYY-MM-DDThh:mm:ssZ' });

export const WaitingList = Type.Object({
  metadata: Type.Object({ total: Type.Integer(), errors: Type.Literal(0) }),
  results: Type.Array(
    Type.Object({
      id: Type.Integer({ description: 'The check-in' }),
      platform_id: Type.String(),
      product: Type.Object({ Id: Type.Integer(), description: Type.String() }),
      status: Type.Literal('pending'),
      checked_in_at: Timestamp,
      expires_at: Timestamp,
      member: Type.Optional(
        Type.Object(
          {
            first_name: Type.Optional(Type.String()),
            last_name: Type.Optional(Type.String()),
            email: Type.Optional(Type.String()),
            phone_number: Type.Optional(Type.String()),
          },
          {
            description:
              'What the member app sent of the member (as the webhooks carry it); absent when nothing',
          },
        ),
      ),
    }),
  ),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
});

/**
 * GET /access/v1/checkins?status=pending (an addition to the spec): the members who checked in at the calling gym
 * and wait to be validated, oldest first, for a front desk without a club-management system of its own.
 */
export const waitingListRoute: RouteGroup = async (app, { services }) => {
  app.get(
    '/checkins',
    {
      schema: {
        summary: 'Members waiting at the gym: check-ins not yet validated',
        headers: PartnerHeaders,
        querystring: Type.Object({
          status: Type.Optional(
            Type.Literal('pending', { description: 'The only status listed; the default' }),
          ),
          limit: Type.Optional(
            Type.String({ pattern: PAGE_LIMIT_PATTERN, description: '1 to 1000, default 100' }),
          ),
          cursor: Type.Optional(
            Type.String({ maxLength: 200, description: 'next_cursor of the previous page' }),
          ),
        }),
        response: { 200: WaitingList, ...partnerErrorResponses },
      },
    },
    async (request) => {
      const { gymId } = principalOf(request);
      const page = await services.checkins.waiting(gymId, pageRequest(request.query));
      return {
        metadata: { total: page.items.length, errors: 0 as const },
        results: page.items.map((checkin) => ({
          id: checkin.id,
          platform_id: checkin.platformId,
          product: { Id: checkin.productId, description: checkin.productDescription },
          status: 'pending' as const,
          checked_in_at: formatValidatedAt(checkin.checkedInAt),
          expires_at: formatValidatedAt(checkin.expiresAt),
          ...(checkin.member === undefined ? {} : { member: checkin.member }),
        })),
        next_cursor: page.nextCursor,
      };
    },
  );
};
