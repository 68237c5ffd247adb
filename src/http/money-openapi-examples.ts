/** Real request and answer examples of the money routes (reversals, settlements), for /docs (see openapi-examples.ts). */
/** A visit's amount and times, the same in both APIs' view of its ledger entry. */
const VISIT_FIGURES = {
  payout_cents: 1500,
  currency: 'BRL',
  validated_at: '2026-11-23T12:00:02Z',
  effective_at: '2026-11-23T12:00:02Z',
  reverses: null,
  reason: null,
  pricing: { list_cents: 1500, paid_cents: 1500, rule: 'list', version: null },
};
/** A visit's ledger entry as the operator API shows it; the partner API's view of it is below. */
export const TRANSACTION = {
  id: 5,
  kind: 'visit',
  checkin_id: 7,
  partner_id: 2,
  gym_id: 42,
  product_id: 2,
  platform_id: '1234567890123',
  ...VISIT_FIGURES,
};
export const PARTNER_TRANSACTION = {
  id: 5,
  kind: 'visit',
  checkin_id: 7,
  platform_id: '1234567890123',
  product: { Id: 2, description: 'Day pass' },
  ...VISIT_FIGURES,
};
/** A visit past the member's monthly paid visits: listed at its price, paid 0. */
export const CAPPED_VISIT = {
  ...TRANSACTION,
  id: 6,
  checkin_id: 8,
  payout_cents: 0,
  pricing: { list_cents: 1500, paid_cents: 0, rule: 'monthly-cap', version: 2 },
};
export const REVERSAL_ENTRY = {
  ...TRANSACTION,
  id: 9,
  kind: 'reversal',
  payout_cents: -1500,
  effective_at: '2026-11-24T09:30:00Z',
  reverses: 5,
  reason: 'validated for the wrong member',
  pricing: { list_cents: -1500, paid_cents: -1500, rule: 'list', version: null },
};

const PERIOD = {
  currency: 'BRL',
  period_start: '2026-11-01T00:00:00.000Z',
  period_end: '2026-11-16T00:00:00.000Z',
  status: 'closed',
  total_cents: 45000,
  count: 31,
  lines: [
    {
      gym_id: 42,
      count: 31,
      total_cents: 45000,
      pricing: [
        { rule: 'list', count: 30, list_cents: 45000, paid_cents: 45000 },
        { rule: 'monthly-cap', count: 1, list_cents: 1500, paid_cents: 0 },
      ],
    },
  ],
  paid_at: null,
  reference: null,
};
const SETTLEMENT = {
  id: 3,
  partner_id: 2,
  ...PERIOD,
  created_by: 'operator:ana@example.com',
  created_at: '2026-11-16T09:00:00.000Z',
};
const PAID = { paid_at: '2026-11-17T15:00:00.000Z', reference: 'PIX E2E-20261117-0042' };
// The settled visit happened inside the period closed above.
const SETTLED_ON = { validated_at: '2026-11-03T12:00:02Z', effective_at: '2026-11-03T12:00:02Z' };
const VISIT = { ...TRANSACTION, ...SETTLED_ON, late: false };
const PARTNER_VISIT = { ...PARTNER_TRANSACTION, ...SETTLED_ON, late: false };

export const MONEY_REQUEST_EXAMPLES: Readonly<Record<string, Record<string, unknown>>> = {
  'POST /admin/v1/transactions/:transaction_id/reversals': { reason: 'validated for the wrong member' },
  'POST /admin/v1/settlements': { period_start: '2026-11-01', period_end: '2026-11-16' },
  'POST /admin/v1/settlements/:settlement_id/paid': { reference: 'PIX E2E-20261117-0042' },
};

export const MONEY_PARAMETER_EXAMPLES: Readonly<Record<string, string>> = {
  transaction_id: '5',
  settlement_id: '3',
};

export const MONEY_RESPONSE_EXAMPLES: Readonly<Record<string, unknown>> = {
  'POST /admin/v1/transactions/:transaction_id/reversals 201': {
    id: 9,
    transaction_id: 5,
    kind: 'reversal',
    amount_cents: -1500,
    currency: 'BRL',
    reason: 'validated for the wrong member',
    effective_at: '2026-11-24T09:30:00.000Z',
    created_by: 'operator:ana@example.com',
  },
  'POST /admin/v1/settlements 201': { items: [SETTLEMENT], next_cursor: null },
  'GET /admin/v1/settlements 200': { items: [{ ...SETTLEMENT, ...PAID, status: 'paid' }], next_cursor: null },
  'POST /admin/v1/settlements/:settlement_id/paid 200': { ...SETTLEMENT, ...PAID, status: 'paid' },
  'GET /admin/v1/settlements/:settlement_id/entries 200': { items: [VISIT], next_cursor: null },
  'GET /access/v1/settlements 200': {
    metadata: { total: 1, errors: 0 },
    results: [{ id: 3, ...PERIOD }],
    next_cursor: null,
  },
  'GET /access/v1/settlements/:settlement_id/entries 200': {
    metadata: { total: 1, errors: 0 },
    results: [PARTNER_VISIT],
  },
};
