import { describe, expect, test } from 'vitest';
import { OPERATOR } from '../audit.js';
import type { LedgerTransaction } from '../entities.js';
import { EntityNotFoundError, InputError } from '../errors.js';
import { OverReversedError, decideReversal, type ReversalRequest, type ReversalState } from './reversal.js';

const NOW = Date.UTC(2026, 10, 24, 9, 30, 0);

const transaction: LedgerTransaction = {
  id: 5,
  checkinId: 7,
  partnerId: 2,
  gymId: 42,
  productId: 3,
  platformId: '1234567890123',
  payoutCents: 1500,
  currency: 'BRL',
  validatedAt: NOW - 86_400_000,
  pricing: { listCents: 1500, paidCents: 1500, rule: 'list', version: null },
};

const request = (overrides: Partial<ReversalRequest> = {}): ReversalRequest => ({
  transactionId: 5,
  reason: 'wrong member',
  amountCents: undefined,
  now: NOW,
  actor: { kind: 'operator', name: 'ana' },
  ...overrides,
});

const state = (overrides: Partial<ReversalState> = {}): ReversalState => ({
  transaction,
  reversedCents: 0,
  reversalId: 9,
  ...overrides,
});

describe('decideReversal', () => {
  test('when nothing was reversed yet and no amount is given, then the whole amount is taken back now, announced and audited', () => {
    const decision = decideReversal(request(), state());

    const reversal = {
      id: 9,
      transactionId: 5,
      partnerId: 2,
      gymId: 42,
      payoutCents: -1500,
      currency: 'BRL',
      reason: 'wrong member',
      effectiveAt: NOW,
      createdBy: 'operator:ana',
    };
    const reversed = {
      id: 9,
      transaction_id: 5,
      checkin_id: 7,
      platform_id: '1234567890123',
      gym_id: 42,
      payout_cents: -1500,
      currency: 'BRL',
      reason: 'wrong member',
      effective_at: '2026-11-24T09:30:00.000Z',
    };
    expect(decision).toEqual({
      outcome: reversal,
      writes: [
        { kind: 'insert-reversal', reversal },
        {
          kind: 'event',
          event: { type: 'transaction.reversed', occurredAt: NOW, partnerId: 2, gymId: 42, data: reversed },
        },
        {
          kind: 'audit',
          entry: {
            actor: { kind: 'operator', name: 'ana' },
            action: 'reverse',
            entity: 'transaction',
            entityId: 5,
          },
          at: NOW,
        },
      ],
    });
  });

  test('when part was reversed, then the default is what is left, and a part up to it is allowed', () => {
    expect(decideReversal(request(), state({ reversedCents: 1000 })).outcome.payoutCents).toBe(-500);
    expect(
      decideReversal(request({ amountCents: 500 }), state({ reversedCents: 1000 })).outcome.payoutCents,
    ).toBe(-500);
  });

  test.each([
    [
      'the transaction does not exist',
      request(),
      state({ transaction: undefined }),
      new EntityNotFoundError('transaction'),
    ],
    [
      'the amount is above what is left',
      request({ amountCents: 501 }),
      state({ reversedCents: 1000 }),
      new OverReversedError(500),
    ],
    ['everything was reversed', request(), state({ reversedCents: 1500 }), new OverReversedError(0)],
    [
      'the transaction paid 0',
      request(),
      state({ transaction: { ...transaction, payoutCents: 0 } }),
      new OverReversedError(0),
    ],
    ['the reason is blank', request({ reason: ' ' }), state(), new InputError('reason', 'must not be blank')],
  ])('when %s, then the reversal is refused and writes nothing', (_name, asked, read, error) => {
    expect(() => decideReversal(asked, read)).toThrow(error);
  });

  test('when the operator is the environment token, then created_by says operator', () => {
    expect(decideReversal(request({ actor: OPERATOR }), state()).outcome.createdBy).toBe('operator');
  });
});
