import { localDateOf, localDayBounds } from '../local-day.js';
import { priceVisit, type PayoutRules, type Pricing } from './payout-rules.js';

/** The payout rules that price a visit at a gym, as in force when it is validated. */
export interface PricingTerms {
  readonly partnerId: number;
  readonly rules: PayoutRules;
  /** Whose rules: 0 for the partner's, else the gym's own (which then count the member's visits there alone). */
  readonly scope: number;
  /** The visit's calendar month in the gym's zone (the network's where it names none): `YYYY-MM`. */
  readonly month: string;
  /**
   * Some payout rules of the partner (its own or a gym's, of any version) have tiers: the paid total every priced
   * visit adds to is then read by tiered visits.
   */
  readonly partnerTiered: boolean;
}

/** What the month's counters held before the visit, in commit order. */
export interface PricingCounts {
  /** The member's visits priced under the scope's rules this month. */
  readonly memberVisits: number;
  /** What the partner was paid this month for the visits priced under payout rules, in cents. */
  readonly partnerPaidCents: number;
}

/** No rules in force: the list price, under no version. */
export const listPricing = (listCents: number): Pricing => ({
  listCents,
  paidCents: listCents,
  rule: 'list',
  version: null,
});

/** The last local day's month per time zone: every validation of a day asks for the same one. */
const lastMonths = new Map<string, { start: number; end: number; month: string }>();

/** `YYYY-MM` of an instant in a time zone. */
export function monthOf(instant: number, timeZone: string): string {
  const last = lastMonths.get(timeZone);
  if (last !== undefined && instant >= last.start && instant < last.end) return last.month;
  const { year, month } = localDateOf(instant, timeZone);
  const day = localDayBounds(instant, timeZone);
  const found = `${String(year).padStart(4, '0')}-${String(month + 1).padStart(2, '0')}`;
  if (lastMonths.size >= 64) lastMonths.clear();
  lastMonths.set(timeZone, { start: day.start, end: day.end, month: found });
  return found;
}

/** The version in force at `now`: the latest whose `effectiveFrom` has come (versions are oldest first). */
function inForce(versions: readonly PayoutRules[], now: number): PayoutRules | undefined {
  let found: PayoutRules | undefined;
  for (const version of versions) if (version.effectiveFrom <= now) found = version;
  return found;
}

/** A version with no cap and no tiers removes the rules from its instant on. */
const removes = (rules: PayoutRules) => rules.monthlyPaidVisitsPerMember === null && rules.tiers.length === 0;

/**
 * The rules that price a visit at a gym at `now`: the gym's own version in force, unless it removes them (then,
 * as without one, its partner's); undefined when none is in force, and the visit is paid its list price.
 */
export function rulesAt(
  partner: readonly PayoutRules[],
  gym: readonly PayoutRules[],
  gymId: number,
  now: number,
): { rules: PayoutRules; scope: number } | undefined {
  const own = inForce(gym, now);
  if (own !== undefined && !removes(own)) return { rules: own, scope: gymId };
  const partners = inForce(partner, now);
  return partners === undefined || removes(partners) ? undefined : { rules: partners, scope: 0 };
}

/** A visit priced under its terms from the counts before it; the list price without terms. */
export function priceUnder(
  terms: PricingTerms | undefined,
  counts: PricingCounts,
  listCents: number,
): Pricing {
  if (terms === undefined) return listPricing(listCents);
  return priceVisit(terms.rules, {
    listCents,
    memberVisitsThisMonth: counts.memberVisits,
    partnerPaidThisMonthCents: counts.partnerPaidCents,
  });
}

/** Whether the rules read the partner's paid total. */
export const readsPartnerTotal = (terms: PricingTerms): boolean => terms.rules.tiers.length > 0;

/**
 * Whether a visit is priced and counted in its partner's commit order, under the partner's payout lock: when its
 * tiers read the partner's paid total, and when tiers elsewhere read the total it adds to (a gym's own cap beside
 * its partner's tiers: a tiered visit must not price from a total that misses a visit committed before it).
 */
export const followsPartnerOrder = (terms: PricingTerms): boolean =>
  terms.partnerTiered || readsPartnerTotal(terms);

/** The lock that orders a partner's priced visits when tiers read its paid total; it sorts after members' locks. */
export const payoutLockKey = (partnerId: number): string => `payout:${partnerId}`;
