import { NETWORK, type NewEvent } from '../events.js';
import { formatInstant } from '../time-format.js';
import type { PlanVersion } from './plan.js';

/** `plan.changed`: a plan created (version 1) or versioned, with the version's rules as the API answers them. */
export function planChangedEvent(name: string, version: PlanVersion, now: number): NewEvent {
  return {
    type: 'plan.changed',
    occurredAt: now,
    partnerId: NETWORK,
    gymId: NETWORK,
    data: {
      plan_id: version.planId,
      name,
      version: version.version,
      rules: version.rules.map(({ category, per, limit, scope }) => ({ category, per, limit, scope })),
      effective_from: formatInstant(version.effectiveFrom),
    },
  };
}

/** `member.plan-changed`: a member put on a plan from an instant on. Erased with the member's other data. */
export function memberPlanChangedEvent(
  platformId: string,
  set: { readonly planId: number; readonly effectiveFrom: number },
  now: number,
): NewEvent {
  return {
    type: 'member.plan-changed',
    occurredAt: now,
    partnerId: NETWORK,
    gymId: NETWORK,
    data: { platform_id: platformId, plan_id: set.planId, effective_from: formatInstant(set.effectiveFrom) },
  };
}
