import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, expect } from 'vitest';
import type { Store } from '../../src/store/store.js';
import { arrangePartner, platformId, type ArrangeOptions, type Arranged } from './factories.js';
import { storeState } from './partner-api.js';
import { startTestApp, type TestApp, type TestDialect } from './test-app.js';

/** One fresh app per test; after each: `/ready` answers 200, and no secret, stack or SQL is in the logs. */
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
      expect(ready.statusCode, '/ready answers 200 after the scenario').toBe(200);
      expectNoLeaks(t.logs.text(), ctx.secrets, 'logs');
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

/** Secrets stay secret, over any text (logs, a body): no secret of the list, no stack trace, no SQL statement. */
export function expectNoLeaks(text: string, secrets: readonly string[], label: string): void {
  for (const secret of secrets) expect(text.includes(secret), `${label} contains a secret`).toBe(false);
  expect(text, `${label} contains a stack trace`).not.toMatch(STACK);
  expect(text, `${label} contains SQL`).not.toMatch(SQL);
}

/**
 * Secrets stay secret in an error response: nothing of the above, and nothing that names the database or its
 * errors.
 */
export function expectCleanErrorBody(response: LightMyRequestResponse, secrets: readonly string[]): void {
  expectNoLeaks(response.body, secrets, 'error body');
  expect(response.body, 'error body names the database').not.toMatch(DATABASE_DETAIL);
}

function withoutLastUsed(row: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).filter(([column]) => column !== 'last_used_at'));
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
 * Other partners' rows stay unchanged: another partner with a validated visit, a pending check-in and a code —
 * `sharedPlatformId` has a check-in and a code there too, so a request about that member elsewhere must not
 * reach them.
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
      expect(await partnerRows(t.store, b.partner.id), 'another partner’s rows').toEqual(before);
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
