import { StreamLimitError } from '../domain/errors.js';
import { BODY_TOO_LARGE_MESSAGE } from './body-limit.js';
import {
  MONEY_PARAMETER_EXAMPLES,
  MONEY_REQUEST_EXAMPLES,
  MONEY_RESPONSE_EXAMPLES,
  PARTNER_TRANSACTION,
  CAPPED_VISIT,
  REVERSAL_ENTRY,
  TRANSACTION,
} from './money-openapi-examples.js';
import {
  PLAN_PARAMETER_EXAMPLES,
  PLAN_REQUEST_EXAMPLES,
  PLAN_RESPONSE_EXAMPLES,
} from './plan-openapi-examples.js';
import {
  WEBHOOK_PARAMETER_EXAMPLES,
  WEBHOOK_REQUEST_EXAMPLES,
  WEBHOOK_RESPONSE_EXAMPLES,
} from './webhook-openapi-examples.js';

/**
 * A real request body for each route that takes one, keyed `METHOD url` as the route is registered. /docs
 * pre-fills "Try it out" with it, instead of strings Swagger UI makes up from the patterns (a custom code like
 * `U;yY5WJ[q</_P`). test/docs/openapi-examples.test.ts checks that every body and parameter has one, and that
 * each is valid.
 */
export const REQUEST_EXAMPLES: Readonly<Record<string, Record<string, unknown>>> = {
  'POST /access/v1/validate': { platform_id: '1234567890123', custom_code: '4321' },
  'POST /access/v1/code/:platform_id': { custom_code: '4321' },
  'PUT /access/v1/code/:platform_id': { custom_code: '9876' },
  'POST /admin/v1/partners': { name: 'Acme Fitness' },
  'PATCH /admin/v1/partners/:partner_id': { name: 'Acme Fitness Brasil' },
  'PATCH /admin/v1/gyms/:gym_id': { name: 'Acme Downtown (Paulista)', timezone: 'America/Sao_Paulo' },
  'PATCH /admin/v1/products/:product_id': { payout_cents: 1800 },
  'POST /admin/v1/gyms': { id: 42, partner_id: 2, name: 'Acme Downtown', timezone: 'America/Sao_Paulo' },
  'POST /admin/v1/gyms/:gym_id/products': { description: 'Day pass', payout_cents: 1500, currency: 'BRL' },
  'POST /admin/v1/partners/:partner_id/keys': { label: 'front desk', gym_ids: [42], expires_at: null },
  'POST /admin/v1/checkins': {
    platform_id: '1234567890123',
    gym_id: 42,
    product_id: 2,
    member: {
      first_name: 'Ana',
      last_name: 'Souza',
      email: 'ana@example.com',
      phone_number: '+5511999990000',
    },
  },
  'POST /access/v1/sandbox/checkins': {
    platform_id: '1234567890123',
    member: {
      first_name: 'Ana',
      last_name: 'Souza',
      email: 'ana@example.com',
      phone_number: '+5511999990000',
    },
  },
  'POST /helper/v1/gyms/:gym_id/simulate/checkins': { gympass_user_id: '1234567890123', product_id: 2 },
  'POST /admin/v1/operators': { name: 'ana@example.com', role: 'support', expires_at: '2027-06-01' },
  'PATCH /admin/v1/operators/:operator_id': { role: 'finance' },
  ...WEBHOOK_REQUEST_EXAMPLES,
  ...MONEY_REQUEST_EXAMPLES,
  ...PLAN_REQUEST_EXAMPLES,
};

/**
 * A real value for each path, query and header parameter, by name (they mean the same on every route): /docs
 * fills "Try it out" with these. The cursor is a real one: the page after id 100.
 */
export const PARAMETER_EXAMPLES: Readonly<Record<string, string>> = {
  'x-gym-id': '42',
  platform_id: '1234567890123',
  partner_id: '2',
  gym_id: '42',
  key_id: '3',
  checkin_id: '7',
  product_id: '2',
  from: '2026-11-01',
  to: '2026-12-01',
  limit: '100',
  cursor: 'YWZ0ZXI6MTAw',
  status: 'pending',
  format: 'json',
  entity: 'key',
  after: '120',
  type: 'checkin.validated',
  operator_id: '4',
  actor_id: '4',
  order: 'desc',
  kind: 'visit',
  name: 'fit',
  ...WEBHOOK_PARAMETER_EXAMPLES,
  ...MONEY_PARAMETER_EXAMPLES,
  ...PLAN_PARAMETER_EXAMPLES,
  'last-event-id': '120',
  sandbox: 'true',
  include_sandbox: 'true',
  bucket: 'hour',
};

/** A params, querystring or headers schema whose properties carry their examples, for the document only. */
export function withParameterExamples(schema: unknown): unknown {
  if (schema === null || typeof schema !== 'object' || !('properties' in schema)) return schema;
  const properties = (schema as { properties: Record<string, object> }).properties;
  const described = Object.entries(properties).map(([name, property]): [string, object] => {
    const example = PARAMETER_EXAMPLES[name];
    // A parameter that names its own example (one name, another meaning: `status` of settlements) keeps it.
    const own = 'examples' in property;
    return [name, example === undefined || own ? property : { ...property, examples: [example] }];
  });
  return { ...schema, properties: Object.fromEntries(described) };
}

/** The body schema with its example, for the OpenAPI document only (validation never sees `examples`). */
export function withExample(method: string | string[], url: string, body: unknown): unknown {
  const example = REQUEST_EXAMPLES[`${String(method)} ${url}`];
  if (example === undefined || body === null || typeof body !== 'object') return body;
  return { ...body, examples: [example] };
}

const CHECKIN = {
  id: 7,
  platform_id: '1234567890123',
  gym_id: 42,
  product_id: 2,
  status: 'pending',
  checked_in_at: '2026-11-23T11:58:40.000Z',
  expires_at: '2026-11-23T12:18:40.000Z',
  validated_at: null,
  cancelled_at: null,
};
const KEY = {
  id: 3,
  prefix: 'ghk_live_3f6c',
  label: 'front desk',
  gym_ids: [42],
  expires_at: null,
  last_used_at: '2026-11-23T12:00:02.000Z',
  revoked_at: null,
  created_at: '2026-11-20T09:00:00.000Z',
};
const PARTNER = { id: 2, name: 'Acme Fitness', offboarded_at: null, created_at: '2026-11-20T09:00:00.000Z' };
const GYM = {
  id: 42,
  partner_id: 2,
  name: 'Acme Downtown',
  timezone: 'America/Sao_Paulo',
  retired_at: null,
  created_at: '2026-11-20T09:00:00.000Z',
};

const PRODUCT = {
  id: 2,
  gym_id: 42,
  description: 'Day pass',
  payout_cents: 1500,
  currency: 'BRL',
  retired_at: null,
  category: 'standard',
};

const page = (items: unknown[]) => ({ items, next_cursor: null });
/** One more event stream than the default quota (GATEHOUSE_STREAMS_PER_CREDENTIAL) allows. */
function streamLimit(quota: 'event_streams_per_key_gym' | 'event_streams_per_operator') {
  const { message, key } = new StreamLimitError(quota, 20);
  return { metadata: { total: 0, errors: 1 }, errors: [{ message, key }] };
}

/** A real answer for each route's success status, keyed `METHOD url status` as the route is registered. */
export const RESPONSE_EXAMPLES: Readonly<Record<string, unknown>> = {
  ...WEBHOOK_RESPONSE_EXAMPLES,
  ...MONEY_RESPONSE_EXAMPLES,
  ...PLAN_RESPONSE_EXAMPLES,
  'GET /health 200': { status: 'ok', version: '0.1.0' },
  'GET /access/v1/events/stream 429': streamLimit('event_streams_per_key_gym'),
  'GET /admin/v1/events/stream 429': streamLimit('event_streams_per_operator'),
  'GET /ready 200': { status: 'ready' },
  'POST /access/v1/validate 200': {
    metadata: { total: 1, errors: 0 },
    results: {
      user: { platform_id: '1234567890123' },
      gym: { Id: 42, product: { Id: 2, description: 'Day pass' } },
      validated_at: '2026-11-23T12:00:02Z',
    },
  },
  'POST /access/v1/code/:platform_id 201': { metadata: { total: 1, errors: 0 }, results: {} },
  'PUT /access/v1/code/:platform_id 200': { metadata: { total: 1, errors: 0 }, results: {} },
  'GET /access/v1/code/:platform_id 200': {
    metadata: { total: 1, errors: 0 },
    results: { platform_id: '1234567890123', custom_code: '4321', updated_at: '2026-11-23T12:00:02.000Z' },
  },
  'GET /access/v1/transactions 200': {
    metadata: { total: 1, errors: 0 },
    results: [PARTNER_TRANSACTION],
    next_cursor: 'YXQ6MTI6NQ',
    has_more: false,
  },
  'POST /admin/v1/partners 201': PARTNER,
  'GET /admin/v1/partners 200': page([PARTNER]),
  'PATCH /admin/v1/partners/:partner_id 200': { ...PARTNER, name: 'Acme Fitness Brasil' },
  'POST /admin/v1/partners/:partner_id/offboard 200': {
    ...PARTNER,
    offboarded_at: '2026-11-24T09:00:00.000Z',
  },
  'PATCH /admin/v1/gyms/:gym_id 200': { ...GYM, name: 'Acme Downtown (Paulista)' },
  'POST /admin/v1/gyms/:gym_id/retire 200': { ...GYM, retired_at: '2026-11-24T09:00:00.000Z' },
  'PATCH /admin/v1/products/:product_id 200': { ...PRODUCT, payout_cents: 1800 },
  'POST /admin/v1/products/:product_id/retire 200': { ...PRODUCT, retired_at: '2026-11-24T09:00:00.000Z' },
  'POST /admin/v1/gyms 201': GYM,
  'GET /admin/v1/gyms 200': page([GYM]),
  'POST /admin/v1/gyms/:gym_id/products 201': PRODUCT,
  'GET /admin/v1/gyms/:gym_id/products 200': page([PRODUCT]),
  'POST /admin/v1/partners/:partner_id/keys 201': {
    ...KEY,
    last_used_at: null,
    key: 'ghk_live_3f6c_8d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f7081920',
  },
  'GET /admin/v1/partners/:partner_id/keys 200': page([KEY]),
  'POST /admin/v1/checkins 201': CHECKIN,
  'POST /access/v1/sandbox/checkins 201': { metadata: { total: 1, errors: 0 }, results: CHECKIN },
  'POST /helper/v1/gyms/:gym_id/simulate/checkins 201': {
    event_type: 'checkin',
    event_data: {
      // The helper's check-in carries no member details: absent ones are left out, never "".
      user: { unique_token: '1234567890123' },
      gym: { id: 42, title: 'Acme Downtown', product: { id: 2, description: 'Day pass' } },
      timestamp: 1795435200,
    },
  },
  'GET /admin/v1/checkins 200': page([CHECKIN]),
  'POST /admin/v1/checkins/:checkin_id/cancel 200': {
    ...CHECKIN,
    status: 'cancelled',
    cancelled_at: '2026-11-23T12:01:00.000Z',
  },
  'GET /admin/v1/transactions 200': page([TRANSACTION, CAPPED_VISIT, REVERSAL_ENTRY]),
  'GET /admin/v1/payouts 200': page([
    { partner_id: 2, gym_id: 42, currency: 'BRL', count: 31, reversals: 1, payout_cents: 45000 },
  ]),
  'GET /admin/v1/custom-codes 200': {
    platform_id: '1234567890123',
    gym_id: 42,
    custom_code: '4321',
    updated_at: '2026-11-23T12:00:02.000Z',
  },
  'GET /admin/v1/audit 200': page([
    {
      id: 12,
      actor: 'key:ghk_live_3f6c',
      actor_id: null,
      action: 'update',
      entity: 'custom-code',
      entity_id: '42:1234567890123',
      at: '2026-11-23T12:00:02.000Z',
    },
  ]),
  'GET /access/v1/checkins 200': {
    metadata: { total: 1, errors: 0 },
    results: [
      {
        id: 7,
        platform_id: '1234567890123',
        product: { Id: 2, description: 'Day pass' },
        status: 'pending',
        checked_in_at: '2026-11-23T11:58:40Z',
        expires_at: '2026-11-23T12:18:40Z',
      },
    ],
    next_cursor: null,
  },
  'GET /admin/v1/stats/validations 200': {
    from: '2026-11-23T10:00:00.000Z',
    to: '2026-11-23T12:00:00.000Z',
    bucket: 'hour',
    count: 31,
    payouts: [{ currency: 'BRL', payout_cents: 46500 }],
    buckets: [
      { start: '2026-11-23T10:00:00.000Z', count: 0, payouts: [] },
      { start: '2026-11-23T11:00:00.000Z', count: 31, payouts: [{ currency: 'BRL', payout_cents: 46500 }] },
    ],
    gyms: [{ gym_id: 42, count: 31, payouts: [{ currency: 'BRL', payout_cents: 46500 }] }],
  },
  'GET /admin/v1/events 200': {
    items: [
      {
        position: 120,
        id: 'evt_3f6c2a9e0b8d4c1fa2e5b7c9d0e1f234',
        type: 'custom_code.updated',
        occurred_at: '2026-11-23T12:00:02.000Z',
        partner_id: 2,
        gym_id: 42,
        data: { platform_id: '1234567890123', gym_id: 42 },
      },
      {
        position: 121,
        id: 'evt_8a1d4c7e2f5b9036c1e4a7d0b3f6c9e2',
        type: 'plan.changed',
        occurred_at: '2026-11-23T12:00:05.000Z',
        // An event about the network: no partner's, no gym's.
        partner_id: null,
        gym_id: null,
        data: {
          plan_id: 3,
          name: 'Gold',
          version: 2,
          rules: [{ category: 'standard', per: 'day', limit: 1, scope: 'network' }],
          effective_from: '2026-12-01T03:00:00.000Z',
        },
      },
    ],
    next_after: 121,
    has_more: false,
  },
  'POST /admin/v1/operators 201': {
    id: 4,
    name: 'ana@example.com',
    role: 'support',
    token: 'gho_5be01c2d_9a3f0c6e1d2b4a5f6e7d8c9b0a1f2e3d4c5b6a7f',
    expires_at: '2027-06-01T00:00:00.000Z',
    created_at: '2026-11-23T09:00:00.000Z',
  },
  'GET /admin/v1/me 200': {
    name: 'ana@example.com',
    role: 'support',
    permissions: ['self', 'read', 'read-secret', 'catalog', 'keys', 'checkins', 'webhooks', 'members'],
    expires_at: '2027-06-01T00:00:00.000Z',
    timezone: 'America/Sao_Paulo',
  },
  'GET /admin/v1/operators 200': page([
    {
      id: 4,
      name: 'ana@example.com',
      role: 'support',
      prefix: 'gho_5be01c2d',
      expires_at: '2027-06-01T00:00:00.000Z',
      revoked_at: null,
      created_by: 'operator',
      created_at: '2026-11-23T09:00:00.000Z',
    },
  ]),
  'PATCH /admin/v1/operators/:operator_id 200': {
    id: 4,
    name: 'ana@example.com',
    role: 'finance',
    prefix: 'gho_5be01c2d',
    expires_at: '2027-06-01T00:00:00.000Z',
    revoked_at: null,
    created_by: 'operator',
    created_at: '2026-11-23T09:00:00.000Z',
  },
  'POST /admin/v1/members/:platform_id/erase 200': {
    pseudonym: 'erased-5f0c2a9e0b8d4c1f',
    erased: {
      custom_codes: 1,
      checkins: 12,
      transactions: 9,
      events: 31,
      audit_entries: 2,
      webhook_deliveries: 4,
      reversal_reasons: 1,
    },
    not_reached: [
      'payloads already delivered to webhook receivers and event streams',
      'messages already published to the NATS stream GATEHOUSE, until they are 30 days old (GATEHOUSE_EVENT_RETENTION_DAYS)',
      "PostgreSQL's write-ahead log, archives, replicas and backups, kept as their operator keeps them",
      'backups made before the erasure',
    ],
  },
};

const envelope = (key: string, message: string) => ({
  metadata: { total: 0, errors: 1 },
  errors: [{ message, key }],
});
const DENY = 'User is not authorized to access this resource with an explicit deny';

/**
 * A real answer for each error status, by the part of the API (the partner API's 401 and 403 have shapes of
 * their own).
 */
function errorExample(url: string, status: string): unknown {
  // The sandbox helper answers refusals as the partner API does.
  const partner = url.startsWith('/access/v1') || url.startsWith('/helper/v1');
  switch (status) {
    case '400':
      return partner
        ? envelope('platform_id', 'must be a string of 13 digits')
        : envelope('name', 'must NOT have fewer than 1 characters');
    case '401':
      return partner
        ? { message: 'Unauthorized' }
        : envelope(
            'authorization',
            'missing bearer token: send Authorization: Bearer <GATEHOUSE_ADMIN_TOKEN>',
          );
    case '403':
      return partner
        ? { metadata: { total: 0, errors: 1 }, errors: [{ Message: DENY }], Message: DENY }
        : envelope('authorization', 'the token is not the operator token');
    case '404':
      return partner
        ? envelope('checkin.validation.notfound', 'Check-In not found in database')
        : envelope('gym.not-found', 'gym not found');
    case '405':
      return envelope('method.not-allowed', 'method not allowed');
    case '409':
      return partner
        ? envelope('checkin.custom-code.already-exists', 'Custom code already exists')
        : envelope('gym.already-exists', 'gym already exists');
    case '413':
      return envelope('request.too-large', BODY_TOO_LARGE_MESSAGE);
    case '415':
      return envelope('request.unsupported-media-type', 'Content-Type must be application/json');
    case '429':
      return envelope('rate.limited', 'too many requests');
    case '500':
      return { ...envelope('internal.unexpected-error', 'unexpected error'), request_id: 'req-3f6c2a9e' };
    case '503':
      return envelope('service.unavailable', 'service temporarily unavailable');
    default:
      return undefined;
  }
}

/** Each response schema with a real example of its answer, for the OpenAPI document only. */
export function withResponseExamples(method: string | string[], url: string, response: unknown): unknown {
  if (response === null || typeof response !== 'object') return response;
  const described = Object.entries(response as Record<string, unknown>).map(([status, schema]) => {
    // A route that lists its own examples of an answer (the operator API's 404s and 409s) keeps them.
    if (schema !== null && typeof schema === 'object' && 'examples' in schema) return [status, schema];
    const example = RESPONSE_EXAMPLES[`${String(method)} ${url} ${status}`] ?? errorExample(url, status);
    const keep = example === undefined || schema === null || typeof schema !== 'object';
    return [status, keep ? schema : { ...schema, examples: [example] }];
  });
  return Object.fromEntries(described);
}
