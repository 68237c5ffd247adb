import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { platformId, unique } from './factories.js';
import { postValidate } from './partner-api.js';
import { snapshotStore } from './store-state.js';
import { TestClock } from './test-clock.js';
import { startTestApp, type TestApp, type TestDialect } from './test-app.js';

/** The operator token of every test app here; at least 16 characters, as config requires. */
export const ADMIN_TOKEN = 'operator-secret-0123456789';
export const ADMIN = { authorization: `Bearer ${ADMIN_TOKEN}` };
/** The TestClock's starting instant, as the operator API writes it. */
export const T0 = '2026-03-02T12:00:00.000Z';
export const T0_MS = Date.parse(T0);
/** Default GATEHOUSE_CHECKIN_TTL_SECONDS, in milliseconds. */
export const TTL_MS = 1_200_000;

export const at = (ms: number) => new Date(T0_MS + ms).toISOString();

/** Where a whole-body comparison cannot know the value (an opaque cursor), only that it is a string. */
export const A_CURSOR: unknown = expect.any(String);

interface AppOptions {
  readonly dialect: TestDialect;
  readonly env?: Record<string, string>;
}

function start(options: AppOptions, clock: TestClock): Promise<TestApp> {
  const env = {
    GATEHOUSE_ADMIN_TOKEN: ADMIN_TOKEN,
    GATEHOUSE_AUTH_FAILURE_LIMIT_PER_MINUTE: '0',
    ...options.env,
  };
  return startTestApp({ dialect: options.dialect, env, clock });
}

/**
 * One app for the enclosing describe (`perTest`: a fresh app for every test, for lists that must see only
 * the test's own rows), its clock back at T0 before every test.
 */
export function operatorApp(options: AppOptions & { perTest?: boolean }): () => TestApp {
  const clock = new TestClock(T0_MS);
  let current: TestApp | undefined;
  const open = async () => {
    current = await start(options, clock);
  };
  const close = async () => {
    await current?.close();
    current = undefined;
  };
  if (options.perTest === true) {
    beforeEach(open);
    afterEach(close);
  } else {
    beforeAll(open);
    afterAll(close);
  }
  beforeEach(() => clock.set(T0_MS));
  return () => {
    if (current === undefined) throw new Error('operatorApp: the app did not start');
    return current;
  };
}

/** A request to the operator API with the admin token; a body is sent as JSON. */
export function admin(t: TestApp, method: InjectOptions['method'], url: string, body?: unknown) {
  const options: InjectOptions = { method, url: `/admin/v1${url}`, headers: { ...ADMIN } };
  if (body !== undefined) {
    options.headers = { ...ADMIN, 'content-type': 'application/json' };
    options.payload = JSON.stringify(body);
  }
  return t.app.inject(options);
}

/** The parsed JSON of an answer that must have the given status. */
function ok<T>(response: LightMyRequestResponse, status: number): T {
  expect(response.statusCode, response.body).toBe(status);
  return JSON.parse(response.body) as T;
}

export interface Partner {
  id: number;
  name: string;
}
export interface Product {
  id: number;
  gym_id: number;
  description: string;
  payout_cents: number;
  currency: string;
}
export interface Checkin {
  id: number;
  platform_id: string;
  gym_id: number;
  product_id: number;
  status: string;
  checked_in_at: string;
  expires_at: string;
}
export interface IssuedKey {
  id: number;
  key: string;
  prefix: string;
  [field: string]: unknown;
}

export const createPartner = async (t: TestApp, name = `Partner ${unique()}`) =>
  ok<Partner>(await admin(t, 'POST', '/partners', { name }), 201);

export const createGym = async (t: TestApp, partnerId: number, id?: number) =>
  ok<{ id: number }>(
    await admin(t, 'POST', '/gyms', { id, partner_id: partnerId, name: `Gym ${unique()}` }),
    201,
  );

export const createProduct = async (t: TestApp, gymId: number, body: Partial<Product> = {}) =>
  ok<Product>(
    await admin(t, 'POST', `/gyms/${gymId}/products`, { description: `Plan ${unique()}`, ...body }),
    201,
  );

export const issueKey = async (t: TestApp, partnerId: number, body: Record<string, unknown> = {}) =>
  ok<IssuedKey>(await admin(t, 'POST', `/partners/${partnerId}/keys`, body), 201);

export async function createCheckin(
  t: TestApp,
  product: Product,
  overrides: { platform_id?: string; checked_in_at?: string } = {},
) {
  const body = { platform_id: platformId(), gym_id: product.gym_id, product_id: product.id, ...overrides };
  return ok<Checkin>(await admin(t, 'POST', '/checkins', body), 201);
}

/** A partner with one gym, one product (1250 BRL cents unless told) and one key, all made through the API. */
export async function arrangeNetwork(t: TestApp, product: Partial<Product> = { payout_cents: 1250 }) {
  const partner = await createPartner(t);
  const gym = await createGym(t, partner.id);
  const made = await createProduct(t, gym.id, product);
  const key = await issueKey(t, partner.id, { label: 'front desk' });
  return { partner, gym, product: made, key };
}

export const partnerHeaders = (key: string, gymId: number) => ({
  authorization: `Bearer ${key}`,
  'x-gym-id': String(gymId),
});

/** POST /access/v1/validate for a member at a gym, as the partner's front desk sends it. */
export function validate(t: TestApp, key: string, gymId: number, member: string, customCode?: string) {
  return postValidate(t, partnerHeaders(key, gymId), {
    platform_id: member,
    ...(customCode === undefined ? {} : { custom_code: customCode }),
  });
}

/** GET /access/v1/transactions with a key at a gym: a cheap read that proves whether the key is accepted. */
export function partnerTransactions(t: TestApp, key: string, gymId: number, query = '') {
  return t.app.inject({
    method: 'GET',
    url: `/access/v1/transactions${query}`,
    headers: partnerHeaders(key, gymId),
  });
}

/** Every domain row and every audit entry: compare two of these to prove that a request wrote nothing. */
export async function wholeStore(t: TestApp) {
  const audit = await t.store.db.selectFrom('audit_log').selectAll().orderBy('id').execute();
  return { ...(await snapshotStore(t.store)), audit_log: audit };
}

/** The operator's view of a check-in created at T0 (unless told) with the default TTL. */
export function shownCheckin(
  checkin: { id: number; platform_id: string; gym_id: number; product_id: number },
  fields = {},
) {
  return {
    id: checkin.id,
    platform_id: checkin.platform_id,
    gym_id: checkin.gym_id,
    product_id: checkin.product_id,
    status: 'pending',
    checked_in_at: T0,
    expires_at: at(TTL_MS),
    validated_at: null,
    cancelled_at: null,
    ...fields,
  };
}
