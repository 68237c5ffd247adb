import type { FastifyInstance } from 'fastify';
import type { TSchema } from 'typebox';
import {
  CheckinValidatedConflictError,
  CustomCodeNotFoundError,
  DailyLimitError,
  EntityExistsError,
  EntityNotFoundError,
  RetiredError,
  WebhookLimitError,
  AppError,
  RateLimitedError,
} from '../domain/errors.js';
import { OverReversedError } from '../domain/decisions/reversal.js';
import { OperatorDisabledError, OwnRoleError } from '../domain/operator-role-change.js';
import { SettlementOverlapError, SettlementPaidError } from '../domain/settlement.js';
import { PlanLimitReachedError, PlanNotIncludedError } from '../domain/plans/admission.js';
import { ConflictEnvelopeSchema, ErrorEnvelopeSchema } from '../http/schemas.js';
import { badInputExample, type InputSchemas } from './bad-input-example.js';

/** What a path parameter names: its record missing is the route's 404. */
const PARAMETER_ENTITIES: Readonly<Record<string, string>> = {
  partner_id: 'partner',
  gym_id: 'gym',
  product_id: 'product',
  key_id: 'key',
  checkin_id: 'checkin',
  transaction_id: 'transaction',
  settlement_id: 'settlement',
  webhook_id: 'webhook',
  delivery_id: 'delivery',
  operator_id: 'operator',
};

const OPERATOR_EXISTS = new AppError(
  409,
  'operator.already-exists',
  'an operator with this name exists: revoke it first',
);

/**
 * The 404s and 409s of the routes that answer more than their path's missing record: records the body names, and
 * each conflict the route's rule can meet (the services throw them; this lists them for the OpenAPI document).
 */
const ROUTE_ERRORS: Readonly<Record<string, readonly AppError[]>> = {
  'POST /admin/v1/gyms': [new EntityNotFoundError('partner'), new EntityExistsError('gym')],
  'POST /admin/v1/gyms/:gym_id/products': [new EntityExistsError('product')],
  'POST /admin/v1/checkins': [
    new EntityNotFoundError('gym'),
    new EntityNotFoundError('product'),
    new RetiredError('gym'),
    new RetiredError('product'),
    new DailyLimitError(),
    new PlanNotIncludedError({ category: 'premium' }),
    new PlanLimitReachedError({
      category: 'standard',
      per: 'day',
      scope: 'network',
      limit: 1,
      used: 1,
      resets_at: '2026-11-28T03:00:00.000Z',
    }),
  ],
  'POST /admin/v1/checkins/:checkin_id/cancel': [new CheckinValidatedConflictError()],
  'POST /admin/v1/transactions/:transaction_id/reversals': [new OverReversedError(300)],
  'POST /admin/v1/settlements': [new EntityNotFoundError('partner'), new SettlementOverlapError(2)],
  'POST /admin/v1/settlements/:settlement_id/paid': [new SettlementPaidError()],
  'POST /admin/v1/partners/:partner_id/webhooks': [new WebhookLimitError(10)],
  'POST /admin/v1/operators': [OPERATOR_EXISTS],
  'PATCH /admin/v1/operators/:operator_id': [new OperatorDisabledError(), new OwnRoleError()],
  'GET /admin/v1/custom-codes': [new CustomCodeNotFoundError()],
};

/** Routes whose path parameter names no record that must exist (erasing a member with no data erases nothing). */
const NO_RECORD_PARAMETERS = new Set(['POST /admin/v1/members/:platform_id/erase']);

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

const envelope = (error: AppError) => ({
  metadata: { total: 0, errors: 1 },
  errors: [
    error.details === undefined
      ? { message: error.message, key: error.key }
      : { message: error.message, key: error.key, details: error.details },
  ],
});

/**
 * The error statuses one operator route can answer, each with an example of its own: 401, 403, 429, 500 and 503 on
 * every route (credentials, role, an address past its failed sign-in budget, the unexpected, the database); 400 when it takes input, with its likeliest mistake
 * (badInputExample); 413 when a body may come (DELETE's too), 415 when one is parsed; 404 for the records its path and
 * body name; 409 for its own conflicts. 405 belongs to the other methods of its path, not to it.
 */
export function operatorRouteErrors(
  method: string,
  url: string,
  schema: InputSchemas,
): Record<number, TSchema> {
  const key = `${method} ${url}`;
  const named = [...url.matchAll(/:([a-z_]+)/g)]
    .map((match) => PARAMETER_ENTITIES[match[1] ?? ''])
    .filter((entity): entity is string => entity !== undefined && !NO_RECORD_PARAMETERS.has(key));
  const own = ROUTE_ERRORS[key] ?? [];
  const missing = [
    ...named.map((entity) => new EntityNotFoundError(entity)),
    ...own.filter((e) => e.statusCode === 404),
  ];
  const conflicts = own.filter((error) => error.statusCode === 409);
  const statuses: number[] = [401, 403, 500, 503];
  if (WITH_BODY.has(method) || method === 'DELETE') statuses.push(413);
  if (WITH_BODY.has(method)) statuses.push(415);
  const answers: Record<number, TSchema> = Object.fromEntries(
    statuses.map((status) => [status, ErrorEnvelopeSchema]),
  );
  const withExamples = (errors: AppError[]) => ({ ...ErrorEnvelopeSchema, examples: errors.map(envelope) });
  const bad = badInputExample(method, url, schema);
  if (bad !== undefined) answers[400] = withExamples([bad]);
  if (missing.length > 0) answers[404] = withExamples(missing);
  // The operator API's 409 may carry the refusal's details (a plan's rule, the count, when it resets).
  if (conflicts.length > 0) answers[409] = { ...ConflictEnvelopeSchema, examples: conflicts.map(envelope) };
  // Every route authenticates: an address that keeps failing to is turned away before, with Retry-After.
  answers[429] = withExamples([new RateLimitedError(60)]);
  return answers;
}

/**
 * Replaces the shared error answers an operator route declares (`operatorErrorResponses`) with the ones it can
 * answer (operatorRouteErrors); answers a route declares itself are kept. Call before the routes.
 */
export function declareRouteErrors(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const response = route.schema?.response as Record<string, unknown> | undefined;
    if (route.schema === undefined || response === undefined) return;
    const method = [route.method].flat()[0] ?? '';
    const shared = Object.keys(response).filter(
      (status) => response[status] === ErrorEnvelopeSchema || response[status] === ConflictEnvelopeSchema,
    );
    if (shared.length === 0) return;
    const kept = Object.fromEntries(Object.entries(response).filter(([status]) => !shared.includes(status)));
    route.schema = {
      ...route.schema,
      response: { ...kept, ...operatorRouteErrors(method, route.url, route.schema) },
    };
  });
}
