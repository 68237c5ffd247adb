import { WebhookLimitError } from '../domain/errors.js';

/**
 * Real request and answer examples of the webhook routes, test events, compatibility profiles and the integration
 * check, for /docs (see openapi-examples.ts).
 */
const ENDPOINT = {
  id: 4,
  partner_id: 2,
  url: 'https://club.example.com/hooks/gatehouse',
  event_types: ['checkin.created', 'checkin.validated'],
  gym_ids: [42],
  format: 'standard',
  timeout_ms: 15000,
  status: 'enabled',
  disabled_reason: null,
  created_at: '2026-11-20T09:00:00.000Z',
  updated_at: '2026-11-20T09:00:00.000Z',
};
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const DELIVERY = {
  id: 31,
  webhook_id: 4,
  event_id: 'evt_5b0f2c1e9a7d4c3b8e6f1a2d3c4b5a69',
  event_type: 'checkin.created',
  status: 'delivered',
  attempts: 1,
  last_status_code: 200,
  last_error: null,
  last_attempt_at: '2026-11-23T12:00:00.120Z',
  next_attempt_at: null,
  delivered_at: '2026-11-23T12:00:00.120Z',
  created_at: '2026-11-23T12:00:00.050Z',
};
/** A first attempt refused with a 503 (its answer made safe), then delivered by the retry. */
const ATTEMPTS = [
  {
    id: 77,
    delivery_id: 31,
    attempt: 1,
    attempted_at: '2026-11-23T12:00:00.080Z',
    duration_ms: 1012,
    status_code: 503,
    error: 'HTTP 503',
    request_body:
      '{"type":"checkin.created","timestamp":"2026-11-23T12:00:00.000Z","data":{"checkin_id":918,"gym_id":42}}',
    response_excerpt: 'upstream busy\\u001b[0m',
  },
  {
    id: 78,
    delivery_id: 31,
    attempt: 2,
    attempted_at: '2026-11-23T12:00:05.120Z',
    duration_ms: 41,
    status_code: 200,
    error: null,
    request_body:
      '{"type":"checkin.created","timestamp":"2026-11-23T12:00:00.000Z","data":{"checkin_id":918,"gym_id":42}}',
    response_excerpt: '{"ok":true}',
  },
];
const page = (items: unknown[]) => ({ items, next_cursor: null });
const envelope = (results: unknown, total = 1) => ({ metadata: { total, errors: 0 }, results });
const limit = new WebhookLimitError(10);
/** The default quota (GATEHOUSE_WEBHOOK_ENDPOINTS_PER_PARTNER) reached. */
const AT_LIMIT = { metadata: { total: 0, errors: 1 }, errors: [{ message: limit.message, key: limit.key }] };
const BODY = { url: ENDPOINT.url, event_types: ENDPOINT.event_types, gym_ids: [42] };

const TEST_OUTCOME = {
  webhook_id: 4,
  format: 'standard',
  event_type: 'test.ping',
  event_id: 'evt_test_5b0f2c1e9a7d4c3b',
  delivered: true,
  status_code: 200,
  error: null,
  duration_ms: 84,
  response_excerpt: '{"ok":true}',
};
const COMPATIBILITY = { cancelled_spelling: 'canceled', gym_from_key: true };
const INTEGRATION = {
  partner: { id: 2, name: 'Acme Fitness', environment: 'live' },
  key: { prefix: 'ghk_live_3f9a', gym_ids: [42] },
  gyms: [{ id: 42, name: 'Acme Downtown', timezone: 'America/Sao_Paulo' }],
  rate_limit: { requests_per_second: 200 },
  compatibility: COMPATIBILITY,
  webhooks: [
    {
      id: 4,
      url: ENDPOINT.url,
      format: 'standard',
      status: 'enabled',
      disabled_reason: null,
      last_attempt: { at: '2026-11-23T12:00:00.120Z', delivered: true, status_code: 200, error: null },
      success_rate_24h: 0.9875,
      pending: 0,
    },
  ],
};

export const WEBHOOK_REQUEST_EXAMPLES = {
  'PUT /admin/v1/partners/:partner_id/compatibility': COMPATIBILITY,
  'POST /admin/v1/partners/:partner_id/webhooks': BODY,
  'PATCH /admin/v1/webhooks/:webhook_id': { timeout_ms: 5000 },
  'POST /admin/v1/webhooks/:webhook_id/secret': {},
  'POST /admin/v1/webhooks/:webhook_id/recover': { since: '2026-11-22T00:00:00Z' },
  'POST /access/v1/webhooks': BODY,
  'PATCH /access/v1/webhooks/:webhook_id': { timeout_ms: 5000 },
  'POST /access/v1/webhooks/:webhook_id/secret': {},
  'POST /access/v1/webhooks/:webhook_id/recover': { since: '2026-11-22T00:00:00Z' },
};

export const WEBHOOK_PARAMETER_EXAMPLES = {
  webhook_id: '4',
  delivery_id: '31',
  event_type: 'checkin.created',
};

export const WEBHOOK_RESPONSE_EXAMPLES = {
  'POST /admin/v1/webhooks/:webhook_id/test 200': TEST_OUTCOME,
  'POST /access/v1/webhooks/:webhook_id/test 200': envelope(TEST_OUTCOME),
  'GET /admin/v1/partners/:partner_id/compatibility 200': { partner_id: 2, ...COMPATIBILITY },
  'PUT /admin/v1/partners/:partner_id/compatibility 200': { partner_id: 2, ...COMPATIBILITY },
  'GET /admin/v1/partners/:partner_id/integration 200': { ...INTEGRATION, key: null },
  'GET /access/v1/integration 200': envelope(INTEGRATION),
  'POST /admin/v1/partners/:partner_id/webhooks 201': { ...ENDPOINT, secret: SECRET },
  'POST /admin/v1/partners/:partner_id/webhooks 409': AT_LIMIT,
  'GET /admin/v1/partners/:partner_id/webhooks 200': page([ENDPOINT]),
  'GET /admin/v1/webhooks/:webhook_id 200': ENDPOINT,
  'PATCH /admin/v1/webhooks/:webhook_id 200': { ...ENDPOINT, timeout_ms: 5000 },
  'POST /admin/v1/webhooks/:webhook_id/secret 201': { secret: SECRET },
  'POST /admin/v1/webhooks/:webhook_id/enable 200': ENDPOINT,
  'GET /admin/v1/webhooks/:webhook_id/deliveries 200': page([DELIVERY]),
  'GET /admin/v1/webhooks/:webhook_id/deliveries/:delivery_id/attempts 200': page(ATTEMPTS),
  'POST /admin/v1/deliveries/:delivery_id/retry 202': {
    ...DELIVERY,
    status: 'pending',
    next_attempt_at: '2026-11-23T12:05:00.000Z',
  },
  'POST /admin/v1/webhooks/:webhook_id/recover 202': { recovered: 3 },
  'POST /access/v1/webhooks 201': envelope({ ...ENDPOINT, secret: SECRET }),
  'POST /access/v1/webhooks 409': AT_LIMIT,
  'GET /access/v1/webhooks 200': envelope([ENDPOINT]),
  'GET /access/v1/webhooks/:webhook_id 200': envelope(ENDPOINT),
  'PATCH /access/v1/webhooks/:webhook_id 200': envelope({ ...ENDPOINT, timeout_ms: 5000 }),
  'POST /access/v1/webhooks/:webhook_id/secret 201': envelope({ secret: SECRET }),
  'POST /access/v1/webhooks/:webhook_id/enable 200': envelope(ENDPOINT),
  'POST /access/v1/webhooks/:webhook_id/recover 202': envelope({ recovered: 3 }),
  'POST /access/v1/webhooks/:webhook_id/deliveries/:delivery_id/retry 202': envelope({
    ...DELIVERY,
    status: 'pending',
    next_attempt_at: '2026-11-23T12:05:00.000Z',
  }),
  'GET /access/v1/webhooks/:webhook_id/deliveries 200': { ...envelope([DELIVERY]), next_cursor: null },
  'GET /access/v1/webhooks/:webhook_id/deliveries/:delivery_id/attempts 200': {
    ...envelope(ATTEMPTS, ATTEMPTS.length),
    next_cursor: null,
  },
};
