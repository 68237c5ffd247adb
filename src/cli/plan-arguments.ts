import { InvalidArgumentError } from 'commander';
import type { PayoutTier } from '../domain/plans/payout-rules.js';
import type { RuleInput } from '../domain/plans/plan.js';

/**
 * The text forms of plan rules and payout tiers the CLI takes and prints: `category:per:limit:scope` (as
 * `standard:day:1:network`) and `after_cents:rate_pct` (as `1000000:90`). The parsers check the shape; the
 * values (a known period, a rate with two decimals …) are the domain's to check, as for the operator API.
 */
const RULE = /^([^:]+):([^:]+):([0-9]{1,6}):([^:]+)$/;
const TIER = /^([0-9]{1,15}):([0-9]{1,3}(?:\.[0-9]{1,2})?)$/;

/** One `--rule`, added to the ones before it (the option repeats). */
export function planRule(value: string, previous: readonly RuleInput[] = []): RuleInput[] {
  const match = RULE.exec(value);
  if (match === null)
    throw new InvalidArgumentError('must be category:per:limit:scope, as standard:day:1:network');
  const [, category = '', per = '', limit = '', scope = ''] = match;
  return [...previous, { category, per, limit: Number(limit), scope }];
}

/** One `--tier`, added to the ones before it (the option repeats). */
export function payoutTier(value: string, previous: readonly PayoutTier[] = []): PayoutTier[] {
  const match = TIER.exec(value);
  if (match === null) throw new InvalidArgumentError('must be after_cents:rate_pct, as 1000000:90');
  const [, afterCents = '', ratePct = ''] = match;
  return [...previous, { afterCents: Number(afterCents), ratePct: Number(ratePct) }];
}

/** `--monthly-paid-visits`: a whole number, or `none` for no cap (kept as `none`: commander makes a null ''). */
export function monthlyPaidVisits(value: string): number | 'none' {
  if (value === 'none') return value;
  if (!/^[0-9]{1,5}$/.test(value)) throw new InvalidArgumentError('must be a whole number, or none');
  return Number(value);
}

export const ruleText = (rule: RuleInput): string =>
  `${rule.category}:${rule.per}:${rule.limit}:${rule.scope}`;
export const tierText = (tier: { after_cents: number; rate_pct: number }): string =>
  `${tier.after_cents}:${tier.rate_pct}`;
