import type { RouteGroup } from '../http/route-group.js';
import { Type } from 'typebox';
import { presentReversal } from '../presenters/records.js';
import { given } from '../domain/given.js';
import { createRoute } from './record-routes.js';
import { Id, OperatorText } from './schemas.js';
import { TEXT_LIMITS } from '../domain/operator-text.js';

export const Reversal = Type.Object({
  id: Id,
  transaction_id: Id,
  kind: Type.Literal('reversal'),
  amount_cents: Type.Integer({ description: 'Negative: what the reversal takes back' }),
  currency: Type.String(),
  reason: Type.String(),
  effective_at: Type.String({ description: 'ISO-8601 UTC with milliseconds: when it was made' }),
  created_by: Type.String(),
});

/** Corrections of the ledger: a reversal is a new entry linked to the visit, never an edit of it. */
export const reversalRoutes: RouteGroup = async (app, { services }) => {
  createRoute(app, {
    url: '/transactions/:transaction_id/reversals',
    summary: "Reverse a visit's transaction, wholly (by default) or in part",
    body: Type.Object({
      reason: OperatorText(TEXT_LIMITS.reason),
      amount_cents: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: 100_000_000_000,
          description: 'Positive; default: all that is left to reverse',
        }),
      ),
    }),
    created: Reversal,
    create: async ({ reason, amount_cents: amountCents }, actor, transactionId) => {
      return presentReversal(
        await services.ledger.reverse(given({ transactionId, reason, amountCents }), actor),
      );
    },
  });
};
