import { ConflictError } from '../errors.js';
import { formatInstant } from '../time-format.js';
import type { PlanRule, PlanVersion } from './plan.js';
import { periodBounds } from './windows.js';

/**
 * How far back a creation reads the member's validated visits: the longest period (a month, 31 days) seen from any
 * time zone (UTC−12 to UTC+14), with a day to spare.
 */
export const USAGE_LOOKBACK_MS = 33 * 86_400_000;

/** A check-in of the member's that may use up a plan's visits: its gym, partner, category and where it stands. */
export interface PlanUsage {
  readonly id: number;
  readonly gymId: number;
  readonly partnerId: number;
  readonly category: string;
  readonly status: string;
  readonly checkedInAt: number;
  readonly expiresAt: number;
  readonly validatedAt: number | null;
}

export interface Admission {
  /** The member's plan version in force at `now`. */
  readonly plan: PlanVersion;
  /** The new check-in's product category, gym and partner, and the gym's time zone (the network's if it has none). */
  readonly category: string;
  readonly gymId: number;
  readonly partnerId: number;
  readonly timeZone: string;
  readonly now: number;
}

/** `checkin.plan.not-included`: the member's plan does not open this product's category. */
export class PlanNotIncludedError extends ConflictError {
  constructor(override readonly details: { readonly category: string }) {
    super('checkin.plan.not-included', `the member's plan does not include ${details.category}`);
  }
}

export interface LimitDetails {
  readonly category: string;
  readonly per: PlanRule['per'];
  readonly scope: PlanRule['scope'];
  readonly limit: number;
  readonly used: number;
  /** When the period ends and the count starts again (ISO 8601, UTC). */
  readonly resets_at: string;
}

/** `checkin.plan.limit-reached`: a rule of the plan has no visit left in its period; the details say which. */
export class PlanLimitReachedError extends ConflictError {
  constructor(override readonly details: LimitDetails) {
    super(
      'checkin.plan.limit-reached',
      `plan limit reached: ${details.used} of ${details.limit} ${details.category} visits per ${details.per}` +
        ` (${details.scope}), until ${details.resets_at}`,
    );
  }
}

/**
 * The member's check-ins that use up visits at `now`: every validated visit (at its validation instant), and at each
 * other gym the latest check-in if it is still pending and unexpired (an earlier one there is superseded by it, as
 * validate sees it). At the new check-in's own gym a pending one is superseded by the new one: it does not count.
 */
export function countedUsage(
  usage: readonly PlanUsage[],
  admission: Admission,
): { at: number; item: PlanUsage }[] {
  const latestByGym = new Map<number, PlanUsage>();
  for (const item of usage) {
    const latest = latestByGym.get(item.gymId);
    const later =
      latest === undefined ||
      item.checkedInAt > latest.checkedInAt ||
      (item.checkedInAt === latest.checkedInAt && item.id > latest.id);
    if (later) latestByGym.set(item.gymId, item);
  }
  const counted: { at: number; item: PlanUsage }[] = [];
  for (const item of usage) {
    if (item.status === 'validated' && item.validatedAt !== null)
      counted.push({ at: item.validatedAt, item });
  }
  for (const [gymId, latest] of latestByGym) {
    const waiting = latest.status === 'pending' && latest.expiresAt > admission.now;
    // Were it validated, it would be now or later: it uses a visit of the period that holds now.
    if (waiting && gymId !== admission.gymId) counted.push({ at: admission.now, item: latest });
  }
  return counted;
}

function inScope(rule: PlanRule, item: PlanUsage, admission: Admission): boolean {
  if (rule.scope === 'gym') return item.gymId === admission.gymId;
  if (rule.scope === 'partner') return item.partnerId === admission.partnerId;
  return true;
}

/**
 * Check-in creation under a plan: the product's category must be in the plan (a rule for it with a limit above 0),
 * and every rule for it must have a visit left in its period, counted in the gym's time zone. The first rule that
 * has none refuses, with what it counted and when it resets.
 */
export function decideAdmission(admission: Admission, usage: readonly PlanUsage[]): void {
  const rules = admission.plan.rules.filter((rule) => rule.category === admission.category);
  if (rules.length === 0 || rules.some((rule) => rule.limit === 0))
    throw new PlanNotIncludedError({ category: admission.category });
  // Nothing used (a member's first visit in a month, most often): every rule has a visit left.
  if (usage.length === 0) return;
  const counted = countedUsage(usage, admission).filter(({ item }) => item.category === admission.category);
  for (const rule of rules) {
    const period = periodBounds(rule.per, admission.now, admission.timeZone);
    const used = counted.filter(
      ({ at, item }) => at >= period.start && at < period.end && inScope(rule, item, admission),
    ).length;
    if (used >= rule.limit) {
      throw new PlanLimitReachedError({
        category: rule.category,
        per: rule.per,
        scope: rule.scope,
        limit: rule.limit,
        used,
        resets_at: formatInstant(period.end),
      });
    }
  }
}
