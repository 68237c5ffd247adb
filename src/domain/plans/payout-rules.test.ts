import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { InputError } from '../errors.js';
import { checkedPayoutRules, divideHalfEven, priceVisit, type PayoutRules } from './payout-rules.js';

const rules = (overrides: Partial<PayoutRules> = {}): PayoutRules => ({
  version: 3,
  monthlyPaidVisitsPerMember: 4,
  tiers: [
    { afterCents: 100_000, ratePct: 90 },
    { afterCents: 500_000, ratePct: 75.5 },
  ],
  effectiveFrom: 0,
  ...overrides,
});

describe('priceVisit', () => {
  test('when no rules are in force, then the list price, with no version', () => {
    expect(
      priceVisit(undefined, {
        listCents: 1250,
        memberVisitsThisMonth: 9,
        partnerPaidThisMonthCents: 10 ** 9,
      }),
    ).toEqual({
      listCents: 1250,
      paidCents: 1250,
      rule: 'list',
      version: null,
    });
  });

  test('when the member already made the month’s paid visits, then 0 by the monthly cap, whatever the tiers say', () => {
    expect(
      priceVisit(rules(), { listCents: 1250, memberVisitsThisMonth: 4, partnerPaidThisMonthCents: 600_000 }),
    ).toEqual({
      listCents: 1250,
      paidCents: 0,
      rule: 'monthly-cap',
      version: 3,
    });
  });

  test('when the partner’s month is above a threshold, then the highest tier below its total prices the whole visit, half-even to the cent', () => {
    const price = (paid: number, list = 1250) =>
      priceVisit(rules(), { listCents: list, memberVisitsThisMonth: 3, partnerPaidThisMonthCents: paid });

    expect(price(100_000)).toEqual({ listCents: 1250, paidCents: 1250, rule: 'list', version: 3 });
    expect(price(100_001)).toEqual({ listCents: 1250, paidCents: 1125, rule: 'volume-tier', version: 3 });
    // 75.5% of 1250 is 943.75 → 944; of 1000 is 755; of 1 is 0.755 → 1; of 2 is 1.51 → 2.
    expect(price(500_001).paidCents).toBe(944);
    expect([1000, 1, 2].map((list) => price(900_000, list).paidCents)).toEqual([755, 1, 2]);
    // 90% of 5 is 4.5 → 4 (even); of 15 is 13.5 → 14 (even).
    expect([5, 15].map((list) => price(200_000, list).paidCents)).toEqual([4, 14]);
  });
});

describe('divideHalfEven', () => {
  test('when any whole a and b are divided, then the result is within a half of a / b, and ties go to the even one', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 9 }), fc.integer({ min: 1, max: 20_000 }), (a, b) => {
        const q = divideHalfEven(a, b);
        expect(Math.abs(q * b - a) * 2).toBeLessThanOrEqual(b);
        if (Math.abs(q * b - a) * 2 === b) expect(q % 2).toBe(0);
      }),
    );
  });
});

describe('checkedPayoutRules', () => {
  test.each([
    [{ monthlyPaidVisitsPerMember: -1, tiers: [] }, 'monthly_paid_visits_per_member'],
    [{ monthlyPaidVisitsPerMember: 1.5, tiers: [] }, 'monthly_paid_visits_per_member'],
    [{ monthlyPaidVisitsPerMember: null, tiers: [{ afterCents: -5, ratePct: 50 }] }, 'tiers[0].after_cents'],
    [{ monthlyPaidVisitsPerMember: null, tiers: [{ afterCents: 5, ratePct: 101 }] }, 'tiers[0].rate_pct'],
    [{ monthlyPaidVisitsPerMember: null, tiers: [{ afterCents: 5, ratePct: 50.123 }] }, 'tiers[0].rate_pct'],
    [
      {
        monthlyPaidVisitsPerMember: null,
        tiers: [
          { afterCents: 5, ratePct: 50 },
          { afterCents: 5, ratePct: 40 },
        ],
      },
      'tiers[1].after_cents',
    ],
  ])('when the rules are %j, then 400 key %s', (given, key) => {
    expect(() => checkedPayoutRules(given)).toThrow(InputError);
    try {
      checkedPayoutRules(given);
    } catch (error) {
      expect((error as InputError).key).toBe(key);
    }
  });

  test('when the rules are sound, then they pass', () => {
    expect(() =>
      checkedPayoutRules({ monthlyPaidVisitsPerMember: 0, tiers: [{ afterCents: 0, ratePct: 99.99 }] }),
    ).not.toThrow();
  });
});
