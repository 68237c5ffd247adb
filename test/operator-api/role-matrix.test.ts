import { describe, expect, test } from 'vitest';
import type { Role } from '../../src/domain/operator.js';
import { platformId } from '../fixtures/factories.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';
import { expectReply } from '../fixtures/partner-api.js';
import { admin, arrangeNetwork, createCheckin, operatorApp, wholeStore } from '../fixtures/operator-api.js';

const ALL: Role[] = ['admin', 'finance', 'support', 'member-app', 'readonly'];
const READERS: Role[] = ['admin', 'finance', 'support', 'readonly'];

/** The permissions several routes share: who holds each, and what the refusal says the others may not do. */
type Row = { allowed: Role[]; refusal: string };
const READ: Row = { allowed: READERS, refusal: 'read the operator API' };
const CATALOG: Row = { allowed: ['admin', 'support'], refusal: 'change partners, gyms or products' };
const KEYS: Row = { allowed: ['admin', 'support'], refusal: 'issue or revoke API keys' };
const CHECKINS: Row = { allowed: ['admin', 'support', 'member-app'], refusal: 'create or cancel check-ins' };
const MONEY: Row = {
  allowed: ['admin', 'finance'],
  refusal: 'act on money (reversals, settlements, payouts)',
};
const WEBHOOKS: Row = { allowed: ['admin', 'support'], refusal: 'change webhooks' };
const OPERATORS: Row = { allowed: ['admin'], refusal: 'manage operators' };

/**
 * Who may call each operator route: the role matrix, written out. Every route the app registers must have a row
 * (a route added without one fails the first test below), and each role outside a row is refused with 403.
 */
const MATRIX: Record<string, Row> = {
  'GET /admin/v1/partners': READ,
  'POST /admin/v1/partners': CATALOG,
  'GET /admin/v1/gyms': READ,
  'POST /admin/v1/gyms': CATALOG,
  'GET /admin/v1/gyms/:gym_id/products': READ,
  'POST /admin/v1/gyms/:gym_id/products': CATALOG,
  'GET /admin/v1/partners/:partner_id/keys': READ,
  'POST /admin/v1/partners/:partner_id/keys': KEYS,
  'DELETE /admin/v1/keys/:key_id': KEYS,
  'GET /admin/v1/checkins': READ,
  'POST /admin/v1/checkins': CHECKINS,
  'POST /admin/v1/checkins/:checkin_id/cancel': CHECKINS,
  'GET /admin/v1/transactions': READ,
  'GET /admin/v1/payouts': READ,
  'POST /admin/v1/transactions/:transaction_id/reversals': MONEY,
  'POST /admin/v1/settlements': MONEY,
  'GET /admin/v1/settlements': READ,
  'POST /admin/v1/settlements/:settlement_id/paid': MONEY,
  'GET /admin/v1/settlements/:settlement_id/entries': READ,
  'GET /admin/v1/custom-codes': {
    allowed: ['admin', 'finance', 'support', 'member-app'],
    refusal: "read members' custom codes",
  },
  'GET /admin/v1/audit': READ,
  'GET /admin/v1/events': READ,
  'GET /admin/v1/events/stream': READ,
  'GET /admin/v1/stats/validations': READ,
  'GET /admin/v1/partners/:partner_id/webhooks': READ,
  'POST /admin/v1/partners/:partner_id/webhooks': WEBHOOKS,
  'GET /admin/v1/webhooks/:webhook_id': READ,
  'PATCH /admin/v1/webhooks/:webhook_id': WEBHOOKS,
  'POST /admin/v1/webhooks/:webhook_id/secret': WEBHOOKS,
  'POST /admin/v1/webhooks/:webhook_id/enable': WEBHOOKS,
  'POST /admin/v1/webhooks/:webhook_id/recover': WEBHOOKS,
  'GET /admin/v1/webhooks/:webhook_id/deliveries': READ,
  'GET /admin/v1/webhooks/:webhook_id/deliveries/:delivery_id/attempts': READ,
  'POST /admin/v1/deliveries/:delivery_id/retry': WEBHOOKS,
  'POST /admin/v1/webhooks/:webhook_id/test': WEBHOOKS,
  'GET /admin/v1/partners/:partner_id/compatibility': READ,
  'GET /admin/v1/plans': READ,
  'GET /admin/v1/plans/:plan_id': READ,
  'GET /admin/v1/members/:platform_id/plan': READ,
  'GET /admin/v1/partners/:partner_id/payout-rules': READ,
  'GET /admin/v1/gyms/:gym_id/payout-rules': READ,
  'PUT /admin/v1/partners/:partner_id/compatibility': CATALOG,
  'POST /admin/v1/plans': CATALOG,
  'PUT /admin/v1/plans/:plan_id': CATALOG,
  'PUT /admin/v1/members/:platform_id/plan': CHECKINS,
  'PUT /admin/v1/partners/:partner_id/payout-rules': MONEY,
  'PUT /admin/v1/gyms/:gym_id/payout-rules': MONEY,
  'GET /admin/v1/partners/:partner_id/integration': READ,
  // Last of the webhook rows: the calls before it act on the endpoint it removes.
  'DELETE /admin/v1/webhooks/:webhook_id': WEBHOOKS,
  'GET /admin/v1/me': { allowed: ALL, refusal: 'say who it is' },
  'GET /admin/v1/operators': OPERATORS,
  'POST /admin/v1/operators': OPERATORS,
  'PATCH /admin/v1/operators/:operator_id': OPERATORS,
  'DELETE /admin/v1/operators/:operator_id': OPERATORS,
  'POST /admin/v1/members/:platform_id/erase': {
    allowed: ['admin', 'support'],
    refusal: "erase a member's data",
  },
  'PATCH /admin/v1/partners/:partner_id': CATALOG,
  'PATCH /admin/v1/gyms/:gym_id': CATALOG,
  'PATCH /admin/v1/products/:product_id': CATALOG,
  // Last: they retire the records the calls before them act on.
  'POST /admin/v1/products/:product_id/retire': CATALOG,
  'POST /admin/v1/gyms/:gym_id/retire': CATALOG,
  'POST /admin/v1/partners/:partner_id/offboard': CATALOG,
};

type Ids = Record<string, string>;

/** The route's URL with its parameters filled from records that exist (a member with no data for erase). */
function concrete(url: string, ids: Ids): string {
  return url.replace(/:([a-z_]+)/g, (_whole, name: string) => {
    const id = ids[name];
    if (id === undefined) throw new Error(`no value for :${name} in ${url}`);
    return id;
  });
}

/** Query strings the reads need to answer at all. */
const QUERIES: Record<string, (ids: Ids) => string> = {
  'GET /admin/v1/payouts': () => '?from=2026-03-01&to=2026-04-01',
  'GET /admin/v1/custom-codes': (ids) => `?platform_id=${ids.member}&gym_id=${ids.gym_id}`,
  'GET /admin/v1/stats/validations': () => '?from=2026-03-01&to=2026-04-01',
};

/** Bodies the writes need to get past their schema (a role refusal comes before the body is read). */
const BODIES: Record<string, unknown> = {
  'POST /admin/v1/partners/:partner_id/webhooks': { url: 'http://127.0.0.1:9/matrix-second' },
  'PATCH /admin/v1/webhooks/:webhook_id': { timeout_ms: 5000 },
  // The spare operator's own role: allowed, it changes nothing.
  'PATCH /admin/v1/operators/:operator_id': { role: 'readonly' },
  'POST /admin/v1/transactions/:transaction_id/reversals': { reason: 'matrix' },
  'POST /admin/v1/settlements': { period_start: '2026-03-01', period_end: '2026-03-02' },
  'POST /admin/v1/settlements/:settlement_id/paid': { reference: 'matrix' },
  'PATCH /admin/v1/partners/:partner_id': { name: 'Matrix' },
  'PUT /admin/v1/partners/:partner_id/compatibility': { cancelled_spelling: 'canceled' },
  'PATCH /admin/v1/gyms/:gym_id': { name: 'Matrix' },
  'PATCH /admin/v1/products/:product_id': { payout_cents: 100 },
  'POST /admin/v1/plans': { name: 'Matrix', rules: [] },
  'PUT /admin/v1/plans/:plan_id': { rules: [] },
  'PUT /admin/v1/members/:platform_id/plan': { plan_id: 999_999 },
  'PUT /admin/v1/partners/:partner_id/payout-rules': { monthly_paid_visits_per_member: null, tiers: [] },
  'PUT /admin/v1/gyms/:gym_id/payout-rules': { monthly_paid_visits_per_member: null, tiers: [] },
};

/** An event stream never ends by itself: a call to one is answered once its headers arrive. */
const STREAMS = new Set(['GET /admin/v1/events/stream']);

describe.each(dialects)('the role matrix over every operator route (%s)', (dialect) => {
  const app = operatorApp({ dialect, perTest: true, env: { GATEHOUSE_WEBHOOK_ALLOW_PRIVATE: 'true' } });

  /** One operator of each role, made through the API by the bootstrap admin; their tokens by role. */
  async function operators(t: TestApp): Promise<Record<Role, string>> {
    const tokens: Partial<Record<Role, string>> = {};
    for (const role of ALL) {
      const response = await admin(t, 'POST', '/operators', { name: `matrix-${role}`, role });
      expect(response.statusCode, response.body).toBe(201);
      tokens[role] = (JSON.parse(response.body) as { token: string }).token;
    }
    return tokens as Record<Role, string>;
  }

  async function arrange(t: TestApp) {
    const n = await arrangeNetwork(t);
    const checkin = await createCheckin(t, n.product);
    const tokens = await operators(t);
    // The operator the DELETE route revokes: none of the callers.
    const spare = await admin(t, 'POST', '/operators', { name: 'matrix-spare', role: 'readonly' });
    const webhook = await admin(t, 'POST', `/partners/${n.partner.id}/webhooks`, {
      url: 'http://127.0.0.1:9/matrix',
    });
    expect(webhook.statusCode, webhook.body).toBe(201);
    const ids: Ids = {
      gym_id: String(n.gym.id),
      partner_id: String(n.partner.id),
      key_id: String(n.key.id),
      checkin_id: String(checkin.id),
      operator_id: String((JSON.parse(spare.body) as { id: number }).id),
      platform_id: platformId(),
      member: checkin.platform_id,
      webhook_id: String((JSON.parse(webhook.body) as { id: number }).id),
      // No delivery was made (the delivery loop is not running): an allowed retry answers 404, not 403.
      delivery_id: '1',
      // No visit was validated: an allowed reversal answers 404, not 403.
      transaction_id: '999999',
      settlement_id: '999999',
      product_id: String(n.product.id),
      // No plan: an allowed version answers 404, not 403.
      plan_id: '999999',
    };
    return { tokens, ids };
  }

  async function call(t: TestApp, token: string, key: string, ids: Ids) {
    const [method, url] = key.split(' ') as [string, string];
    const path = concrete(url, ids) + (QUERIES[key]?.(ids) ?? '');
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (STREAMS.has(key)) {
      if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as { port: number };
      const address = `http://127.0.0.1:${port}`;
      const aborted = new AbortController();
      const response = await fetch(`${address}${path}`, { headers, signal: aborted.signal });
      const body = response.status === 200 ? '' : await response.text();
      aborted.abort();
      return { statusCode: response.status, body, headers: Object.fromEntries(response.headers) };
    }
    const body = BODIES[key];
    return t.app.inject({
      method: method as 'GET',
      url: path,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  }

  test('when the registered operator routes are listed, then each has a row in the matrix and declared the permission the matrix expects', () => {
    const t = app();
    const registered = t.operatorRoutes
      .filter((route) => route.method !== 'HEAD')
      .map((route) => `${route.method} ${route.url}`)
      .sort();

    expect(registered).toEqual(Object.keys(MATRIX).sort());
    expect(t.operatorRoutes.filter((route) => route.permission === undefined)).toEqual([]);
  });

  test('when each role calls each route it may not, then 403 key authorization names the role and nothing is written', async () => {
    const t = app();
    const { tokens, ids } = await arrange(t);
    const before = await wholeStore(t);

    for (const [key, { allowed, refusal }] of Object.entries(MATRIX)) {
      for (const role of ALL.filter((candidate) => !allowed.includes(candidate))) {
        const response = await call(t, tokens[role], key, ids);
        expect(`${role} → ${key}: ${response.statusCode}`).toBe(`${role} → ${key}: 403`);
        expect({ status: response.statusCode, body: JSON.parse(response.body) as unknown }).toEqual({
          status: 403,
          body: errorEnvelope('authorization', `the ${role} role may not ${refusal}`),
        });
      }
    }

    expect(await wholeStore(t)).toEqual(before);
  });

  test('when each role calls each route it may, then the role is not what refuses it', async () => {
    const t = app();
    const { tokens, ids } = await arrange(t);

    const refused: string[] = [];
    for (const [key, { allowed }] of Object.entries(MATRIX)) {
      for (const role of allowed) {
        const response = await call(t, tokens[role], key, ids);
        if (response.statusCode === 401 || response.statusCode === 403) {
          refused.push(`${role} → ${key}: ${response.statusCode} ${response.body}`);
        }
      }
    }

    expect(refused).toEqual([]);
  });

  test('when a read-only operator reads lists, then it gets the same answers as the admin', async () => {
    const t = app();
    const { tokens } = await arrange(t);

    for (const url of ['/admin/v1/partners', '/admin/v1/checkins', '/admin/v1/transactions']) {
      const asAdmin = await admin(t, 'GET', url.replace('/admin/v1', ''));
      const asReader = await t.app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${tokens.readonly}` },
      });
      expectReply(asReader, 200, JSON.parse(asAdmin.body));
    }
  });
});
