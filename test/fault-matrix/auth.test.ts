import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import { dialects } from '../fixtures/test-app.js';
import {
  arrangeBystander,
  createCheckin,
  expectCleanErrorBody,
  expectNoWrite,
  partnerRoutes,
  useFaultApp,
} from '../fixtures/fault-app.js';
import { EXPLICIT_DENY, GYM_ID_ERROR, UNAUTHORIZED } from '../fixtures/wire-bodies.js';
import { codeRequest } from '../fixtures/partner-api.js';

/** A token shaped exactly like a real key (`ghk_<8 hex>_<40 hex>`) that was never issued. */
function wellFormedUnknownKey(): string {
  return `ghk_${randomBytes(4).toString('hex')}_${randomBytes(20).toString('hex')}`;
}

describe.each(dialects)('authentication and gym scope (%s)', (dialect) => {
  const ctx = useFaultApp(dialect);

  test('when no Authorization header is sent to any partner route, then 401 Unauthorized and no write', async () => {
    const { t } = ctx;
    const a = await ctx.arrange();
    await expectNoWrite(t.store, async () => {
      for (const route of partnerRoutes(platformId())) {
        const response = await t.app.inject({ ...route, headers: { 'x-gym-id': String(a.gym.id) } });
        expect(response.statusCode, `${route.method} ${route.url}`).toBe(401);
        expect(response.json()).toEqual(UNAUTHORIZED);
      }
    });
  });

  test.each([
    ['Basic dXNlcjpwYXNzd29yZA=='],
    ['Token abcdef'],
    ['Bearer'],
    ['Bearer '],
    ['bearer      '],
    [''],
  ])(
    'when Authorization is %j (another scheme, or Bearer with no token), then 401 Unauthorized',
    async (authorization) => {
      const { t } = ctx;
      const a = await ctx.arrange();
      await expectNoWrite(t.store, async () => {
        for (const route of partnerRoutes(platformId())) {
          const response = await t.app.inject({ ...route, headers: { ...a.headers, authorization } });
          expect(response.statusCode, `${route.method} ${route.url}`).toBe(401);
          expect(response.json()).toEqual(UNAUTHORIZED);
        }
      });
    },
  );

  test('when the Bearer token is garbage (wrong length, bad characters, 10 KB), then the 403 explicit deny', async () => {
    const { t } = ctx;
    const a = await ctx.arrange();
    const garbage = [
      'x',
      `${a.key}x`,
      a.key.slice(0, -1),
      'ghk_zzzzzzzz_!!!!',
      '"><script>alert(1)</script>',
      "' OR '1'='1",
      'ñandú-ÿ-ü',
      'two words',
      'A'.repeat(10 * 1024),
    ];
    await expectNoWrite(t.store, async () => {
      for (const token of garbage) {
        const response = await codeRequest(t, 'GET', platformId(), {
          ...a.headers,
          authorization: `Bearer ${token}`,
        });
        expect(response.statusCode, token.slice(0, 40)).toBe(403);
        expect(response.json()).toEqual(EXPLICIT_DENY);
      }
    });
    ctx.secrets.push('A'.repeat(10 * 1024), '"><script>alert(1)</script>', "' OR '1'='1");
  });

  test('when the key is well formed but unknown, then 403 explicit deny, and keys are stored and found only by their hash', async () => {
    const { t } = ctx;
    const a = await ctx.arrange();
    const unknown = wellFormedUnknownKey();
    ctx.secrets.push(unknown);
    // Same prefix as a live key: a lookup by prefix (or a character-by-character compare) would find that key.
    const samePrefix = `${a.key.slice(0, 13)}${randomBytes(20).toString('hex')}`;
    const checkin = await createCheckin(t, a);
    await expectNoWrite(t.store, async () => {
      for (const token of [unknown, samePrefix, a.key.toUpperCase()]) {
        const response = await t.app.inject({
          method: 'POST',
          url: '/access/v1/validate',
          headers: { ...a.headers, authorization: `Bearer ${token}` },
          payload: { platform_id: checkin.platformId },
        });
        expect(response.statusCode).toBe(403);
        expect(response.json()).toEqual(EXPLICIT_DENY);
      }
    });
    const row = await t.store.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', a.keyId)
      .executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(createHash('sha256').update(a.key).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(a.key.slice(13));
  });

  test('when a key was revoked a moment ago, then its very next request is 403 on the same instance; an expired key is 403 too', async () => {
    const { t } = ctx;
    const a = await ctx.arrange();
    const member = platformId();
    await t.services.customCodes.create({ gymId: a.gym.id, platformId: member }, 'Revoke#row4');
    ctx.secrets.push('Revoke#row4');
    expect((await codeRequest(t, 'GET', member, a.headers)).statusCode).toBe(200);

    await t.services.apiKeys.revoke(a.keyId);
    await expectNoWrite(t.store, async () => {
      const response = await codeRequest(t, 'PUT', member, a.headers, { custom_code: 'Revoke#late' });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual(EXPLICIT_DENY);
    });

    const expiring = await t.services.apiKeys.issue(a.partner.id, { expiresAt: t.clock.now() + 60_000 });
    ctx.secrets.push(expiring.secret);
    const headers = { ...a.headers, authorization: `Bearer ${expiring.secret}` };
    expect((await codeRequest(t, 'GET', member, headers)).statusCode).toBe(200);
    t.clock.advance(60_000);
    const expired = await codeRequest(t, 'GET', member, headers);
    expect(expired.statusCode).toBe(403);
    expect(expired.json()).toEqual(EXPLICIT_DENY);
  });

  test("when partner A's key names partner B's gym (or no gym at all) on every partner route, then the same 403 and B's rows are unchanged", async () => {
    const { t } = ctx;
    const a = await ctx.arrange();
    const b = await arrangeBystander(ctx);
    for (const gymId of [b.gym.id, 999_999_999]) {
      for (const route of partnerRoutes(b.sharedPlatformId)) {
        const response = await t.app.inject({
          ...route,
          headers: { ...a.headers, 'x-gym-id': String(gymId) },
        });
        expect(response.statusCode, `${route.method} ${route.url} gym ${gymId}`).toBe(403);
        expect(response.json()).toEqual(EXPLICIT_DENY);
        expectCleanErrorBody(response, ctx.secrets);
      }
    }
    await b.expectUnchanged();
  });

  test('when a key scoped to gym 1 names gym 2 of the same partner, then 403, and gym 1 still works', async () => {
    const { t } = ctx;
    const a = await ctx.arrange({ scopedToGym: true });
    const otherGym = await t.services.catalog.createGym({ partnerId: a.partner.id, name: 'Second site' });
    const otherProduct = await t.services.catalog.createProduct(otherGym.id, { description: 'Day pass' });
    const member = platformId();
    await t.services.checkins.create({ platformId: member, gymId: otherGym.id, productId: otherProduct.id });
    await expectNoWrite(t.store, async () => {
      for (const route of partnerRoutes(member)) {
        const response = await t.app.inject({
          ...route,
          headers: { ...a.headers, 'x-gym-id': String(otherGym.id) },
        });
        expect(response.statusCode, `${route.method} ${route.url}`).toBe(403);
        expect(response.json()).toEqual(EXPLICIT_DENY);
      }
    });
    expect((await codeRequest(t, 'GET', member, a.headers)).statusCode).toBe(404);
  });

  test.each([
    ['missing', undefined],
    ['empty', ''],
    ['non-numeric', 'gym-1'],
    ['negative', '-1'],
    ['zero', '0'],
    ['leading zero', '01'],
    ['decimal', '1.5'],
    ['exponent', '1e3'],
    ['Arabic-Indic digits', '١٢'],
    ['longer than 15 digits', '1234567890123456'],
    ['10 KB long', '7'.repeat(10 * 1024)],
  ])('when X-Gym-Id is %s, then 400 X-Gym-Id and no write', async (_label, gymId) => {
    const { t } = ctx;
    const a = await ctx.arrange();
    const checkin = await createCheckin(t, a);
    const gymHeader: Record<string, string> = gymId === undefined ? {} : { 'x-gym-id': gymId };
    const headers = { ...gymHeader, authorization: a.headers.authorization };
    const [validateRoute] = partnerRoutes(checkin.platformId);
    await expectNoWrite(t.store, async () => {
      for (const route of partnerRoutes(checkin.platformId)) {
        const response = await t.app.inject({ ...route, headers });
        expect(response.statusCode, `${route.method} ${route.url}`).toBe(400);
        expect(response.json()).toEqual(GYM_ID_ERROR);
      }
      // Authentication comes first: a bad key with a bad X-Gym-Id is the 403, no key at all the 401.
      const badKey = await t.app.inject({
        ...validateRoute,
        headers: { ...gymHeader, authorization: 'Bearer nope' },
      });
      expect(badKey.statusCode).toBe(403);
      expect(badKey.json()).toEqual(EXPLICIT_DENY);
      const anonymous = await t.app.inject({ ...validateRoute, headers: gymHeader });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toEqual(UNAUTHORIZED);
    });
  });
});
