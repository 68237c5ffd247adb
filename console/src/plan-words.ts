import type { PlanRule } from './wire.js';

export type { Plan, PlanRule } from './wire.js';

export const PERIODS = ['day', 'week', 'month'] as const;
export const SCOPES = ['gym', 'partner', 'network'] as const;

const WHERE: Readonly<Record<PlanRule['scope'], string>> = {
  gym: 'at each gym',
  partner: "across each partner's gyms",
  network: 'network-wide',
};

/** A rule in plain words: "1 standard visit a day, network-wide"; "no premium visits" for a limit of 0. */
export function ruleWords(rule: PlanRule): string {
  if (rule.limit === 0) return `no ${rule.category} visits`;
  const visits = rule.limit === 1 ? 'visit' : 'visits';
  return `${rule.limit} ${rule.category} ${visits} a ${rule.per}, ${WHERE[rule.scope]}`;
}

/** A version's rules as one sentence; a plan with none includes nothing. */
export const rulesWords = (rules: readonly PlanRule[]) =>
  rules.length === 0 ? 'nothing included' : rules.map(ruleWords).join('; ');
