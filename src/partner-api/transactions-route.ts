import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { parseInstant } from '../domain/instant.js';
import { pageRequest } from '../domain/pagination.js';
import { formatValidatedAt } from '../domain/time-format.js';
import type { Services } from '../services/index.js';
import { principalOf } from './authenticate.js';
import { PartnerHeaders, partnerErrorResponses } from './schemas.js';

const GymTransaction = Type.Object({
  id: Type.Integer(),
  checkin_id: Type.Integer(),
  platform_id: Type.String(),
  product: Type.Object({ Id: Type.Integer(), description: Type.String() }),
  payout_cents: Type.Integer(),
  currency: Type.String(),
  validated_at: Type.String({ description: 'YYYY-MM-DDThh:mm:ssZ' }),
});

/**
 * GET /access/v1/transactions (product.md §2.13, an addition to the spec): the calling gym's own validated
 * visits and their payouts, in the spec's envelope, cursor-paginated.
 */
export const transactionsRoute: FastifyPluginAsyncTypebox<{ services: Services }> = async (
  app,
  { services },
) => {
  app.get(
    '/transactions',
    {
      schema: {
        summary: "The gym's validated visits and payouts",
        headers: PartnerHeaders,
        querystring: Type.Object({
          from: Type.Optional(Type.String({ description: 'inclusive; ISO-8601, UTC by default' })),
          to: Type.Optional(Type.String({ description: 'exclusive' })),
          limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$' })),
          cursor: Type.Optional(Type.String({ maxLength: 200 })),
        }),
        response: {
          200: Type.Object({
            metadata: Type.Object({ total: Type.Integer(), errors: Type.Literal(0) }),
            results: Type.Array(GymTransaction),
            next_cursor: Type.Union([Type.String(), Type.Null()]),
          }),
          ...partnerErrorResponses,
        },
      },
    },
    async (request) => {
      const { gymId } = principalOf(request);
      const { from, to } = request.query;
      const page = await services.ledger.listForGym(
        {
          gymId,
          ...(from === undefined ? {} : { from: parseInstant('from', from) }),
          ...(to === undefined ? {} : { to: parseInstant('to', to) }),
        },
        pageRequest(request.query),
      );
      return {
        metadata: { total: page.items.length, errors: 0 as const },
        results: page.items.map((transaction) => ({
          id: transaction.id,
          checkin_id: transaction.checkinId,
          platform_id: transaction.platformId,
          product: { Id: transaction.productId, description: transaction.productDescription },
          payout_cents: transaction.payoutCents,
          currency: transaction.currency,
          validated_at: formatValidatedAt(transaction.validatedAt),
        })),
        next_cursor: page.nextCursor,
      };
    },
  );
};
