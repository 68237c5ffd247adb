import type { PlanRule } from './wire.js';
import { t } from './strings/index.js';

export type { Plan, PlanRule } from './wire.js';

export const PERIODS = ['day', 'week', 'month'] as const;
export const SCOPES = ['gym', 'partner', 'network'] as const;

/** A rule in plain words: "1 standard visit a day, network-wide"; "no premium visits" for a limit of 0. */
export function ruleWords(rule: PlanRule): string {
  return rule.limit === 0 ? t.plans.noVisits(rule.category) : t.plans.rule(rule);
}

/** A version's rules as one sentence; a plan with none includes nothing. */
export const rulesWords = (rules: readonly PlanRule[]) =>
  rules.length === 0 ? t.plans.nothing : rules.map(ruleWords).join('; ');
