import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { Store } from '../../src/store/store.js';
import { platformId, type Arranged } from './factories.js';
import { snapshotStore } from './store-state.js';
import { TestClock } from './test-clock.js';
import { startTestApp, type TestApp, type TestAppOptions } from './test-app.js';

/** The wire shapes of spec §2.4, §7 and product.md §2.5, written out here rather than imported from src. */
export const DENY_MESSAGE = 'User is not authorized to access this resource with an explicit deny';
export const EXPLICIT_DENY = {
  metadata: { total: 0, errors: 1 },
  errors: [{ Message: DENY_MESSAGE }],
  Message: DENY_MESSAGE,
};
export const UNAUTHORIZED = { message: 'Unauthorized' };
export const EMPTY_SUCCESS = { metadata: { total: 1, errors: 0 }, results: {} };
export const PLATFORM_ID_ERROR = errorEnvelope('platform_id', 'must be a string of 13 digits');
export const CODE_LENGTH_ERROR = errorEnvelope('custom_code', 'length must be between 1 and 13 characters');
export const GYM_ID_ERROR = errorEnvelope('X-Gym-Id', 'must be a positive integer');
export const UNSUPPORTED_MEDIA_TYPE = errorEnvelope(
  'request.unsupported-media-type',
  'Content-Type must be application/json',
);
export const NOT_FOUND_CHECKIN = errorEnvelope(
  'checkin.validation.notfound',
  'Check-In not found in database',
);
export const CANCELLED = errorEnvelope('checkin.validation.cancelled', 'Check-In cancelled');
export const EXPIRED = errorEnvelope('checkin.validation.expired', 'Check-In expired');
export const ALREADY_VALIDATED = errorEnvelope('checkin.already.validated', 'Check-In already validated');
export const CODE_NOT_FOUND = errorEnvelope(
  'checkin.custom-code.not-found',
  'Custom code not found in database',
);
export const CODE_EXISTS = errorEnvelope(
  'checkin.custom-code.already-exists',
  'Already exists a custom code for that gym and user',
);

export function errorEnvelope(key: string, message: string) {
  return { metadata: { total: 0, errors: 1 }, errors: [{ message, key }] };
}

/** Product.md §2.7: every answer but 204 is JSON in UTF-8; returns the parsed body for a whole-body toEqual. */
export function jsonOf(response: LightMyRequestResponse): unknown {
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
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

/** The body validate answers 200 with (spec §2.3), for the arranged gym and product. */
export function validationResult(
  a: Arranged,
  user: Record<string, string>,
  validatedAt: string,
  product: { id: number; description: string } = a.product,
) {
  return {
    metadata: { total: 1, errors: 0 },
    results: {
      user,
      gym: { Id: a.gym.id, product: { Id: product.id, description: product.description } },
      validated_at: validatedAt,
    },
  };
}

/** An instant in the wire form of validated_at: UTC, second precision. */
export function secondsOf(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 19) + 'Z';
}

/**
 * Every row of the store, for "this request wrote nothing". A key's last_used_at is bookkeeping, not a domain
 * write (product.md §4 lists it), so it is left out.
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
 * (product.md §2.12) is off: these apps see many deliberate 403s from one address, and that limit has tests of
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
