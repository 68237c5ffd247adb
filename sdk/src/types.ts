/*
 * The wire shapes of the partner API, written out so the published types stand alone (no TypeBox, nothing of the
 * server). test/sdk/wire-types.test.ts holds each one equal to the type of the route schema the server validates
 * and serialises with: a change to the wire format that is not made here too fails the typecheck.
 */

/** POST /access/v1/validate body. `gympass_id` is an alias of `platform_id`; one of them is required. */
export interface ValidateRequestBody {
  platform_id?: string | null;
  gympass_id?: string | null;
  custom_code?: string | null;
}

interface SuccessMetadata {
  total: number;
  errors: 0;
}

/** The 200 body of validate. */
export interface ValidationResultBody {
  metadata: SuccessMetadata;
  results: {
    user: { platform_id: string; gympass_id?: string };
    gym: { Id: number; product: { Id: number; description: string } };
    validated_at: string;
  };
}
/** `results` of a validation: the member, the gym and product, and `validated_at`. */
export type ValidationDetails = ValidationResultBody['results'];

/** POST and PUT /access/v1/code/:platform_id body. */
export interface CustomCodeRequestBody {
  custom_code: string;
}
/** The 201/200 body of create and update: `results` is an empty object. */
export interface EmptyResultBody {
  metadata: SuccessMetadata;
  results: object;
}
/** GET /access/v1/code/:platform_id. */
export interface CustomCodeResultBody {
  metadata: SuccessMetadata;
  results: { platform_id: string; custom_code: string; updated_at: string };
}
export type CustomCode = CustomCodeResultBody['results'];

/** GET /access/v1/transactions query. */
export interface TransactionsQueryParams {
  from?: string;
  to?: string;
  limit?: string;
  cursor?: string;
  /** `desc`: newest first, to look at; the feed (the default) reads in commit order. */
  order?: 'asc' | 'desc';
  /** Visits only, or reversal entries only. */
  kind?: 'visit' | 'reversal';
}
export interface TransactionsPageBody {
  metadata: SuccessMetadata;
  results: {
    id: number;
    /** A visit, or a reversal that takes back (part of) one: negative payout_cents, with its reason. */
    kind: 'visit' | 'reversal';
    checkin_id: number;
    platform_id: string;
    product: { Id: number; description: string };
    payout_cents: number;
    currency: string;
    validated_at: string;
    /** A visit's validated_at; when a reversal was made. */
    effective_at: string;
    /** The visit a reversal reverses; null for a visit. */
    reverses: number | null;
    reason: string | null;
    /** How it was priced: its list price, what is paid (payout_cents), and the payout rule and version behind it. */
    pricing: {
      list_cents: number;
      paid_cents: number;
      rule: 'list' | 'monthly-cap' | 'volume-tier';
      version: number | null;
    };
  }[];
  /** On every page, the last one too. */
  next_cursor: string;
  has_more: boolean;
}
export type GymTransaction = TransactionsPageBody['results'][number];

/** The error bodies: the envelope, the 403 explicit deny, the 401 without a bearer token. */
export interface ErrorEnvelope {
  metadata: { total: 0; errors: 1 };
  errors: { message: string; key: string }[];
  request_id?: string;
}
export interface ExplicitDenyBody {
  metadata: { total: 0; errors: 1 };
  errors: { Message: string }[];
  Message: string;
}
export interface UnauthorizedBody {
  message: 'Unauthorized';
}

/**
 * A partner's compatibility profile, set by the operator: off by default, so the answers are the spec's.
 * `cancelled_spelling: 'canceled'` answers a cancelled check-in with key `checkin.validation.canceled` and message
 * "Check-In canceled"; `gym_from_key: true` lets a key limited to exactly one gym leave `X-Gym-Id` out.
 */
export interface CompatibilityProfile {
  cancelled_spelling: 'cancelled' | 'canceled';
  gym_from_key: boolean;
}

/** How a webhook endpoint signs and shapes its deliveries. */
export type WebhookFormat = 'standard' | 'wellhub';
export type WebhookEventType =
  | 'checkin.created'
  | 'checkin.cancelled'
  | 'checkin.validated'
  | 'custom_code.created'
  | 'custom_code.updated'
  | 'custom_code.deleted'
  | 'transaction.reversed';

/** A webhook endpoint and its health, as the integration check shows it. */
export interface WebhookHealth {
  id: number;
  url: string;
  format: WebhookFormat;
  status: 'enabled' | 'disabled';
  disabled_reason: 'gone' | 'failing' | 'offboarded' | null;
  /** The last delivery attempt (test events are not counted), null before the first. */
  last_attempt: { at: string; delivered: boolean; status_code: number | null; error: string | null } | null;
  /** Delivered ÷ attempted over the last 24 hours; null: none attempted. */
  success_rate_24h: number | null;
  pending: number;
}

/** GET /access/v1/integration: what the key reaches. */
export interface Integration {
  partner: { id: number; name: string; environment: 'live' | 'sandbox' };
  /** The key asking (null only in the operator's view). */
  key: { prefix: string; gym_ids: number[] | null } | null;
  /** The gyms the key may act on (X-Gym-Id), with the time zone of their local days. */
  gyms: { id: number; name: string; timezone: string }[];
  /** Requests per second per key; null: no limit. */
  rate_limit: { requests_per_second: number | null };
  compatibility: CompatibilityProfile;
  webhooks: WebhookHealth[];
}
export interface IntegrationResultBody {
  metadata: SuccessMetadata;
  results: Integration;
}

/** POST /access/v1/webhooks body. */
export interface WebhookEndpointRequestBody {
  url: string;
  event_types?: WebhookEventType[] | null;
  gym_ids?: number[] | null;
  format?: WebhookFormat;
  /** standard: whsec_ + base64 (made for you when absent); wellhub: your own, required. */
  secret?: string;
  timeout_ms?: number;
}
export interface WebhookEndpoint {
  id: number;
  partner_id: number;
  url: string;
  event_types: WebhookEventType[] | null;
  gym_ids: number[] | null;
  format: WebhookFormat;
  timeout_ms: number;
  status: 'enabled' | 'disabled';
  disabled_reason: 'gone' | 'failing' | 'offboarded' | null;
  created_at: string;
  updated_at: string;
}
/** The endpoint just registered, with its signing secret: shown this once. */
export interface CreatedWebhookEndpoint extends WebhookEndpoint {
  secret: string;
}
/** The 201 of POST /access/v1/webhooks. */
export interface CreatedWebhookEndpointBody {
  metadata: SuccessMetadata;
  results: CreatedWebhookEndpoint;
}

/** POST /access/v1/webhooks/:id/test: one signed attempt, made now. */
export interface TestEventOutcome {
  webhook_id: number;
  format: WebhookFormat;
  /** test.ping (standard format) or a checkin of the test member (wellhub format). */
  event_type: 'test.ping' | 'checkin';
  /** The webhook-id sent (standard format); null for the wellhub format. */
  event_id: string | null;
  /** A 2xx within the endpoint's timeout. */
  delivered: boolean;
  status_code: number | null;
  /** Why no answer came (refused, timed out …). */
  error: string | null;
  duration_ms: number;
  /** The first 512 bytes of the answer. */
  response_excerpt: string | null;
}
export interface TestEventOutcomeBody {
  metadata: SuccessMetadata;
  results: TestEventOutcome;
}
