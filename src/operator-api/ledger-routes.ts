import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PLATFORM_ID_PATTERN } from '../domain/identifiers.js';
import { parseInstant } from '../domain/instant.js';
import { pageRequest } from '../domain/pagination.js';
import { sendCsv } from '../http/csv.js';
import { PricingSchema } from '../http/schemas.js';
import type { PayoutLine } from '../domain/entities.js';
import type { Services } from '../services/index.js';
import {
  PRICING_COLUMNS,
  presentListedPayout,
  presentTransaction,
  withFlatPricing,
} from '../presenters/records.js';
import {
  Id,
  IdString,
  ListOf,
  OrderQuery,
  PageQuery,
  operatorErrorResponses,
  sandboxFlag,
  sandboxSwitch,
} from './schemas.js';
import { InputError } from '../domain/errors.js';

export const Transaction = Type.Object({
  id: Id,
  kind: Type.Union([Type.Literal('visit'), Type.Literal('reversal')]),
  checkin_id: Id,
  partner_id: Id,
  gym_id: Id,
  product_id: Id,
  platform_id: Type.String(),
  payout_cents: Type.Integer(),
  currency: Type.String(),
  validated_at: Type.String({ description: 'YYYY-MM-DDThh:mm:ssZ' }),
  effective_at: Type.String({ description: "A visit's validated_at; when a reversal was made" }),
  reverses: Type.Union([Id, Type.Null()], { description: 'The visit a reversal reverses' }),
  reason: Type.Union([Type.String(), Type.Null()]),
});
/** The CSV export's columns: the entry's own, then its pricing flat (list price, rule, version). */
export const TRANSACTION_COLUMNS = [...Object.keys(Transaction.properties), ...PRICING_COLUMNS];
/** A listed transaction, with how it was priced; a sandbox partner's says so. */
export const ListedTransaction = Type.Object({
  ...Transaction.properties,
  pricing: PricingSchema,
  reversed_cents: Type.Optional(
    Type.Integer({
      minimum: 1,
      description:
        'Present on visits with reversals: what they took back so far (equal to payout_cents: wholly reversed)',
    }),
  ),
  sandbox: Type.Optional(
    Type.Boolean({
      description:
        "true on sandbox partners' transactions (sandbox=true); with include_sandbox=true on every row, false on live ones",
    }),
  ),
});
/** With include_sandbox=true (or sandbox=true) the CSV says on each row whether it is a sandbox partner's. */
const SANDBOX_COLUMNS = [...TRANSACTION_COLUMNS, 'sandbox'];
export const Payout = Type.Object({
  partner_id: Id,
  gym_id: Id,
  currency: Type.String(),
  count: Type.Integer({ description: 'visits' }),
  reversals: Type.Integer({ description: 'reversal entries' }),
  payout_cents: Type.Integer({ description: "every entry's amount, reversals included" }),
});
/** A payout line as listed: a sandbox partner's (sandbox=true) says so, never money owed. */
export const ListedPayout = Type.Object({ ...Payout.properties, sandbox: sandboxFlag('payout lines') });
const PAYOUT_COLUMNS = Object.keys(Payout.properties);
export const Format = Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('csv')]));
const Period = {
  partner_id: Type.Optional(IdString),
  gym_id: Type.Optional(IdString),
  from: Type.Optional(Type.String({ description: 'inclusive; ISO-8601 date or date-time, UTC by default' })),
  to: Type.Optional(Type.String({ description: 'exclusive' })),
};

/** A ledger entry's kind, as a filter. */
export const EntryKind = Type.Optional(
  Type.Union([Type.Literal('visit'), Type.Literal('reversal')], {
    description: 'visit: validated visits only; reversal: reversal entries only; absent: both',
  }),
);

/**
 * The operator's lists and payouts: live partners' entries, or with sandbox=true the sandbox's, listed apart; a
 * transactions export asked with include_sandbox=true has both, each row marked.
 */
function periodFilter(query: {
  partner_id?: string;
  gym_id?: string;
  from?: string;
  to?: string;
  sandbox?: 'true' | 'false';
  include_sandbox?: 'true' | 'false';
  platform_id?: string;
  kind?: 'visit' | 'reversal';
}) {
  const both = query.include_sandbox === 'true';
  if (both && query.sandbox === 'true') {
    throw new InputError(
      'include_sandbox',
      'lists live and sandbox entries together: leave out sandbox=true',
    );
  }
  return {
    ...(both ? {} : { sandbox: query.sandbox === 'true' }),
    ...(query.platform_id === undefined ? {} : { platformId: query.platform_id }),
    ...(query.kind === undefined ? {} : { kind: query.kind }),
    ...(query.partner_id === undefined ? {} : { partnerId: Number(query.partner_id) }),
    ...(query.gym_id === undefined ? {} : { gymId: Number(query.gym_id) }),
    ...(query.from === undefined ? {} : { from: parseInstant('from', query.from) }),
    ...(query.to === undefined ? {} : { to: parseInstant('to', query.to) }),
  };
}

/** The ledger: transactions and the payouts they add up to, as JSON or streamed CSV. */
export const ledgerRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { ledger } = services;

  app.get(
    '/transactions',
    {
      schema: {
        summary: 'List transactions (format=csv streams every matching row)',
        querystring: Type.Object({
          ...Period,
          platform_id: Type.Optional(
            Type.String({
              pattern: PLATFORM_ID_PATTERN,
              description: "One member's visits and their reversals",
            }),
          ),
          kind: EntryKind,
          sandbox: sandboxSwitch('transactions'),
          include_sandbox: Type.Optional(
            Type.Union([Type.Literal('true'), Type.Literal('false')], {
              description:
                "true: live and sandbox partners' transactions together, each with its sandbox flag",
            }),
          ),
          format: Format,
          ...OrderQuery,
          ...PageQuery,
        }),
        response: { 200: ListOf(ListedTransaction), ...operatorErrorResponses },
      },
    },
    async (request, reply) => {
      const filter = periodFilter(request.query);
      // The sandbox flag: on every row when both are asked for, on the sandbox's own listing, never otherwise.
      const flag = (entry: { sandbox: boolean }) =>
        filter.sandbox === undefined || entry.sandbox ? { sandbox: entry.sandbox } : {};
      if (request.query.format === 'csv') {
        // The CSV has the flag's column wherever the rows carry it; the sandbox's own listing is named so.
        const flagged = filter.sandbox !== false;
        return sendCsv(
          reply,
          filter.sandbox === true ? 'sandbox-transactions.csv' : 'transactions.csv',
          flagged ? SANDBOX_COLUMNS : TRANSACTION_COLUMNS,
          ledger.exportAll(filter),
          (entry) => ({ ...withFlatPricing(presentTransaction(entry)), ...flag(entry) }),
        );
      }
      const page = await ledger.list(filter, pageRequest(request.query));
      return {
        items: page.items.map((entry) => ({
          ...presentTransaction(entry),
          ...(entry.reversedCents > 0 ? { reversed_cents: entry.reversedCents } : {}),
          ...flag(entry),
        })),
        next_cursor: page.nextCursor,
      };
    },
  );

  app.get(
    '/payouts',
    {
      schema: {
        summary: 'Count and sum of payouts per partner, gym and currency for a period (default: today)',
        description:
          'Without `from` and `to`, today in GATEHOUSE_TIMEZONE, as `gatehouse payouts` does; only `from`: up to the ' +
          "end of today; only `to`: the day that ends there. Sandbox partners' visits are never counted: " +
          '`sandbox=true` sums them apart, each line (and CSV row) marked `sandbox: true`, never money owed.',
        querystring: Type.Object({
          ...Period,
          sandbox: sandboxSwitch('payout lines (what their visits would come to)'),
          format: Format,
        }),
        response: { 200: ListOf(ListedPayout), ...operatorErrorResponses },
      },
    },
    async (request, reply) => {
      const filter = periodFilter(request.query);
      const sandbox = filter.sandbox === true;
      const lines = await (sandbox ? ledger.sandboxPayouts(filter) : ledger.payouts(filter));
      const present = (line: PayoutLine) => presentListedPayout(line, sandbox);
      if (request.query.format === 'csv') {
        const columns = sandbox ? [...PAYOUT_COLUMNS, 'sandbox'] : PAYOUT_COLUMNS;
        return sendCsv(reply, sandbox ? 'sandbox-payouts.csv' : 'payouts.csv', columns, lines, present);
      }
      return { items: lines.map(present), next_cursor: null };
    },
  );
};
