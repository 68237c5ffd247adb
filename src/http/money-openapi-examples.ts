/** Real request and answer examples of the money routes (reversals, settlements), for /docs (see openapi-examples.ts). */
const REVERSAL_ENTRY = {
  id: 9,
  kind: 'reversal',
  checkin_id: 7,
  partner_id: 2,
  gym_id: 42,
  product_id: 2,
  platform_id: '1234567890123',
  payout_cents: -1500,
  currency: 'BRL',
  validated_at: '2026-11-23T12:00:02Z',
  effective_at: '2026-11-24T09:30:00Z',
  reverses: 5,
  reason: 'validated for the wrong member',
};

export const MONEY_REQUEST_EXAMPLES: Readonly<Record<string, Record<string, unknown>>> = {
  'POST /admin/v1/transactions/:transaction_id/reversals': { reason: 'validated for the wrong member' },
};

export const MONEY_PARAMETER_EXAMPLES: Readonly<Record<string, string>> = {
  transaction_id: '5',
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
};

export { REVERSAL_ENTRY };
