import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { classifyCheckin } from '../checkin-condition.js';
import type { Write } from '../writes.js';
import { decideValidation, type LatestCheckin, type ValidationRequest } from './validation.js';

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);
const KEY = { kind: 'key', prefix: 'ghk_live_abcd' } as const;

const request = (overrides: Partial<ValidationRequest> = {}): ValidationRequest => ({
  gymId: 42,
  platformId: '1234567890123',
  customCode: undefined,
  now: NOW,
  actor: KEY,
  ...overrides,
});

const latest = (overrides: Partial<LatestCheckin> = {}): LatestCheckin => ({
  id: 7,
  status: 'pending',
  checkedInAt: NOW - 60_000,
  expiresAt: NOW + 60_000,
  product: { id: 3, description: 'Day pass', payoutCents: 1500, currency: 'BRL' },
  partnerId: 9,
  ...overrides,
});

const kinds = (writes: readonly Write[]) => writes.map((write) => write.kind);

describe('decideValidation', () => {
  test('when the latest check-in is pending and unexpired, then it is validated, paid and announced under the transaction id the store reserved', () => {
    const decision = decideValidation(request(), { latest: latest(), code: undefined, transactionId: 501 });
    expect(decision).toEqual({
      outcome: { condition: 'valid', productId: 3, productDescription: 'Day pass', validatedAt: NOW },
      writes: [
        { kind: 'checkin-status', checkinId: 7, from: 'pending', to: 'validated', at: NOW },
        {
          kind: 'insert-transaction',
          transaction: {
            id: 501,
            checkinId: 7,
            partnerId: 9,
            gymId: 42,
            productId: 3,
            platformId: '1234567890123',
            payoutCents: 1500,
            currency: 'BRL',
            validatedAt: NOW,
            pricing: { listCents: 1500, paidCents: 1500, rule: 'list', version: null },
          },
        },
        {
          kind: 'event',
          event: {
            type: 'checkin.validated',
            occurredAt: NOW,
            partnerId: 9,
            gymId: 42,
            data: {
              checkin_id: 7,
              platform_id: '1234567890123',
              gym_id: 42,
              product: { id: 3, description: 'Day pass' },
              status: 'validated',
              checked_in_at: '2026-11-23T11:59:00.000Z',
              expires_at: '2026-11-23T12:01:00.000Z',
              transaction_id: 501,
              validated_at: '2026-11-23T12:00:00.000Z',
              payout_cents: 1500,
              currency: 'BRL',
            },
          },
        },
      ],
    });
  });

  test('when a valid validation carries a new code, then the code is inserted with its event and no audit row', () => {
    const decision = decideValidation(request({ customCode: '4321' }), {
      latest: latest(),
      code: undefined,
      transactionId: 501,
    });
    expect(kinds(decision.writes)).toEqual([
      'checkin-status',
      'insert-transaction',
      'event',
      'insert-code',
      'event',
    ]);
    expect(decision.writes.slice(3)).toEqual([
      { kind: 'insert-code', gymId: 42, platformId: '1234567890123', code: '4321', at: NOW },
      {
        kind: 'event',
        event: {
          type: 'custom_code.created',
          occurredAt: NOW,
          partnerId: 9,
          gymId: 42,
          data: { platform_id: '1234567890123', gym_id: 42 },
        },
      },
    ]);
  });

  test.each([
    ['validated', latest({ status: 'validated' }), 'already-validated'],
    ['cancelled', latest({ status: 'cancelled' }), 'cancelled'],
    ['expired', latest({ expiresAt: NOW }), 'expired'],
  ] as const)(
    'when the check-in is %s and a code is sent, then the refusal stores the code, announces it and audits the key',
    (_name, checkin, condition) => {
      const decision = decideValidation(request({ customCode: 'QR-9' }), {
        latest: checkin,
        code: 'OLD',
        // Reserved where the check-in is pending, as the store does; an expired one leaves its id unused.
        transactionId: checkin.status === 'pending' ? 501 : undefined,
      });
      expect(decision).toEqual({
        outcome: { condition },
        writes: [
          { kind: 'update-code', gymId: 42, platformId: '1234567890123', code: 'QR-9', at: NOW },
          {
            kind: 'event',
            event: {
              type: 'custom_code.updated',
              occurredAt: NOW,
              partnerId: 9,
              gymId: 42,
              data: { platform_id: '1234567890123', gym_id: 42 },
            },
          },
          {
            kind: 'audit',
            entry: { actor: KEY, action: 'update', entity: 'custom-code', entityId: '42:1234567890123' },
            at: NOW,
          },
        ],
      });
    },
  );

  test('when there is no check-in, then nothing is written, not even the code', () => {
    expect(
      decideValidation(request({ customCode: '4321' }), {
        latest: undefined,
        code: undefined,
        transactionId: undefined,
      }),
    ).toEqual({ outcome: { condition: 'notfound' }, writes: [] });
  });

  test('for any check-in, time and code: the outcome is the classification, payment iff valid, a code iff a check-in exists', () => {
    const checkinArb = fc.option(
      fc.record({
        status: fc.constantFrom('pending', 'validated', 'cancelled'),
        expiresIn: fc.integer({ min: -5_000, max: 5_000 }),
      }),
      { nil: undefined },
    );
    fc.assert(
      fc.property(
        checkinArb,
        fc.option(fc.string({ minLength: 1, maxLength: 13 }), { nil: undefined }),
        fc.boolean(),
        (c, code, existed) => {
          const state = {
            latest: c && latest({ status: c.status, expiresAt: NOW + c.expiresIn }),
            code: existed ? 'OLD' : undefined,
            transactionId: c?.status === 'pending' ? 501 : undefined,
          };
          const { outcome, writes } = decideValidation(request({ customCode: code }), state);
          const condition = classifyCheckin(state.latest, NOW);
          expect(outcome.condition).toBe(condition);
          const paid = writes.filter((write) => write.kind === 'insert-transaction');
          expect(paid).toHaveLength(condition === 'valid' ? 1 : 0);
          const codeWrites = writes.filter(
            (write) => write.kind === 'insert-code' || write.kind === 'update-code',
          );
          expect(codeWrites).toHaveLength(code !== undefined && state.latest !== undefined ? 1 : 0);
          const events = writes.filter((write) => write.kind === 'event');
          expect(events).toHaveLength(paid.length + codeWrites.length);
          for (const event of events) expect(JSON.stringify(event)).not.toContain('OLD');
        },
      ),
    );
  });

  test('when payout rules price the visit past its member’s paid visits, then the transaction and its event carry 0 under monthly-cap, and the visit is counted (on its check-in once every process reads those)', () => {
    const pricing = {
      partnerId: 9,
      rules: { version: 2, monthlyPaidVisitsPerMember: 1, tiers: [], effectiveFrom: 0 },
      scope: 0,
      month: '2026-11',
      partnerTiered: false,
    };
    const state = {
      latest: latest(),
      code: undefined,
      transactionId: 501,
      counts: { memberVisits: 1, partnerPaidCents: 0 },
    };

    const { writes } = decideValidation(request({ pricing }), state);

    const transaction = writes.find((write) => write.kind === 'insert-transaction');
    expect(transaction?.kind === 'insert-transaction' && transaction.transaction).toMatchObject({
      payoutCents: 0,
      pricing: { listCents: 1500, paidCents: 0, rule: 'monthly-cap', version: 2 },
    });
    const event = writes.find((write) => write.kind === 'event');
    expect(event?.kind === 'event' && event.event.data).toMatchObject({ payout_cents: 0 });
    expect(writes.at(-1)).toEqual({
      kind: 'count-visit',
      partnerId: 9,
      month: '2026-11',
      scope: 0,
      platformId: '1234567890123',
      paidCents: 0,
      checkinId: undefined,
    });
    const marked = decideValidation(request({ pricing, countOnCheckin: true }), state).writes.at(-1);
    expect(marked).toStrictEqual({
      kind: 'count-visit',
      partnerId: 9,
      month: '2026-11',
      scope: 0,
      platformId: '1234567890123',
      paidCents: 0,
      checkinId: 7,
    });
  });
});
