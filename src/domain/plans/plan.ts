import { InputError } from '../errors.js';
import { parseInstant } from '../instant.js';
import { PERIODS, type Period } from './windows.js';

/** Where a plan rule counts a member's visits: at the gym, at any gym of its partner, or anywhere in the network. */
export const SCOPES = ['gym', 'partner', 'network'] as const;
export type Scope = (typeof SCOPES)[number];

/** A product's category: a short slug; products without one are `standard`. */
export const CATEGORY_PATTERN = '^[a-z0-9][a-z0-9-]{0,31}$';
export const DEFAULT_CATEGORY = 'standard';
const CATEGORY = new RegExp(CATEGORY_PATTERN);

/** At most `limit` visits of `category` per `per`, counted over `scope`; a limit of 0 leaves the category out. */
export interface PlanRule {
  readonly category: string;
  readonly per: Period;
  readonly limit: number;
  readonly scope: Scope;
}

/** A rule as the operator sent it, before checkedRules. */
export interface RuleInput {
  readonly category: string;
  readonly per: string;
  readonly limit: number;
  readonly scope: string;
}

/** One version of a plan: its rules hold for check-ins created from `effectiveFrom` until the next version's. */
export interface PlanVersion {
  readonly planId: number;
  readonly version: number;
  readonly rules: readonly PlanRule[];
  readonly effectiveFrom: number;
}

/** A plan: its name and every version, oldest first. */
export interface Plan {
  readonly id: number;
  readonly name: string;
  readonly versions: readonly PlanVersion[];
}

/** Plans hold a handful of rules; a list past this is a mistake, not a plan. */
export const MAX_RULES = 32;
export const MAX_LIMIT = 1000;

/**
 * A plan's rules as the operator sent them, checked: each a known category slug, period and scope, a whole limit
 * from 0 to MAX_LIMIT, and no two rules for the same category, period and scope (which would both have to hold, and
 * the smaller would hide the other). A 400 names the rule: `rules[2].limit`.
 */
export function checkedRules(rules: readonly RuleInput[]): readonly PlanRule[] {
  if (rules.length > MAX_RULES) throw new InputError('rules', `must hold at most ${MAX_RULES} rules`);
  const seen = new Set<string>();
  rules.forEach((rule, index) => {
    const at = `rules[${index}]`;
    if (!CATEGORY.test(rule.category))
      throw new InputError(`${at}.category`, 'must be 1 to 32 lowercase letters, digits or -');
    if (!(PERIODS as readonly string[]).includes(rule.per))
      throw new InputError(`${at}.per`, `must be one of ${PERIODS.join(', ')}`);
    if (!(SCOPES as readonly string[]).includes(rule.scope))
      throw new InputError(`${at}.scope`, `must be one of ${SCOPES.join(', ')}`);
    if (!Number.isInteger(rule.limit) || rule.limit < 0 || rule.limit > MAX_LIMIT)
      throw new InputError(`${at}.limit`, `must be a whole number from 0 to ${MAX_LIMIT}`);
    const key = `${rule.category}/${rule.per}/${rule.scope}`;
    if (seen.has(key))
      throw new InputError(
        at,
        `repeats the rule for ${rule.category} per ${rule.per} at ${rule.scope} scope`,
      );
    seen.add(key);
  });
  return rules as readonly PlanRule[];
}

/** The version in force at `instant`: the latest that took effect by then (versions in any order). */
export function versionAt<V extends { readonly effectiveFrom: number; readonly version: number }>(
  versions: readonly V[],
  instant: number,
): V | undefined {
  let found: V | undefined;
  for (const candidate of versions) {
    if (candidate.effectiveFrom > instant) continue;
    if (found === undefined || candidate.effectiveFrom > found.effectiveFrom) found = candidate;
    else if (candidate.effectiveFrom === found.effectiveFrom && candidate.version > found.version)
      found = candidate;
  }
  return found;
}

/**
 * When a new version (of a plan, of payout rules, of a member's plan) takes effect: the instant given, or now;
 * never before now, so nothing already decided changes.
 */
export function effectiveFrom(given: string | undefined, now: number): number {
  if (given === undefined) return now;
  const instant = parseInstant('effective_from', given);
  if (instant < now)
    throw new InputError('effective_from', 'must not be in the past: versions are never retroactive');
  return instant;
}
