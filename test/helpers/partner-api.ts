import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { Store } from '../../src/store/store.js';
import { platformId, type Arranged } from './factories.js';
import { snapshotStore } from './store-state.js';
import { TestClock } from './test-clock.js';
import { startTestApp, type TestApp, type TestAppOptions } from './test-app.js';
import { JSON_TYPE, validationBody } from './wire-bodies.js';

/** The wire bodies live in wire-bodies.ts; they are exported from here too, where tests have long found them. */
export {
  ALREADY_VALIDATED,
  CANCELLED,
  CODE_EXISTS,
  CODE_LENGTH_ERROR,
  CODE_NOT_FOUND,
  DENY_MESSAGE,
  EMPTY_SUCCESS,
  EXPIRED,
  EXPLICIT_DENY,
  GYM_ID_ERROR,
  NOT_FOUND_CHECKIN,
  PLATFORM_ID_ERROR,
  UNAUTHORIZED,
  UNSUPPORTED_MEDIA_TYPE,
  errorEnvelope,
  secondsOf,
} from './wire-bodies.js';

/** Every answer but 204 is JSON in UTF-8; returns the parsed body for a whole-body toEqual. */
export function jsonOf(response: LightMyRequestResponse): unknown {
  expect(response.headers['content-type']).toBe(JSON_TYPE);
  return JSON.parse(response.body) as unknown;
}

/** Status and whole body in one assertion, so a failure shows both. */
export function expectReply(response: LightMyRequestResponse, status: number, body: unknown): void {
  expect({ status: response.statusCode, body: jsonOf(response) }).toEqual({ status, body });
}

type Headers = Record<string, string>;

/** A copy of `record` without one field (a header to leave out, a column to ignore). */
export function without<T extends Record<string, unknown>, K extends keyof T>(
  record: T,
  field: K,
): Omit<T, K> {
  const copy = { ...record };
  delete copy[field];
  return copy;
}

/** POST /access/v1/validate with a JSON body (serialised here unless it is already a string). */
export function postValidate(t: TestApp, headers: Headers, body: unknown) {
  return t.app.inject({
    method: 'POST',
    url: '/access/v1/validate',
    headers: { 'content-type': 'application/json', ...headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** A request to /access/v1/code/:platform_id; a body, when given, is sent as JSON. */
export function codeRequest(
  t: TestApp,
  method: 'POST' | 'PUT' | 'DELETE' | 'GET',
  member: string,
  headers: Headers,
  body?: unknown,
) {
  const options: InjectOptions = { method, url: `/access/v1/code/${member}`, headers };
  if (body !== undefined) {
    options.headers = { 'content-type': 'application/json', ...headers };
    options.payload = typeof body === 'string' ? body : JSON.stringify(body);
  }
  return t.app.inject(options);
}

/** A pending check-in of a fresh member at the arranged gym, now unless told otherwise. */
export function arrangeCheckin(
  t: TestApp,
  a: Arranged,
  overrides: { platformId?: string; checkedInAt?: number } = {},
) {
  return t.services.checkins.create({
    platformId: overrides.platformId ?? platformId(),
    gymId: a.gym.id,
    productId: a.product.id,
    ...(overrides.checkedInAt === undefined ? {} : { checkedInAt: overrides.checkedInAt }),
  });
}

/** The body validate answers 200 with, for the arranged gym and product. */
export function validationResult(
  a: Arranged,
  user: Record<string, string>,
  validatedAt: string,
  product: { id: number; description: string } = a.product,
) {
  return validationBody(a.gym, product, user, validatedAt);
}

/**
 * Every row of the store, for "this request wrote nothing". A key's last_used_at is bookkeeping, not a domain
 * write, so it is left out.
 */
export async function storeState(store: Store) {
  const snapshot = await snapshotStore(store);
  snapshot.api_keys = (snapshot.api_keys ?? []).map((row) =>
    JSON.stringify(without(JSON.parse(row as string) as Record<string, unknown>, 'last_used_at')),
  );
  return snapshot;
}

/**
 * One app for the enclosing describe, its clock back at the same instant before every test. Tests stay
 * independent through the factories' unique partners, gyms and members; "no write" is still proven by comparing
 * whole-store snapshots, since the tests of a file run one after another. The failed-authentication limit
 * is off: these apps see many deliberate 403s from one address, and that limit has tests of
 * its own.
 */
export function sharedApp(options: Omit<TestAppOptions, 'clock'>): () => TestApp {
  const clock = new TestClock();
  const start = clock.now();
  let current: TestApp | undefined;
  beforeAll(async () => {
    const env = { GATEHOUSE_AUTH_FAILURE_LIMIT_PER_MINUTE: '0', ...options.env };
    current = await startWithRetry({ ...options, env, clock });
  });
  afterAll(async () => {
    await current?.close();
  });
  beforeEach(() => clock.set(start));
  return () => {
    if (current === undefined) throw new Error('sharedApp: the app did not start');
    return current;
  };
}

export type PartnerRoute = 'validate' | 'POST code' | 'PUT code' | 'DELETE code' | 'GET code';

/** One well-formed request to a partner route for a fresh member, so only the headers can make it fail. */
export function partnerRequest(t: TestApp, route: PartnerRoute, headers: Headers, member = platformId()) {
  switch (route) {
    case 'validate':
      return postValidate(t, headers, { platform_id: member });
    case 'POST code':
      return codeRequest(t, 'POST', member, headers, { custom_code: 'VALID-1' });
    case 'PUT code':
      return codeRequest(t, 'PUT', member, headers, { custom_code: 'VALID-1' });
    case 'DELETE code':
      return codeRequest(t, 'DELETE', member, headers);
    case 'GET code':
      return codeRequest(t, 'GET', member, headers);
  }
}

/**
 * Kysely's PostgreSQL migrator introspects every schema of the shared test database, so a test schema dropped by
 * a concurrent run in the middle of that scan fails the migration ("schema … does not exist"). That race belongs
 * to the harness, not to the code under test: the start is retried, and any other failure is thrown at once.
 */
async function startWithRetry(options: TestAppOptions, attempts = 3): Promise<TestApp> {
  try {
    return await startTestApp(options);
  } catch (error) {
    const raced = /(schema|relation) "gh_test_[0-9a-f]+[".]/.test(String(error));
    if (!raced || attempts <= 1) throw error;
    return startWithRetry(options, attempts - 1);
  }
}
