import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { partnerRows } from '../fixtures/fault-app.js';
import { arrangePartner, platformId, type Arranged } from '../fixtures/factories.js';
import { EXPLICIT_DENY, UNAUTHORIZED } from '../fixtures/partner-api.js';
import { expectLedgerInvariants, transactionsOf } from '../fixtures/store-state.js';
import type { TestApp } from '../fixtures/test-app.js';
import { JSON_TYPE } from '../fixtures/wire-bodies.js';

/**
 * Every status the partner API documents: 409 is POST of an existing code.
 * No 5xx: nothing in these requests is a fault of the server.
 */
export const DOCUMENTED_STATUSES = [200, 201, 204, 400, 401, 403, 404, 405, 409, 413, 415, 429];

/** Partner A, whose keys the generated requests mostly carry, and partner B, who must never be touched. */
export interface World {
  readonly t: TestApp;
  readonly a: Arranged;
  /** A key of A's scoped to A's first gym only, and A's second gym, outside that scope. */
  readonly scopedHeaders: Record<string, string>;
  readonly otherGymId: number;
  readonly b: Arranged;
  /** Members with a pending check-in at A's gym: platform id → check-in id. */
  readonly checkins: ReadonlyMap<string, number>;
  readonly secrets: readonly string[];
  expectOtherPartnerUnchanged(): Promise<void>;
}

export async function arrangeWorld(t: TestApp, members = 60): Promise<World> {
  const a = await arrangePartner(t.services);
  const otherGym = await t.services.catalog.createGym({
    id: a.gym.id + 500_000,
    partnerId: a.partner.id,
    name: 'Second gym',
  });
  const scoped = await t.services.apiKeys.issue(a.partner.id, { gymIds: [a.gym.id] });
  const checkins = new Map<string, number>();
  for (let i = 0; i < members; i += 1) {
    const member = platformId();
    const checkin = await t.services.checkins.create({
      platformId: member,
      gymId: a.gym.id,
      productId: a.product.id,
    });
    checkins.set(member, checkin.id);
    if (i % 3 === 0) await t.services.customCodes.create({ gymId: a.gym.id, platformId: member }, `A-${i}`);
  }

  // B shares members with A (same platform ids) so that a request leaking across partners would show.
  const b = await arrangePartner(t.services);
  for (const member of [...checkins.keys()].slice(0, 10)) {
    await t.services.checkins.create({ platformId: member, gymId: b.gym.id, productId: b.product.id });
    await t.services.customCodes.create({ gymId: b.gym.id, platformId: member }, 'B-code');
  }
  const visited = [...checkins.keys()][0]!;
  await t.services.validation.validate({ gymId: b.gym.id, platformId: visited, customCode: 'B-visit' });
  const before = await partnerRows(t.store, b.partner.id);

  return {
    t,
    a,
    scopedHeaders: { authorization: `Bearer ${scoped.secret}`, 'x-gym-id': String(a.gym.id) },
    otherGymId: otherGym.id,
    b,
    checkins,
    secrets: [a.key, b.key, scoped.secret],
    async expectOtherPartnerUnchanged() {
      expect(await partnerRows(t.store, b.partner.id), 'partner B’s rows').toEqual(before);
    },
  };
}

/**
 * A documented status, an X-Request-Id, and a JSON body of the documented shape on
 * everything but 204 (and HEAD, whose body HTTP leaves out).
 */
export function expectDocumentedAnswer(method: string, response: LightMyRequestResponse): void {
  const { statusCode: status } = response;
  const context = `${status} ${response.body.slice(0, 300)}`;
  expect(DOCUMENTED_STATUSES, context).toContain(status);
  expect(response.headers['x-request-id'], context).toMatch(/^\S+$/);
  if (status === 204 || method === 'HEAD') {
    expect(response.body, context).toBe('');
    return;
  }
  expect(response.headers['content-type'], context).toBe(JSON_TYPE);
  const body = JSON.parse(response.body) as Record<string, unknown>;
  if (status === 401) expect(body).toEqual(UNAUTHORIZED);
  else if (status === 403) expect(body).toEqual(EXPLICIT_DENY);
  else if (status >= 400) {
    expect(body, context).toEqual({
      metadata: { total: 0, errors: 1 },
      errors: [{ message: expect.any(String) as string, key: expect.any(String) as string }],
    });
  } else {
    expect(body.metadata, context).toEqual({ total: expect.any(Number) as number, errors: 0 });
    expect(body, context).toHaveProperty('results');
  }
}

/** For one answer: a validate that answered 200 has its transaction, and no member is validated twice. */
export async function expectValidationRecorded(
  world: World,
  validatedBefore: Set<string>,
  response: LightMyRequestResponse,
): Promise<void> {
  const body = response.json<{ results: { user: { platform_id: string } } }>();
  const member = body.results.user.platform_id;
  const checkinId = world.checkins.get(member);
  expect(checkinId, `200 for a member with no check-in: ${member}`).toBeDefined();
  expect(validatedBefore.has(member), `a second 200 for ${member}`).toBe(false);
  validatedBefore.add(member);
  expect(await transactionsOf(world.t.store, checkinId!)).toHaveLength(1);
}

/**
 * The ledger's invariants over the whole store, partner B's rows unchanged, and the logs so far: no key, no
 * unexpected error.
 */
export async function expectWorldIntact(world: World): Promise<void> {
  await expectLedgerInvariants(world.t.store);
  await world.expectOtherPartnerUnchanged();
  const logs = world.t.logs.text();
  for (const secret of world.secrets) expect(logs.includes(secret), 'a key in the logs').toBe(false);
  const failures = world.t.logs.lines.filter((line) => (JSON.parse(line) as { level: number }).level >= 50);
  expect(failures, 'unexpected errors in the logs').toEqual([]);
}
