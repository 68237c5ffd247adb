/**
 * The API bodies the console reads and sends, as it reads them: of each route's answer, the fields it uses. No JSX
 * here, so that the root typecheck can hold each one against the server's route schema
 * (test/console/wire-types.test.ts). Where the SDK already publishes a body, its type is taken from there.
 */

import type { GymTransaction, WebhookEndpoint } from '../../sdk/src/types.js';

export interface ErrorBody {
  errors?: { message?: string; Message?: string; key?: string }[];
  message?: string;
  Message?: string;
}

export interface Partner {
  id: number;
  name: string;
  offboarded_at: string | null;
  sandbox?: true;
}

export interface Gym {
  id: number;
  partner_id: number;
  name: string;
  timezone: string | null;
  retired_at: string | null;
}

export interface Product {
  id: number;
  description: string;
  payout_cents: number;
  currency: string;
  retired_at: string | null;
}

export interface ApiKey {
  id: number;
  prefix: string;
  label: string | null;
  gym_ids: number[] | null;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface IssuedKey extends ApiKey {
  key: string;
}

export interface CompatibilityProfile {
  partner_id: number;
  cancelled_spelling: 'cancelled' | 'canceled';
  gym_from_key: boolean;
}

export type Role = 'admin' | 'finance' | 'support' | 'member-app' | 'readonly';
export type Permission =
  | 'self'
  | 'read'
  | 'read-secret'
  | 'catalog'
  | 'keys'
  | 'checkins'
  | 'money'
  | 'webhooks'
  | 'members'
  | 'operators';

/** A webhook endpoint, as the SDK publishes it (its types are the server's too). */
export type Webhook = Omit<WebhookEndpoint, 'partner_id' | 'created_at' | 'updated_at'>;

export interface Delivery {
  id: number;
  event_id: string;
  event_type: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
  delivered_at: string | null;
  created_at: string;
}

/** One attempt of a delivery: its answer, its duration and the body it sent. */
export interface DeliveryAttempt {
  id: number;
  attempt: number;
  attempted_at: string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  request_body: string | null;
  response_excerpt: string | null;
}

/** An endpoint's health, from the partner's integration check. */
export interface WebhookHealth {
  id: number;
  last_attempt: { at: string; delivered: boolean; status_code: number | null; error: string | null } | null;
  success_rate_24h: number | null;
  pending: number;
}

/** How a test event went. */
export interface TestOutcome {
  webhook_id: number;
  event_type: 'test.ping' | 'checkin';
  delivered: boolean;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

/** How an entry was priced. */
export type Pricing = GymTransaction['pricing'];

/** A settlement line's entries under one rule: together the rules explain the line's total. */
export interface RulePricing {
  rule: Pricing['rule'];
  count: number;
  list_cents: number;
  paid_cents: number;
}

/** An entry of the operator's ledger: the fields it shares with the partner's feed, and whose it is. */
export interface LedgerEntry extends Pick<
  GymTransaction,
  | 'id'
  | 'kind'
  | 'platform_id'
  | 'payout_cents'
  | 'currency'
  | 'validated_at'
  | 'effective_at'
  | 'reverses'
  | 'reason'
  | 'pricing'
> {
  partner_id: number;
  gym_id: number;
  /** Present on visits with reversals: what they took back so far. */
  reversed_cents?: number;
  /** true on a sandbox partner's entry (asked for with sandbox=true): never money owed. */
  sandbox?: boolean;
}

export interface Payout {
  partner_id: number;
  gym_id: number;
  currency: string;
  count: number;
  reversals: number;
  payout_cents: number;
  /** Present on a sandbox partner's line (asked for with sandbox=true): never money owed. */
  sandbox?: true;
}

export interface Settlement {
  id: number;
  partner_id: number;
  currency: string;
  period_start: string;
  period_end: string;
  status: 'closed' | 'paid';
  total_cents: number;
  count: number;
  paid_at: string | null;
  reference: string | null;
  lines: { gym_id: number; count: number; total_cents: number; pricing: RulePricing[] }[];
}

export interface AuditEntry {
  id: number;
  actor: string;
  actor_id: number | null;
  action: string;
  entity: string;
  entity_id: string;
  at: string;
}

export interface Tally {
  count: number;
  payouts: { currency: string; payout_cents: number }[];
}

export interface ValidationStats {
  count: number;
  payouts: { currency: string; payout_cents: number }[];
  buckets: { start: string; count: number; payouts: { currency: string; payout_cents: number }[] }[];
  gyms: { gym_id: number; count: number; payouts: { currency: string; payout_cents: number }[] }[];
}

export interface StreamEvent {
  position: number;
  id: string;
  type: string;
  occurred_at: string;
  /** null for an event about the network (plan.changed, member.plan-changed). */
  partner_id: number | null;
  gym_id: number | null;
  data: Record<string, unknown> | null;
}

export interface Operator {
  id: number;
  name: string;
  role: Role;
  prefix: string;
  expires_at: string | null;
  revoked_at: string | null;
  created_by: string;
  created_at: string;
}

export interface CreatedOperator {
  id: number;
  name: string;
  token: string;
}

export interface Me {
  name: string | null;
  role: Role;
  permissions: Permission[];
  timezone: string;
}

export interface KeyGym {
  id: number;
  name: string;
  timezone: string;
}

export interface Erasure {
  pseudonym: string;
  erased: {
    checkins: number;
    events: number;
    webhook_deliveries: number;
    custom_codes: number;
    transactions: number;
    audit_entries: number;
    reversal_reasons: number;
  };
  not_reached: string[];
}

/** What the member app sent of a member (any field may be missing). */
export interface MemberDetails {
  first_name?: string;
  last_name?: string;
  email?: string;
  phone_number?: string;
}

export interface WaitingCheckin {
  id: number;
  platform_id: string;
  product: { Id: number; description: string };
  checked_in_at: string;
  expires_at: string;
  member?: MemberDetails;
}

/** A visit in the desk's day. */
export type DeskVisit = Pick<GymTransaction, 'id' | 'platform_id' | 'product' | 'validated_at'>;

export interface ValidationAnswer {
  results: { gym: { product: { description: string } } };
}

/** A check-in in the operator's list (a member's search). */
export interface ListedCheckin {
  id: number;
  platform_id: string;
  gym_id: number;
  status: 'pending' | 'validated' | 'cancelled' | 'expired';
  checked_in_at: string;
}

/**
 * A plan's rule as the API has it: `limit` visits of `category` per `per`, counted at `scope`. The API sends `per`
 * and `scope` as strings and answers only with rules it accepted: one of these.
 */
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

/** One version of an owner's payout rules. */
export interface PayoutRules {
  version: number;
  monthly_paid_visits_per_member: number | null;
  tiers: { after_cents: number; rate_pct: number }[];
  effective_from: string;
}
