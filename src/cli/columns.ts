/**
 * The columns of each record the CLI lists, in the operator API's order: a CSV of an empty list still has its
 * header. Written out rather than read from the API's TypeBox schemas, because loading TypeBox costs a CLI call
 * about 200 ms; test/cli/columns.test.ts holds each list equal to its schema.
 */
const TRANSACTION = [
  'id',
  'kind',
  'checkin_id',
  'partner_id',
  'gym_id',
  'product_id',
  'platform_id',
  'payout_cents',
  'currency',
  'validated_at',
  'effective_at',
  'reverses',
  'reason',
] as const;

export const COLUMNS = {
  partner: ['id', 'name', 'offboarded_at', 'created_at'],
  gym: ['id', 'partner_id', 'name', 'timezone', 'retired_at', 'created_at'],
  product: ['id', 'gym_id', 'description', 'payout_cents', 'currency', 'retired_at', 'category'],
  operator: ['id', 'name', 'role', 'prefix', 'expires_at', 'revoked_at', 'created_by', 'created_at'],
  apiKey: ['id', 'prefix', 'label', 'gym_ids', 'expires_at', 'last_used_at', 'revoked_at', 'created_at'],
  checkin: [
    'id',
    'platform_id',
    'gym_id',
    'product_id',
    'status',
    'checked_in_at',
    'expires_at',
    'validated_at',
    'cancelled_at',
  ],
  plan: ['id', 'name', 'version', 'rules', 'effective_from'],
  memberPlan: ['platform_id', 'plan_id', 'effective_from', 'set_at'],
  payoutRules: ['version', 'monthly_paid_visits_per_member', 'tiers', 'effective_from'],
  transaction: TRANSACTION,
  /** A webhook delivery's attempts: a table shows fewer (`webhook attempts`), a CSV all of them. */
  deliveryAttempt: [
    'id',
    'delivery_id',
    'attempt',
    'attempted_at',
    'duration_ms',
    'status_code',
    'error',
    'request_body',
    'response_excerpt',
  ],
  /** A settlement's entries: `late` when taken by the close after their own period. */
  settledEntry: [...TRANSACTION, 'late'],
  /** A settlement's lines are listed by `settlement entries <id>`, not as columns. */
  settlement: [
    'id',
    'partner_id',
    'currency',
    'period_start',
    'period_end',
    'status',
    'total_cents',
    'count',
    'paid_at',
    'reference',
    'created_by',
    'created_at',
  ],
} as const;
