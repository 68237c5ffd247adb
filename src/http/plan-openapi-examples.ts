/** Real request and answer examples of the plan and payout-rule routes, for /docs (see openapi-examples.ts). */
const RULES = [
  { category: 'standard', per: 'day', limit: 1, scope: 'network' },
  { category: 'premium', per: 'month', limit: 4, scope: 'partner' },
];
const VERSION_1 = { version: 1, rules: RULES, effective_from: '2026-11-23T12:00:00.000Z' };
const VERSION_2 = {
  version: 2,
  rules: [RULES[0], { ...RULES[1], limit: 8 }],
  effective_from: '2026-12-01T03:00:00.000Z',
};
const PLAN = { id: 3, name: 'Gold', ...VERSION_1 };
const PAYOUT_RULES = {
  monthly_paid_visits_per_member: 8,
  tiers: [{ after_cents: 1_000_000, rate_pct: 90 }],
};
const PAYOUT_VERSION = { version: 1, ...PAYOUT_RULES, effective_from: '2026-12-01T03:00:00.000Z' };
const MEMBER_PLAN = {
  plan_id: 3,
  effective_from: '2026-11-23T12:00:00.000Z',
  set_at: '2026-11-23T12:00:00.000Z',
};

export const PLAN_REQUEST_EXAMPLES: Readonly<Record<string, Record<string, unknown>>> = {
  'POST /admin/v1/plans': { name: 'Gold', rules: RULES },
  'PUT /admin/v1/plans/:plan_id': { rules: VERSION_2.rules, effective_from: VERSION_2.effective_from },
  'PUT /admin/v1/members/:platform_id/plan': { plan_id: 3 },
  'PUT /admin/v1/partners/:partner_id/payout-rules': {
    ...PAYOUT_RULES,
    effective_from: PAYOUT_VERSION.effective_from,
  },
  'PUT /admin/v1/gyms/:gym_id/payout-rules': { monthly_paid_visits_per_member: 4, tiers: [] },
};

export const PLAN_PARAMETER_EXAMPLES: Readonly<Record<string, string>> = { plan_id: '3' };

export const PLAN_RESPONSE_EXAMPLES: Readonly<Record<string, unknown>> = {
  'POST /admin/v1/plans 201': PLAN,
  'POST /admin/v1/plans 409': {
    metadata: { total: 0, errors: 1 },
    errors: [{ message: 'plan already exists', key: 'plan.already-exists' }],
  },
  'GET /admin/v1/plans 200': { items: [{ ...PLAN, versions: [VERSION_1] }], next_cursor: null },
  'GET /admin/v1/plans/:plan_id 200': { ...PLAN, ...VERSION_2, versions: [VERSION_1, VERSION_2] },
  'PUT /admin/v1/plans/:plan_id 200': { ...PLAN, ...VERSION_2 },
  'PUT /admin/v1/members/:platform_id/plan 200': { platform_id: '1234567890123', ...MEMBER_PLAN },
  'GET /admin/v1/members/:platform_id/plan 200': { platform_id: '1234567890123', plans: [MEMBER_PLAN] },
  'GET /admin/v1/partners/:partner_id/payout-rules 200': { versions: [PAYOUT_VERSION] },
  'PUT /admin/v1/partners/:partner_id/payout-rules 200': PAYOUT_VERSION,
  'GET /admin/v1/gyms/:gym_id/payout-rules 200': {
    versions: [
      {
        version: 1,
        monthly_paid_visits_per_member: 4,
        tiers: [],
        effective_from: '2026-11-23T12:00:00.000Z',
      },
    ],
  },
  'PUT /admin/v1/gyms/:gym_id/payout-rules 200': {
    version: 1,
    monthly_paid_visits_per_member: 4,
    tiers: [],
    effective_from: '2026-11-23T12:00:00.000Z',
  },
};
