import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { parseInstant } from '../domain/instant.js';
import { pageRequest } from '../domain/pagination.js';
import { formatValidatedAt } from '../domain/time-format.js';
import type { Services } from '../services/index.js';
import { principalOf } from './authenticate.js';
import { PartnerHeaders, TransactionsPage, TransactionsQuery, partnerErrorResponses } from './schemas.js';

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
        querystring: TransactionsQuery,
        response: {
          200: TransactionsPage,
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
