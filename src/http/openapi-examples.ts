/**
 * A real request body for each route that takes one, keyed `METHOD url` as the route is registered. /docs
 * pre-fills "Try it out" with it, instead of strings Swagger UI makes up from the patterns (a custom code like
 * `U;yY5WJ[q</_P`). test/docs/openapi-examples.test.ts checks that every body has one and that each is valid.
 */
export const REQUEST_EXAMPLES: Readonly<Record<string, Record<string, unknown>>> = {
  'POST /access/v1/validate': { platform_id: '1234567890123', custom_code: '4321' },
  'POST /access/v1/code/:platform_id': { custom_code: '4321' },
  'PUT /access/v1/code/:platform_id': { custom_code: '9876' },
  'POST /admin/v1/partners': { name: 'Acme Fitness' },
  'POST /admin/v1/gyms': { id: 42, partner_id: 2, name: 'Acme Downtown' },
  'POST /admin/v1/gyms/:gym_id/products': { description: 'Day pass', payout_cents: 1500, currency: 'BRL' },
  'POST /admin/v1/partners/:partner_id/keys': { label: 'front desk', gym_ids: [42], expires_at: null },
  'POST /admin/v1/checkins': { platform_id: '1234567890123', gym_id: 42, product_id: 2 },
};

/** The body schema with its example, for the OpenAPI document only (validation never sees `examples`). */
export function withExample(method: string | string[], url: string, body: unknown): unknown {
  const example = REQUEST_EXAMPLES[`${String(method)} ${url}`];
  if (example === undefined || body === null || typeof body !== 'object') return body;
  return { ...body, examples: [example] };
}
