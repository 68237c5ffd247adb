/** A plan's rule as the API has it: `limit` visits of `category` per `per`, counted at `scope`. */
export interface PlanRule {
  category: string;
  per: 'day' | 'week' | 'month';
  limit: number;
  scope: 'gym' | 'partner' | 'network';
}

export interface Plan {
  id: number;
  name: string;
  version: number;
  rules: PlanRule[];
  effective_from: string;
  versions: { version: number; rules: PlanRule[]; effective_from: string }[];
}

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
