import { InputError } from '../errors.js';

/** A volume tier: once the partner's paid total of the month is above `afterCents`, a visit is paid `ratePct`%. */
export interface PayoutTier {
  readonly afterCents: number;
  readonly ratePct: number;
}

/** One version of a partner's (or a gym's) payout rules, in force from `effectiveFrom`. */
export interface PayoutRules {
  readonly version: number;
  /** Visits of one member paid per calendar month (in the gym's zone); null: no cap. */
  readonly monthlyPaidVisitsPerMember: number | null;
  readonly tiers: readonly PayoutTier[];
  readonly effectiveFrom: number;
}

/** Why a visit is paid what it is: its list price, the monthly cap, or a volume tier. */
export type PricingRule = 'list' | 'monthly-cap' | 'volume-tier';

export interface Pricing {
  readonly listCents: number;
  readonly paidCents: number;
  readonly rule: PricingRule;
  /** The version of the payout rules that decided (null when none was in force). */
  readonly version: number | null;
}

/** What a visit's price is decided from: the visits before it in commit order, this month, in the gym's zone. */
export interface PricingFacts {
  readonly listCents: number;
  /** The member's visits under these rules' scope this month before this one, paid or capped. */
  readonly memberVisitsThisMonth: number;
  /** What the partner was paid for the month's visits before this one, in cents. */
  readonly partnerPaidThisMonthCents: number;
}

/** `a / b` rounded half to even, for whole `a` ≥ 0 and `b` > 0. */
export function divideHalfEven(a: number, b: number): number {
  const quotient = Math.floor(a / b);
  const twice = 2 * (a - quotient * b);
  if (twice > b) return quotient + 1;
  if (twice < b) return quotient;
  return quotient % 2 === 0 ? quotient : quotient + 1;
}

/**
 * A visit's price under the rules in force: past the member's monthly paid visits it is 0 (`monthly-cap`); else,
 * once the partner's paid total of the month is above a tier's threshold, the highest such tier's rate of the whole
 * price, rounded half-even to the cent (`volume-tier`); else the list price.
 */
export function priceVisit(rules: PayoutRules | undefined, facts: PricingFacts): Pricing {
  const list = { listCents: facts.listCents, paidCents: facts.listCents, rule: 'list' as PricingRule };
  if (rules === undefined) return { ...list, version: null };
  const { version } = rules;
  const cap = rules.monthlyPaidVisitsPerMember;
  if (cap !== null && facts.memberVisitsThisMonth >= cap)
    return { listCents: facts.listCents, paidCents: 0, rule: 'monthly-cap', version };
  let tier: PayoutTier | undefined;
  for (const candidate of rules.tiers) {
    if (
      facts.partnerPaidThisMonthCents > candidate.afterCents &&
      (tier === undefined || candidate.afterCents > tier.afterCents)
    )
      tier = candidate;
  }
  if (tier === undefined) return { ...list, version };
  const basisPoints = Math.round(tier.ratePct * 100);
  return {
    listCents: facts.listCents,
    paidCents: divideHalfEven(facts.listCents * basisPoints, 10_000),
    rule: 'volume-tier',
    version,
  };
}

/**
 * Payout rules as the operator sent them, checked: a cap from 0 up, or null; tiers with whole thresholds, distinct,
 * and rates from 0 to 100 with at most two decimals. A 400 names the field: `tiers[1].rate_pct`.
 */
export function checkedPayoutRules(rules: Omit<PayoutRules, 'version' | 'effectiveFrom'>): void {
  const cap = rules.monthlyPaidVisitsPerMember;
  if (cap !== null && (!Number.isInteger(cap) || cap < 0 || cap > 10_000))
    throw new InputError('monthly_paid_visits_per_member', 'must be a whole number from 0 to 10000, or null');
  if (rules.tiers.length > 16) throw new InputError('tiers', 'must hold at most 16 tiers');
  const thresholds = new Set<number>();
  rules.tiers.forEach((tier, index) => {
    const at = `tiers[${index}]`;
    if (!Number.isSafeInteger(tier.afterCents) || tier.afterCents < 0)
      throw new InputError(`${at}.after_cents`, 'must be a whole number of cents, 0 or more');
    if (thresholds.has(tier.afterCents)) throw new InputError(`${at}.after_cents`, 'repeats another tier’s');
    thresholds.add(tier.afterCents);
    const basisPoints = tier.ratePct * 100;
    if (!(tier.ratePct >= 0 && tier.ratePct <= 100) || Math.abs(basisPoints - Math.round(basisPoints)) > 1e-9)
      throw new InputError(`${at}.rate_pct`, 'must be from 0 to 100, with at most two decimals');
  });
}
