import type { RouteGroup } from '../http/route-group.js';
import { Type } from 'typebox';
import { parseInstant } from '../domain/instant.js';
import { pageRequest } from '../domain/pagination.js';
import { sendCsv } from '../http/csv.js';
import {
  PRICING_COLUMNS,
  presentSettledEntry,
  presentSettlement,
  presentSettlementRow,
  withFlatPricing,
} from '../presenters/records.js';
import { given } from '../domain/given.js';
import { createRoute, recordChangeRoute } from './record-routes.js';
import { Format, Transaction } from './ledger-routes.js';
import { PricingSchema, RulePricingSchema } from '../http/schemas.js';
import {
  Id,
  IdString,
  ListOf,
  OperatorText,
  OrderQuery,
  PageQuery,
  operatorErrorResponses,
} from './schemas.js';
import { TEXT_LIMITS } from '../domain/operator-text.js';

const Instant = Type.String({ description: 'ISO-8601 UTC with milliseconds' });
const SettlementFields = {
  id: Id,
  partner_id: Id,
  currency: Type.String(),
  period_start: Instant,
  period_end: Type.String({ description: 'exclusive' }),
  status: Type.Union([Type.Literal('closed'), Type.Literal('paid')]),
  total_cents: Type.Integer({ description: "every entry's amount, reversals included" }),
  count: Type.Integer({ description: 'entries: visits and reversals' }),
};
const SettlementTail = {
  paid_at: Type.Union([Instant, Type.Null()]),
  reference: Type.Union([Type.String(), Type.Null()], { description: "the payment's reference" }),
  created_by: Type.String(),
  created_at: Instant,
};
export const Settlement = Type.Object({
  ...SettlementFields,
  lines: Type.Array(
    Type.Object({
      gym_id: Id,
      count: Type.Integer(),
      total_cents: Type.Integer(),
      pricing: RulePricingSchema,
    }),
  ),
  ...SettlementTail,
});
export const SettlementRow = Type.Object({ ...SettlementFields, ...SettlementTail });
/** An entry a settlement holds: late when it was taken by the close after its own period (its own date kept). */
const Late = Type.Boolean({
  description: 'effective before the period: it committed after its own period was closed',
});
/** An entry a settlement holds, as its CSV export's columns (and the CLI's) show it. */
export const SettledEntry = Type.Object({ ...Transaction.properties, late: Late });
/** The same in JSON, with how it was priced. */
const PricedSettledEntry = Type.Object({ ...Transaction.properties, pricing: PricingSchema, late: Late });
const Period = Type.String({ description: 'ISO-8601 date or date-time, UTC unless an offset is given' });

/** Settlements: closed periods per partner·currency, the entries behind each, and their payment. */
export const settlementRoutes: RouteGroup = async (app, { services }) => {
  const { settlements } = services;

  createRoute(app, {
    url: '/settlements',
    summary: 'Close a period for every partner (or one): one settlement per partner·currency',
    body: Type.Object({ period_start: Period, period_end: Period, partner_id: Type.Optional(Id) }),
    created: ListOf(Settlement),
    create: async ({ period_start: start, period_end: end, partner_id: partnerId }, actor) => {
      const period = { start: parseInstant('period_start', start), end: parseInstant('period_end', end) };
      const closed = await settlements.close(given({ period, partnerId }), actor);
      return { items: closed.map(presentSettlement), next_cursor: null };
    },
  });

  app.get(
    '/settlements',
    {
      schema: {
        summary: 'List settlements (format=csv: one row each, without lines)',
        querystring: Type.Object({
          partner_id: Type.Optional(IdString),
          status: Type.Optional(
            Type.Union([Type.Literal('closed'), Type.Literal('paid')], { examples: ['paid'] }),
          ),
          format: Format,
          ...OrderQuery,
          ...PageQuery,
        }),
        response: { 200: ListOf(Settlement), ...operatorErrorResponses },
      },
    },
    async (request, reply) => {
      const { partner_id: partnerId, status } = request.query;
      const filter = {
        ...(partnerId === undefined ? {} : { partnerId: Number(partnerId) }),
        ...(status === undefined ? {} : { status }),
      };
      if (request.query.format === 'csv') {
        const all = await settlements.list(filter, { afterId: 0, limit: 100_000 });
        const columns = Object.keys(SettlementRow.properties);
        return sendCsv(reply, 'settlements.csv', columns, all.items, presentSettlementRow);
      }
      const page = await settlements.list(filter, pageRequest(request.query));
      return { items: page.items.map(presentSettlement), next_cursor: page.nextCursor };
    },
  );

  recordChangeRoute(app, {
    url: '/settlements/:settlement_id/paid',
    summary: 'Mark a settlement paid, with the payment’s reference',
    body: Type.Object({ reference: OperatorText(TEXT_LIMITS.reference) }),
    record: Settlement,
    change: async (id, actor, body) => presentSettlement(await settlements.pay(id, body.reference, actor)),
  });

  app.get(
    '/settlements/:settlement_id/entries',
    {
      schema: {
        summary: 'Every ledger entry a settlement holds (format=csv streams them)',
        params: Type.Object({ settlement_id: IdString }),
        querystring: Type.Object({ format: Format }),
        response: { 200: ListOf(PricedSettledEntry), ...operatorErrorResponses },
      },
    },
    async (request, reply) => {
      const entries = await settlements.entries(Number(request.params.settlement_id));
      if (request.query.format === 'csv') {
        const columns = [...Object.keys(SettledEntry.properties), ...PRICING_COLUMNS];
        return sendCsv(reply, 'settlement-entries.csv', columns, entries, (entry) =>
          withFlatPricing(presentSettledEntry(entry)),
        );
      }
      return { items: entries.map(presentSettledEntry), next_cursor: null };
    },
  );
};
