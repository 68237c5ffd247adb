import type { PayoutRules } from '../domain/plans/payout-rules.js';
import type { Plan, PlanVersion } from '../domain/plans/plan.js';
import { formatInstant } from '../domain/time-format.js';

const versionFields = (version: PlanVersion) => ({
  version: version.version,
  rules: version.rules.map(({ category, per, limit, scope }) => ({ category, per, limit, scope })),
  effective_from: formatInstant(version.effectiveFrom),
});

/** A plan at one version (the one just made), as the operator API answers it and the CLI prints it. */
export const presentPlanVersion = (name: string, version: PlanVersion) => ({
  id: version.planId,
  name,
  ...versionFields(version),
});

/** A plan at its latest version, with every version. */
export function presentPlan(plan: Plan) {
  const latest = plan.versions.at(-1);
  if (latest === undefined) throw new Error(`plan ${plan.id} has no version`);
  return { ...presentPlanVersion(plan.name, latest), versions: plan.versions.map(versionFields) };
}

export const presentMemberPlan = (
  platformId: string,
  plan: { planId: number; effectiveFrom: number; setAt: number },
) => ({
  platform_id: platformId,
  plan_id: plan.planId,
  effective_from: formatInstant(plan.effectiveFrom),
  set_at: formatInstant(plan.setAt),
});

/** One version of payout rules. */
export const presentPayoutRules = (rules: PayoutRules) => ({
  version: rules.version,
  monthly_paid_visits_per_member: rules.monthlyPaidVisitsPerMember,
  tiers: rules.tiers.map((tier) => ({ after_cents: tier.afterCents, rate_pct: tier.ratePct })),
  effective_from: formatInstant(rules.effectiveFrom),
});
