import { Type } from 'typebox';
import { CATEGORY_PATTERN, MAX_LIMIT, MAX_RULES } from '../domain/plans/plan.js';
import { Id, Name } from './schemas.js';

const Instant = Type.String({ description: 'ISO-8601 UTC with milliseconds' });
const EffectiveFrom = Type.Optional(
  Type.String({ description: 'When the version takes effect (ISO 8601): now when left out, never earlier' }),
);

/** Checked by the domain, which names the rule and field at fault (`rules[2].limit`). */
export const PlanRule = Type.Object({
  category: Type.String({ description: `A product's category: ${CATEGORY_PATTERN}` }),
  per: Type.String({ description: 'day (from local midnight), week (from Monday) or month (from the 1st)' }),
  limit: Type.Number({ description: `0 to ${MAX_LIMIT}; 0: the category is not included` }),
  scope: Type.String({ description: 'gym, partner or network: where the visits are counted' }),
});

const Rules = Type.Array(PlanRule, { maxItems: MAX_RULES });

export const PlanBody = Type.Object({ name: Name, rules: Rules, effective_from: EffectiveFrom });
export const PlanVersionBody = Type.Object({ rules: Rules, effective_from: EffectiveFrom });

const VersionFields = { version: Type.Integer({ minimum: 1 }), rules: Rules, effective_from: Instant };

/** A plan at one version: the one just made, or (when read) the latest. */
export const Plan = Type.Object({ id: Id, name: Type.String(), ...VersionFields });

/** A plan with every version, oldest first. */
export const PlanWithVersions = Type.Object({
  id: Id,
  name: Type.String(),
  ...VersionFields,
  versions: Type.Array(Type.Object(VersionFields)),
});

export const MemberPlanBody = Type.Object({ plan_id: Id, effective_from: EffectiveFrom });

export const MemberPlan = Type.Object({
  platform_id: Type.String(),
  plan_id: Id,
  effective_from: Instant,
  set_at: Instant,
});

export const MemberPlans = Type.Object({
  platform_id: Type.String(),
  plans: Type.Array(Type.Object({ plan_id: Id, effective_from: Instant, set_at: Instant })),
});
