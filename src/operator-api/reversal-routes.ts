import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { presentReversal } from '../presenters/records.js';
import type { Services } from '../services/index.js';
import { actorOfRequest } from './authenticate.js';
import { Id, IdString, OperatorText, operatorErrorResponses } from './schemas.js';
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
export const reversalRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (
  app,
  { services },
) => {
  app.post(
    '/transactions/:transaction_id/reversals',
    {
      schema: {
        summary: "Reverse a visit's transaction, wholly (by default) or in part",
        params: Type.Object({ transaction_id: IdString }),
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
        response: { 201: Reversal, ...operatorErrorResponses },
      },
    },
    async (request, reply) => {
      const { reason, amount_cents: amountCents } = request.body;
      const reversal = await services.ledger.reverse(
        {
          transactionId: Number(request.params.transaction_id),
          reason,
          ...(amountCents === undefined ? {} : { amountCents }),
        },
        actorOfRequest(request),
      );
      return reply.code(201).send(presentReversal(reversal));
    },
  );
};
