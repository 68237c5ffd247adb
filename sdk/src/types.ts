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
