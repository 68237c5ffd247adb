import type { Generated, Insertable, Selectable } from 'kysely';
import type { CheckinStatus } from '../domain/checkin-condition.js';

/** Every time column holds UTC epoch milliseconds (bigint); money is integer cents plus an ISO currency. */
export interface PartnersTable {
  id: Generated<number>;
  name: string;
  created_at: number;
  offboarded_at: number | null;
  /** 1: a sandbox partner, whose keys start ghk_test_ and whose visits never count in payouts. */
  sandbox: Generated<number>;
  /** The compatibility profile (src/domain/compatibility.ts): 'cancelled' (the spec's) or 'canceled'. */
  cancelled_spelling: Generated<string>;
  /** 1: a key limited to one gym may leave X-Gym-Id out. */
  gym_from_key: Generated<number>;
}

/** Gym ids are assigned by the provider: they are the `X-Gym-Id` partners send. */
export interface GymsTable {
  id: number;
  partner_id: number;
  name: string;
  created_at: number;
  /** IANA name; null: the server's GATEHOUSE_TIMEZONE. */
  timezone: string | null;
  retired_at: number | null;
}

export interface ProductsTable {
  id: Generated<number>;
  gym_id: number;
  description: string;
  payout_cents: number;
  currency: string;
  created_at: number;
  retired_at: number | null;
  /** A short slug plans name (src/domain/plans/plan.ts); 'standard' unless the operator says otherwise. */
  category: Generated<string>;
}

export type KeyScope = 'all' | 'list';

export interface ApiKeysTable {
  id: Generated<number>;
  partner_id: number;
  prefix: string;
  key_hash: string;
  label: string | null;
  scope: KeyScope;
  expires_at: number | null;
  revoked_at: number | null;
  last_used_at: number | null;
  created_at: number;
}

export interface ApiKeyGymsTable {
  key_id: number;
  gym_id: number;
}

export interface CheckinsTable {
  id: Generated<number>;
  platform_id: string;
  gym_id: number;
  product_id: number;
  status: CheckinStatus;
  checked_in_at: number;
  expires_at: number;
  validated_at: number | null;
  cancelled_at: number | null;
  created_at: number;
  /** JSON of the member's details (src/domain/member-details.ts); null when none were given or once erased. */
  member: string | null;
  /** The plan and version the check-in was decided under; null when the member had none. */
  plan_id: number | null;
  plan_version: number | null;
  /**
   * A visit priced under payout rules: the month and the rules' scope (0 the partner's, else the gym's) it counts
   * toward the member's cap under; null when counted under none, or on the member's counter row (0019-visit-marks).
   */
  counted_month: string | null;
  counted_scope: number | null;
}

export interface CustomCodesTable {
  gym_id: number;
  platform_id: string;
  code: string;
  created_at: number;
  updated_at: number;
}

export interface TransactionsTable {
  id: Generated<number>;
  checkin_id: number;
  partner_id: number;
  gym_id: number;
  product_id: number;
  platform_id: string;
  payout_cents: number;
  currency: string;
  validated_at: number;
  /** The list price; null in rows of a release before pricing, which paid the list price. */
  list_cents: number | null;
  /** Why the visit is paid what it is: list, monthly-cap or volume-tier. */
  pricing_rule: Generated<string>;
  /** The payout rules' version that priced it; null: none was in force. */
  rule_version: number | null;
  /**
   * The partner feed reads in (commit_order, id) order: on PostgreSQL the id of the transaction that wrote the row,
   * on SQLite 0, whose single writer commits in id order (src/store/commit-horizon.ts).
   */
  commit_order: Generated<number>;
}

/** A correcting ledger entry: its id is from the transactions' id space (migration 0007). */
export interface ReversalsTable {
  id: number;
  transaction_id: number;
  partner_id: number;
  gym_id: number;
  payout_cents: number;
  currency: string;
  reason: string;
  effective_at: number;
  created_by: string;
  commit_order: Generated<number>;
}

export interface SettlementsTable {
  id: Generated<number>;
  partner_id: number;
  currency: string;
  period_start: number;
  period_end: number;
  status: string;
  total_cents: number;
  count: number;
  created_by: string;
  created_at: number;
  paid_at: number | null;
  paid_reference: string | null;
  paid_by: string | null;
}

export interface SettlementEntriesTable {
  entry_id: number;
  settlement_id: number;
  gym_id: number;
  payout_cents: number;
}

export interface EventsTable {
  /** Followed without missing a row: SQLite's rowid, or from PostgreSQL's transaction id (src/store/commit-horizon.ts). */
  position: Generated<number>;
  id: string;
  type: string;
  occurred_at: number;
  partner_id: number;
  gym_id: number;
  /** JSON text; null once purged. */
  data: string | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  actor: string;
  action: string;
  entity: string;
  entity_id: string;
  at: number;
  /** The named operator's id (null for the environment's tokens, keys, gatehouse itself and older rows). */
  actor_id: number | null;
}

export interface OperatorsTable {
  id: Generated<number>;
  name: string;
  role: string;
  prefix: string;
  token_hash: string;
  expires_at: number | null;
  revoked_at: number | null;
  created_by: string;
  created_at: number;
}

/** Secrets the server makes for itself once (the key of erased members' pseudonyms). */
export interface ServerSecretsTable {
  name: string;
  value: string;
  created_at: number;
}

export interface WebhookEndpointsTable {
  id: Generated<number>;
  partner_id: number;
  url: string;
  /** JSON arrays; null: every type, every gym of the partner. */
  event_types: string | null;
  gym_ids: string | null;
  format: string;
  timeout_ms: number;
  /** Sealed (src/domain/webhooks/secret-box.ts). */
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: number | null;
  status: string;
  disabled_reason: string | null;
  failing_since: number | null;
  from_position: number;
  created_at: number;
  updated_at: number;
}

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  endpoint_id: number;
  event_position: number;
  event_id: string;
  event_type: string;
  member_key: string;
  status: string;
  attempts: Generated<number>;
  round_failures: Generated<number>;
  next_attempt_at: number;
  claimed_until: number | null;
  last_status_code: number | null;
  last_error: string | null;
  last_attempt_at: number | null;
  delivered_at: number | null;
  created_at: number;
}

/** One attempt of a delivery (migration 0016). */
export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  attempt: number;
  attempted_at: number;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  request_body: string | null;
  response_excerpt: string | null;
}

export interface WebhookDispatchTable {
  id: number;
  position: number;
  purged_position: number;
}

/** Where the broker feed stands in the event log, per stream: it resumes after this position. */
export interface NatsFeedTable {
  stream: string;
  position: number;
  updated_at: number;
}

/** PostgreSQL only, one row: added to transaction ids where positions are made (src/store/commit-horizon.ts). */
export interface TransactionIdOffsetTable {
  id: number;
  xid_offset: number;
}

/** One row per running `serve` process: its delivery settings, seen again every minute while it runs. */
export interface ProcessSettingsTable {
  process_id: string;
  fingerprint: string;
  /** JSON: each delivery setting's value as shown in a warning (a secret only as a digest). */
  settings: string;
  started_at: number;
  seen_at: number;
}

export interface PlansTable {
  id: Generated<number>;
  name: string;
  created_at: number;
}

/** A plan's versions, each in force from `effective_from` until the next one's. */
export interface PlanVersionsTable {
  plan_id: number;
  version: number;
  /** JSON: [{category, per, limit, scope}] */
  rules: string;
  effective_from: number;
  created_at: number;
}

/** A member's plans over time: the latest row in force at an instant is the member's plan then. */
export interface MemberPlansTable {
  id: Generated<number>;
  platform_id: string;
  plan_id: number;
  effective_from: number;
  created_at: number;
}

/** Payout rules' versions: a partner's (gym_id 0), or one gym's override of them. */
export interface PayoutRulesTable {
  partner_id: number;
  gym_id: number;
  version: number;
  monthly_paid_visits_per_member: number | null;
  /** JSON: [{after_cents, rate_pct}] */
  tiers: string;
  effective_from: number;
  created_at: number;
}

/** The month's counts payout rules are decided from (migration 0015): see payout-counter-repository.ts. */
export interface PayoutCountersTable {
  partner_id: number;
  month: string;
  gym_id: number;
  platform_id: string;
  visits: number;
  paid_cents: number;
}

/** A process on the database, the release it runs (its newest migration), and when it last said it was alive. */
export interface ProcessesTable {
  id: string;
  newest_migration: string;
  started_at: number;
  heartbeat_at: number;
}

/** SQLite's count of announced key changes (migration 0022): one row, bumped by each. */
export interface KeyAnnouncementsTable {
  id: number;
  version: number;
}

export interface Database {
  key_announcements: KeyAnnouncementsTable;
  process_settings: ProcessSettingsTable;
  processes: ProcessesTable;
  plans: PlansTable;
  plan_versions: PlanVersionsTable;
  member_plans: MemberPlansTable;
  payout_rules: PayoutRulesTable;
  payout_counters: PayoutCountersTable;
  transaction_id_offset: TransactionIdOffsetTable;
  nats_feed: NatsFeedTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  webhook_dispatch: WebhookDispatchTable;
  operators: OperatorsTable;
  server_secrets: ServerSecretsTable;
  audit_log: AuditLogTable;
  events: EventsTable;
  partners: PartnersTable;
  gyms: GymsTable;
  products: ProductsTable;
  api_keys: ApiKeysTable;
  api_key_gyms: ApiKeyGymsTable;
  checkins: CheckinsTable;
  custom_codes: CustomCodesTable;
  transactions: TransactionsTable;
  reversals: ReversalsTable;
  settlements: SettlementsTable;
  settlement_entries: SettlementEntriesTable;
}

export type PartnerRow = Selectable<PartnersTable>;
export type GymRow = Selectable<GymsTable>;
export type ProductRow = Selectable<ProductsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type CheckinRow = Selectable<CheckinsTable>;
export type NewCheckin = Insertable<CheckinsTable>;
export type CustomCodeRow = Selectable<CustomCodesTable>;
export type TransactionRow = Selectable<TransactionsTable>;
