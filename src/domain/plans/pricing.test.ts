import { describe, expect, test } from 'vitest';
import type { PayoutRules } from './payout-rules.js';
import {
  followsPartnerOrder,
  listPricing,
  monthOf,
  priceUnder,
  rulesAt,
  type PricingTerms,
} from './pricing.js';

const NOW = Date.UTC(2026, 10, 24, 9, 30, 0);
const version = (n: number, from: number, rules: Partial<PayoutRules> = {}): PayoutRules => ({
  version: n,
  monthlyPaidVisitsPerMember: 2,
  tiers: [],
  effectiveFrom: from,
  ...rules,
});

describe('monthOf', () => {
  test('when an instant is the last hour of a month in UTC, then a zone ahead of UTC is already in the next', () => {
    const instant = Date.UTC(2026, 10, 30, 23, 30);
    expect([
      monthOf(instant, 'UTC'),
      monthOf(instant, 'Asia/Tokyo'),
      monthOf(instant, 'America/Sao_Paulo'),
    ]).toEqual(['2026-11', '2026-12', '2026-11']);
  });
});

test('when instants of one zone fall either side of its local midnight into a new month, then each is in its own month', () => {
  const instants = [
    Date.UTC(2026, 10, 30, 14, 30),
    Date.UTC(2026, 10, 30, 15, 30),
    Date.UTC(2026, 10, 30, 14, 59),
  ];
  expect(instants.map((instant) => monthOf(instant, 'Asia/Tokyo'))).toEqual([
    '2026-11',
    '2026-12',
    '2026-11',
  ]);
});

describe('rulesAt', () => {
  test('when the partner has versions, then the latest in force at now applies, a future one not yet', () => {
    const partner = [version(1, NOW - 10), version(2, NOW), version(3, NOW + 1)];
    expect(rulesAt(partner, [], 42, NOW)).toEqual({ rules: partner[1], scope: 0 });
    expect(rulesAt(partner, [], 42, NOW - 11)).toBeUndefined();
  });

  test("when the gym has a version of its own in force, then it overrides the partner's and scopes to the gym", () => {
    const own = version(1, NOW, { monthlyPaidVisitsPerMember: 5 });
    expect(rulesAt([version(1, 0)], [own], 42, NOW)).toEqual({ rules: own, scope: 42 });
  });

  test("when the gym's version removes its rules, then the partner's apply again; a partner's removal leaves none", () => {
    const removal = { monthlyPaidVisitsPerMember: null, tiers: [] };
    const partner = [version(1, 0)];
    expect(rulesAt(partner, [version(1, 0), version(2, NOW, removal)], 42, NOW)).toEqual({
      rules: partner[0],
      scope: 0,
    });
    expect(rulesAt([version(1, 0), version(2, NOW, removal)], [], 42, NOW)).toBeUndefined();
  });
});

describe('priceUnder', () => {
  const terms: PricingTerms = {
    partnerId: 2,
    rules: version(4, 0, { monthlyPaidVisitsPerMember: 1, tiers: [{ afterCents: 1000, ratePct: 50 }] }),
    scope: 0,
    month: '2026-11',
    partnerTiered: true,
  };

  test('when no terms apply, then the list price under no version', () => {
    expect(priceUnder(undefined, { memberVisits: 9, partnerPaidCents: 9_999 }, 999)).toEqual(
      listPricing(999),
    );
  });

  test('when the member used the paid visits, then 0 under monthly-cap; past a tier, its rate half-even', () => {
    expect(priceUnder(terms, { memberVisits: 1, partnerPaidCents: 0 }, 999)).toEqual({
      listCents: 999,
      paidCents: 0,
      rule: 'monthly-cap',
      version: 4,
    });
    expect(priceUnder(terms, { memberVisits: 0, partnerPaidCents: 1001 }, 999)).toEqual({
      listCents: 999,
      paidCents: 500,
      rule: 'volume-tier',
      version: 4,
    });
    expect(priceUnder(terms, { memberVisits: 0, partnerPaidCents: 1000 }, 999)).toEqual({
      listCents: 999,
      paidCents: 999,
      rule: 'list',
      version: 4,
    });
  });
});

describe('followsPartnerOrder', () => {
  const terms = (tiers: PayoutRules['tiers'], partnerTiered: boolean): PricingTerms => ({
    partnerId: 2,
    rules: version(1, 0, { tiers }),
    scope: 7,
    month: '2026-11',
    partnerTiered,
  });

  test("when a visit's rules have tiers, or tiers elsewhere of its partner read the total it adds to, then it follows the partner's order; a partner without tiers anywhere does not", () => {
    const tiers = [{ afterCents: 1000, ratePct: 50 }];
    expect([
      followsPartnerOrder(terms(tiers, true)),
      followsPartnerOrder(terms([], true)),
      followsPartnerOrder(terms([], false)),
    ]).toEqual([true, true, false]);
  });
});
