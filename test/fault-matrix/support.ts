import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, expect } from 'vitest';
import type { Store } from '../../src/store/store.js';
import { arrangePartner, platformId, type ArrangeOptions, type Arranged } from '../helpers/factories.js';
import { snapshotStore } from '../helpers/store-state.js';
import { startTestApp, type TestApp, type TestDialect } from '../helpers/test-app.js';

/** The contract's bodies, written out here rather than imported, so a drift in src/ shows up as a failure. */
export const DENY_MESSAGE = 'User is not authorized to access this resource with an explicit deny';
export const DENY_BODY = {
  metadata: { total: 0, errors: 1 },
  errors: [{ Message: DENY_MESSAGE }],
  Message: DENY_MESSAGE,
};
export const UNAUTHORIZED_BODY = { message: 'Unauthorized' };
export const JSON_TYPE = 'application/json; charset=utf-8';

export function envelope(key: string, message: string) {
  return { metadata: { total: 0, errors: 1 }, errors: [{ message, key }] };
}

export const PLATFORM_ID_ERROR = envelope('platform_id', 'must be a string of 13 digits');
export const GYM_ID_ERROR = envelope('X-Gym-Id', 'must be a positive integer');
export const CODE_NOT_FOUND = envelope('checkin.custom-code.not-found', 'Custom code not found in database');

/** One fresh app per test; after each: I5 (`/ready` answers 200) and I4 (no secret, stack or SQL in the logs). */
export interface FaultContext {
  t: TestApp;
  /** Key secrets and custom codes the test used: none may appear in the logs. */
  secrets: string[];
  arrange(options?: ArrangeOptions): Promise<Arranged>;
}

export function useFaultApp(dialect: TestDialect): FaultContext {
  const ctx = {
    secrets: [] as string[],
    async arrange(options?: ArrangeOptions) {
      const arranged = await arrangePartner(ctx.t.services, options);
      ctx.secrets.push(arranged.key);
      return arranged;
    },
  } as FaultContext;
  beforeEach(async () => {
    ctx.t = await startTestApp({ dialect });
    ctx.secrets = [];
  });
  afterEach(async () => {
    const { t } = ctx;
    // A failed start leaves nothing to check or close (and never a closed app of the previous test).
    if (t === undefined) return;
    ctx.t = undefined as unknown as TestApp;
    try {
      const ready = await t.app.inject({ method: 'GET', url: '/ready' });
      expect(ready.statusCode, 'I5: /ready answers 200 after the scenario').toBe(200);
      expectNoLeaks(t.logs.text(), ctx.secrets, 'I4: logs');
    } finally {
      await t.close();
    }
  });
  return ctx;
}

const STACK =
  /(?:\n|\\n)\s+at |"stack"|\bat (?:async )?[\w.<>]+ \(|(?:file:\/\/|\/)[\w./-]+\.[cm]?[jt]s:\d+:\d+/;
const SQL =
  /\b(?:select\b[^\n]{0,200}\bfrom|insert\s+into|update\s+"?\w+"?\s+set|delete\s+from|drop\s+table)\b/i;
const DATABASE_DETAIL = /sqlite|kysely|no such table|relation "|syntax error|constraint/i;

/** I4 over any text (logs, a body): no secret of the list, no stack trace, no SQL statement. */
export function expectNoLeaks(text: string, secrets: readonly string[], label: string): void {
  for (const secret of secrets) expect(text.includes(secret), `${label} contains a secret`).toBe(false);
  expect(text, `${label} contains a stack trace`).not.toMatch(STACK);
  expect(text, `${label} contains SQL`).not.toMatch(SQL);
}

/** I4 for an error response: nothing of the above, and nothing that names the database or its errors. */
export function expectCleanErrorBody(response: LightMyRequestResponse, secrets: readonly string[]): void {
  expectNoLeaks(response.body, secrets, 'I4: error body');
  expect(response.body, 'I4: error body names the database').not.toMatch(DATABASE_DETAIL);
}

function withoutLastUsed(row: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).filter(([column]) => column !== 'last_used_at'));
}

/**
 * Every row of every table ("no write" rows compare two of these). A key's `last_used_at` is bookkeeping, not a
 * write the matrix is about, so it is left out.
 */
export async function storeState(store: Store): Promise<Record<string, unknown[]>> {
  const snapshot = await snapshotStore(store);
  snapshot.api_keys = (snapshot.api_keys as string[]).map((row) =>
    JSON.stringify(withoutLastUsed(JSON.parse(row) as Record<string, unknown>)),
  );
  return snapshot;
}

/** Runs `scenario` and asserts that it changed no row anywhere. */
export async function expectNoWrite(store: Store, scenario: () => Promise<void>): Promise<void> {
  const before = await storeState(store);
  await scenario();
  expect(await storeState(store), 'no write').toEqual(before);
}

const sorted = (rows: object[]) => rows.map((row) => JSON.stringify(row)).sort();

/** Every row that belongs to one partner: its gyms, products, keys, check-ins, codes and transactions. */
export async function partnerRows(store: Store, partnerId: number) {
  const { db } = store;
  const gyms = await db.selectFrom('gyms').selectAll().where('partner_id', '=', partnerId).execute();
  const gymIds = gyms.map((gym) => gym.id);
  const keys = await db.selectFrom('api_keys').selectAll().where('partner_id', '=', partnerId).execute();
  const keyIds = keys.map((key) => key.id);
  return {
    partners: sorted(await db.selectFrom('partners').selectAll().where('id', '=', partnerId).execute()),
    gyms: sorted(gyms),
    products: sorted(await db.selectFrom('products').selectAll().where('gym_id', 'in', gymIds).execute()),
    api_keys: sorted(keys.map(withoutLastUsed)),
    api_key_gyms: keyIds.length
      ? sorted(await db.selectFrom('api_key_gyms').selectAll().where('key_id', 'in', keyIds).execute())
      : [],
    checkins: sorted(await db.selectFrom('checkins').selectAll().where('gym_id', 'in', gymIds).execute()),
    custom_codes: sorted(
      await db.selectFrom('custom_codes').selectAll().where('gym_id', 'in', gymIds).execute(),
    ),
    transactions: sorted(
      await db.selectFrom('transactions').selectAll().where('partner_id', '=', partnerId).execute(),
    ),
  };
}

export function createCheckin(t: TestApp, a: Arranged, options: { platformId?: string; at?: number } = {}) {
  return t.services.checkins.create({
    platformId: options.platformId ?? platformId(),
    gymId: a.gym.id,
    productId: a.product.id,
    checkedInAt: options.at,
  });
}

/**
 * I3: another partner with a validated visit, a pending check-in and a code — `sharedPlatformId` has a check-in
 * and a code there too, so a request about that member elsewhere must not reach them.
 */
export async function arrangeBystander(ctx: FaultContext, sharedPlatformId = platformId()) {
  const { t } = ctx;
  const b = await ctx.arrange();
  const visited = platformId();
  await createCheckin(t, b, { platformId: visited });
  await t.services.validation.validate({ gymId: b.gym.id, platformId: visited, customCode: 'Bystander#1' });
  await createCheckin(t, b, { platformId: sharedPlatformId });
  await t.services.customCodes.create({ gymId: b.gym.id, platformId: sharedPlatformId }, 'Bystander#2');
  ctx.secrets.push('Bystander#1', 'Bystander#2');
  const before = await partnerRows(t.store, b.partner.id);
  return {
    ...b,
    sharedPlatformId,
    async expectUnchanged() {
      expect(await partnerRows(t.store, b.partner.id), 'I3: another partner’s rows').toEqual(before);
    },
  };
}

export interface PartnerRoute {
  readonly method: 'POST' | 'PUT' | 'DELETE' | 'GET';
  readonly url: string;
  readonly payload?: Record<string, unknown>;
}

/** The partner routes, each with a valid body where it takes one. */
export function partnerRoutes(member: string): PartnerRoute[] {
  const code = `/access/v1/code/${member}`;
  return [
    { method: 'POST', url: '/access/v1/validate', payload: { platform_id: member } },
    { method: 'POST', url: code, payload: { custom_code: 'Route#code1' } },
    { method: 'PUT', url: code, payload: { custom_code: 'Route#code2' } },
    { method: 'DELETE', url: code },
    { method: 'GET', url: code },
  ];
}

export function validate(t: TestApp, a: Pick<Arranged, 'headers'>, body: unknown) {
  return t.app.inject({
    method: 'POST',
    url: '/access/v1/validate',
    headers: a.headers,
    payload: body as InjectOptions['payload'],
  });
}

export function codeRequest(
  t: TestApp,
  a: Pick<Arranged, 'headers'>,
  method: 'POST' | 'PUT' | 'DELETE' | 'GET',
  member: string,
  body?: unknown,
) {
  return t.app.inject({
    method,
    url: `/access/v1/code/${member}`,
    headers: a.headers,
    ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
  });
}
