import { actorName, type Actor } from '../audit.js';
import type { LedgerTransaction, Reversal } from '../entities.js';
import { ConflictError, EntityNotFoundError, InputError } from '../errors.js';
import { formatInstant } from '../time-format.js';
import type { Decision } from '../writes.js';

export interface ReversalRequest {
  readonly transactionId: number;
  /** Why: shown to the partner beside the entry. */
  readonly reason: string;
  /** What to take back, in cents (positive); undefined: all that is left to reverse. */
  readonly amountCents: number | undefined;
  readonly now: number;
  readonly actor: Actor;
}

/** What a reversal is decided from, read under the transaction's lock. */
export interface ReversalState {
  readonly transaction: LedgerTransaction | undefined;
  /** How much of it earlier reversals took back (positive cents). */
  readonly reversedCents: number;
  /** The id the store reserved for the new entry. */
  readonly reversalId: number;
}

export class OverReversedError extends ConflictError {
  constructor(leftCents: number) {
    super(
      'transaction.over-reversed',
      `the reversals would exceed the transaction: ${leftCents} cents are left`,
    );
  }
}

/**
 * Reverse a visit, wholly or in part: a new entry of the negative amount, effective now, linked to the visit.
 * The reversals of a transaction never sum above it; nothing is left to reverse of a transaction of 0.
 */
export function decideReversal(request: ReversalRequest, state: ReversalState): Decision<Reversal> {
  const { transaction } = state;
  if (request.reason.trim() === '') throw new InputError('reason', 'must not be blank');
  if (transaction === undefined) throw new EntityNotFoundError('transaction');
  const left = transaction.payoutCents - state.reversedCents;
  const amount = request.amountCents ?? left;
  if (left <= 0 || amount > left) throw new OverReversedError(Math.max(left, 0));
  const reversal: Reversal = {
    id: state.reversalId,
    transactionId: transaction.id,
    partnerId: transaction.partnerId,
    gymId: transaction.gymId,
    payoutCents: -amount,
    currency: transaction.currency,
    reason: request.reason,
    effectiveAt: request.now,
    createdBy: actorName(request.actor),
  };
  const data = {
    id: reversal.id,
    transaction_id: transaction.id,
    checkin_id: transaction.checkinId,
    platform_id: transaction.platformId,
    gym_id: transaction.gymId,
    payout_cents: reversal.payoutCents,
    currency: reversal.currency,
    reason: reversal.reason,
    effective_at: formatInstant(reversal.effectiveAt),
  };
  return {
    outcome: reversal,
    writes: [
      { kind: 'insert-reversal', reversal },
      {
        kind: 'event',
        event: {
          type: 'transaction.reversed',
          occurredAt: request.now,
          partnerId: transaction.partnerId,
          gymId: transaction.gymId,
          data,
        },
      },
      {
        kind: 'audit',
        entry: { actor: request.actor, action: 'reverse', entity: 'transaction', entityId: transaction.id },
        at: request.now,
      },
    ],
  };
}
