import { describe, expect, test } from 'vitest';
import { OPERATOR } from '../audit.js';
import type { Checkin } from '../entities.js';
import type { EventType } from '../events.js';
import {
  CheckinValidatedConflictError,
  DailyLimitError,
  EntityNotFoundError,
  InputError,
  RetiredError,
} from '../errors.js';
import {
  decideCheckinCancellation,
  decideCheckinCreation,
  type CancellationState,
  type CheckinCreation,
  type CreationState,
} from './checkin.js';

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);

const creation = (overrides: Partial<CheckinCreation> = {}): CheckinCreation => ({
  platformId: '1234567890123',
  gymId: 42,
  productId: 3,
  checkedInAt: NOW,
  now: NOW,
  actor: OPERATOR,
  ttlMs: 1_200_000,
  dailyVisitLimit: 1,
  plans: true,
  timezone: 'UTC',
  ...overrides,
});

/** Check-in 70 of the member above; a test names the fields its case turns on. */
const checkin = (overrides: Partial<Checkin> = {}): Checkin => ({
  id: 70,
  platformId: '1234567890123',
  gymId: 42,
  productId: 3,
  status: 'pending',
  checkedInAt: NOW,
  expiresAt: NOW + 1_200_000,
  validatedAt: null,
  cancelledAt: null,
  ...overrides,
});

/** What every event about check-in 70 says, whatever happened to it. */
const ABOUT_70 = {
  checkin_id: 70,
  platform_id: '1234567890123',
  gym_id: 42,
  product: { id: 3, description: 'Day pass' },
};

/** The event a decision writes about check-in 70 (partner 9, gym 42): its type and its times differ. */
const checkinEvent = (
  type: EventType,
  data: { status: string; checked_in_at: string; expires_at: string },
) => ({
  kind: 'event',
  event: { type, occurredAt: NOW, partnerId: 9, gymId: 42, data: { ...ABOUT_70, ...data } },
});

const state = (overrides: Partial<CreationState> = {}): CreationState => ({
  gym: { partnerId: 9, timezone: null, retired: false },
  product: { id: 3, gymId: 42, description: 'Day pass', retired: false, category: 'standard' },
  recentValidations: [],
  checkinId: 70,
  ...overrides,
});

describe('decideCheckinCreation', () => {
  test('when the gym, its product and the day allow it, then a pending check-in is inserted, announced and audited', () => {
    const pending = checkin();
    expect(decideCheckinCreation(creation(), state())).toEqual({
      outcome: pending,
      writes: [
        { kind: 'insert-checkin', checkin: { ...pending, createdAt: NOW } },
        checkinEvent('checkin.created', {
          status: 'pending',
          checked_in_at: '2026-11-23T12:00:00.000Z',
          expires_at: '2026-11-23T12:20:00.000Z',
        }),
        {
          kind: 'audit',
          entry: { actor: OPERATOR, action: 'create', entity: 'checkin', entityId: 70 },
          at: NOW,
        },
      ],
    });
  });

  test.each([
    ['the gym does not exist', state({ gym: undefined }), new EntityNotFoundError('gym')],
    ['the product does not exist', state({ product: undefined }), new EntityNotFoundError('product')],
    [
      'the product belongs to another gym',
      state({ product: { id: 3, gymId: 43, description: 'Day pass', retired: false, category: 'standard' } }),
      new InputError('product_id', 'is not a product of that gym'),
    ],
    [
      'the member was validated today already',
      state({ recentValidations: [NOW - 3_600_000] }),
      new DailyLimitError(),
    ],
    [
      'the gym is retired',
      state({ gym: { partnerId: 9, timezone: null, retired: true } }),
      new RetiredError('gym'),
    ],
    [
      'the product is retired',
      state({ product: { id: 3, gymId: 42, description: 'Day pass', retired: true, category: 'standard' } }),
      new RetiredError('product'),
    ],
  ])('when %s, then the creation is refused and writes nothing', (_name, read, error) => {
    expect(() => decideCheckinCreation(creation(), read)).toThrow(error);
  });

  test('when checked_in_at lies more than 5 minutes ahead, then the creation is refused for it', () => {
    expect(() => decideCheckinCreation(creation({ checkedInAt: NOW + 300_001 }), state())).toThrow(
      new InputError('checked_in_at', 'must not be more than 5 minutes in the future'),
    );
    expect(decideCheckinCreation(creation({ checkedInAt: NOW + 300_000 }), state()).outcome.status).toBe(
      'pending',
    );
  });

  test('when the member was validated yesterday and checked in today, then the limit allows today', () => {
    const yesterday = Date.UTC(2026, 10, 22, 23, 59, 0);
    const decision = decideCheckinCreation(creation(), state({ recentValidations: [yesterday] }));
    expect(decision.outcome.status).toBe('pending');
  });

  test('when a visit checked in yesterday was validated today, then it counts today', () => {
    // Validated at 00:01 today (the check-in was from 23:59 yesterday): the day of the validation counts.
    const validated = Date.UTC(2026, 10, 23, 0, 1, 0);
    expect(() => decideCheckinCreation(creation(), state({ recentValidations: [validated] }))).toThrow(
      new DailyLimitError(),
    );
  });

  test("when the gym has its own time zone, then its local day counts, not the server's", () => {
    // 12:00 UTC is 09:00 in São Paulo; 02:00 UTC was still yesterday there (23:00).
    const lateYesterdayThere = Date.UTC(2026, 10, 23, 2, 0, 0);
    const there = state({
      gym: { partnerId: 9, timezone: 'America/Sao_Paulo', retired: false },
      recentValidations: [lateYesterdayThere],
    });
    expect(decideCheckinCreation(creation(), there).outcome.status).toBe('pending');
    expect(() =>
      decideCheckinCreation(creation(), { ...there, gym: { partnerId: 9, timezone: null, retired: false } }),
    ).toThrow(new DailyLimitError());
  });

  test('when the daily limit is 0, then any number of visits is allowed', () => {
    const decision = decideCheckinCreation(
      creation({ dailyVisitLimit: 0 }),
      state({ recentValidations: [NOW - 1, NOW - 2, NOW - 3] }),
    );
    expect(decision.outcome.status).toBe('pending');
  });
});

describe('decideCheckinCancellation', () => {
  const found = (status: Checkin['status'], expiresAt = NOW + 60_000): CancellationState => ({
    checkin: {
      ...checkin({
        status,
        checkedInAt: NOW - 60_000,
        expiresAt,
        validatedAt: status === 'validated' ? NOW - 1 : null,
        cancelledAt: status === 'cancelled' ? NOW - 1 : null,
      }),
      partnerId: 9,
      product: { id: 3, description: 'Day pass' },
    },
  });
  const request = { checkinId: 70, now: NOW, actor: OPERATOR };

  test.each([
    ['pending', NOW + 60_000],
    ['expired', NOW - 1],
  ])('when the check-in is %s, then it is cancelled, announced and audited', (_name, expiresAt) => {
    const { outcome, writes } = decideCheckinCancellation(request, found('pending', expiresAt));
    expect(outcome).toEqual(
      checkin({ status: 'cancelled', checkedInAt: NOW - 60_000, expiresAt, cancelledAt: NOW }),
    );
    expect(writes).toEqual([
      { kind: 'checkin-status', checkinId: 70, from: 'pending', to: 'cancelled', at: NOW },
      checkinEvent('checkin.cancelled', {
        status: 'cancelled',
        checked_in_at: new Date(NOW - 60_000).toISOString(),
        expires_at: new Date(expiresAt).toISOString(),
      }),
      {
        kind: 'audit',
        entry: { actor: OPERATOR, action: 'cancel', entity: 'checkin', entityId: 70 },
        at: NOW,
      },
    ]);
  });

  test('when the check-in is cancelled already, then it comes back as it is and nothing is written', () => {
    expect(decideCheckinCancellation(request, found('cancelled'))).toEqual({
      outcome: checkin({
        status: 'cancelled',
        checkedInAt: NOW - 60_000,
        expiresAt: NOW + 60_000,
        cancelledAt: NOW - 1,
      }),
      writes: [],
    });
  });

  test('when the check-in is validated, then the cancellation is refused', () => {
    expect(() => decideCheckinCancellation(request, found('validated'))).toThrow(
      CheckinValidatedConflictError,
    );
  });

  test('when there is no such check-in, then 404', () => {
    expect(() => decideCheckinCancellation(request, { checkin: undefined })).toThrow(
      new EntityNotFoundError('checkin'),
    );
  });
});
