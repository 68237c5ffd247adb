import type { RouteGroup } from '../http/route-group.js';
import { parseInstant } from '../domain/instant.js';
import { decodeFeedCursor, pageLimit } from '../domain/pagination.js';
import { presentGymTransaction } from '../presenters/records.js';
import { principalOf } from './authenticate.js';
import { PartnerHeaders, TransactionsPage, TransactionsQuery, partnerErrorResponses } from './schemas.js';

/**
 * GET /access/v1/transactions (a gatehouse addition): the calling gym's own validated visits and their payouts,
 * in the partner API's envelope. `next_cursor` comes on every page, the last one too: a partner that keeps
 * polling with the last cursor it got sees every transaction exactly once, even those that commit after it has
 * read later ones.
 */
export const transactionsRoute: RouteGroup = async (app, { services }) => {
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
      const { from, to, kind, order, cursor } = request.query;
      const filter = {
        gymId,
        ...(from === undefined ? {} : { from: parseInstant('from', from) }),
        ...(to === undefined ? {} : { to: parseInstant('to', to) }),
        ...(kind === undefined ? {} : { kind }),
      };
      const limit = pageLimit(request.query.limit);
      const page =
        order === 'desc'
          ? await services.ledger.listForGymNewestFirst(filter, cursor, limit)
          : await services.ledger.listForGym(filter, decodeFeedCursor(cursor), limit);
      return {
        metadata: { total: page.items.length, errors: 0 as const },
        results: page.items.map(presentGymTransaction),
        next_cursor: page.nextCursor,
        has_more: page.hasMore,
      };
    },
  );
};
