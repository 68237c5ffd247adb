import type { RouteGroup } from '../http/route-group.js';
import { Type } from 'typebox';
import { EntityNotFoundError } from '../domain/errors.js';
import { PAGE_LIMIT_PATTERN, POSITIVE_INT_PATTERN } from '../domain/identifiers.js';
import { pageRequest } from '../domain/pagination.js';
import { presentGymSettledEntry, presentPartnerSettlement } from '../presenters/records.js';
import { principalOf } from './authenticate.js';
import { GymTransaction, Metadata, PartnerHeaders, partnerErrorResponses } from './schemas.js';
import { RulePricingSchema } from '../http/schemas.js';

const PartnerSettlement = Type.Object({
  id: Type.Integer(),
  currency: Type.String(),
  period_start: Type.String(),
  period_end: Type.String({ description: 'exclusive' }),
  status: Type.Union([Type.Literal('closed'), Type.Literal('paid')]),
  total_cents: Type.Integer(),
  count: Type.Integer(),
  lines: Type.Array(
    Type.Object({
      gym_id: Type.Integer(),
      count: Type.Integer(),
      total_cents: Type.Integer(),
      pricing: RulePricingSchema,
    }),
  ),
  paid_at: Type.Union([Type.String(), Type.Null()]),
  reference: Type.Union([Type.String(), Type.Null()]),
});
const SettledGymEntry = Type.Object({
  ...GymTransaction.properties,
  late: Type.Boolean({
    description: 'effective before the period: it committed after its own period was closed',
  }),
});
/**
 * GET /access/v1/settlements and /:id/entries (gatehouse additions): the partner's own settlements, with the
 * lines and entries of the gyms its key may see.
 */
export const settlementRoutes: RouteGroup = async (app, { services }) => {
  app.get(
    '/settlements',
    {
      schema: {
        summary: "The partner's settlements: closed periods and what each paid",
        headers: PartnerHeaders,
        querystring: Type.Object({
          limit: Type.Optional(Type.String({ pattern: PAGE_LIMIT_PATTERN })),
          cursor: Type.Optional(Type.String({ maxLength: 200 })),
        }),
        response: {
          200: Type.Object({
            metadata: Metadata,
            results: Type.Array(PartnerSettlement),
            next_cursor: Type.Union([Type.String(), Type.Null()]),
          }),
          ...partnerErrorResponses,
        },
      },
    },
    async (request) => {
      const { key } = principalOf(request);
      const page = await services.settlements.list(
        { partnerId: key.partnerId },
        pageRequest(request.query),
        key.gymIds ?? undefined,
      );
      return {
        metadata: { total: page.items.length, errors: 0 as const },
        results: page.items.map(presentPartnerSettlement),
        next_cursor: page.nextCursor,
      };
    },
  );

  app.get(
    '/settlements/:settlement_id/entries',
    {
      schema: {
        summary: 'Every entry behind one of the partner’s settlements (of the gyms the key may see)',
        headers: PartnerHeaders,
        params: Type.Object({ settlement_id: Type.String({ pattern: POSITIVE_INT_PATTERN }) }),
        response: {
          200: Type.Object({ metadata: Metadata, results: Type.Array(SettledGymEntry) }),
          ...partnerErrorResponses,
        },
      },
    },
    async (request) => {
      const { key } = principalOf(request);
      const id = Number(request.params.settlement_id);
      const settlement = await services.settlements.get(id);
      if (settlement.partnerId !== key.partnerId) throw new EntityNotFoundError('settlement');
      const entries = await services.settlements.entries(id, key.gymIds ?? undefined);
      return {
        metadata: { total: entries.length, errors: 0 as const },
        results: entries.map(presentGymSettledEntry),
      };
    },
  );
};
