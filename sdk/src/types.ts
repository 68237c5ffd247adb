import type { Static } from 'typebox';
import type { ErrorEnvelopeSchema, ExplicitDenySchema, UnauthorizedSchema } from '../../src/http/schemas.js';
import type {
  CustomCodeBody,
  CustomCodeResult,
  EmptyResult,
  TransactionsPage,
  TransactionsQuery,
  ValidateBody,
  ValidationResult,
} from '../../src/partner-api/schemas.js';

/*
 * The wire shapes, derived from the very schemas the server validates and serialises with (type-only imports:
 * nothing of the server is loaded at run time). A change to a route schema is a type error here.
 */

/** POST /access/v1/validate body (spec §4.1). */
export type ValidateRequestBody = Static<typeof ValidateBody>;
/** The 200 body of validate (spec §2.3). */
export type ValidationResultBody = Static<typeof ValidationResult>;
/** `results` of a validation: the member, the gym and product, and `validated_at`. */
export type ValidationDetails = ValidationResultBody['results'];

/** POST and PUT /access/v1/code/:platform_id body (spec §4.2, §4.3). */
export type CustomCodeRequestBody = Static<typeof CustomCodeBody>;
/** The 201/200 body of create and update: `results` is an empty object. */
export type EmptyResultBody = Static<typeof EmptyResult>;
/** GET /access/v1/code/:platform_id (product.md §2.13). */
export type CustomCodeResultBody = Static<typeof CustomCodeResult>;
export type CustomCode = CustomCodeResultBody['results'];

/** GET /access/v1/transactions (product.md §2.13). */
export type TransactionsQueryParams = Static<typeof TransactionsQuery>;
export type TransactionsPageBody = Static<typeof TransactionsPage>;
export type GymTransaction = TransactionsPageBody['results'][number];

/** The error bodies (spec §2.4, §7; product.md §2.5). */
export type ErrorEnvelope = Static<typeof ErrorEnvelopeSchema>;
export type ExplicitDenyBody = Static<typeof ExplicitDenySchema>;
export type UnauthorizedBody = Static<typeof UnauthorizedSchema>;
