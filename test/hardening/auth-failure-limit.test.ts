import { randomBytes } from 'node:crypto';
import { describe, test, vi } from 'vitest';
import { arrangePartner, platformId, type Arranged } from '../fixtures/factories.js';
import * as partner from '../fixtures/partner-api.js';
import { build, dialects, type TestApp } from '../fixtures/test-app.js';
import { expectRateLimited, readCode, withToken } from '../fixtures/rate-limits.js';

const NOT_FOUND = partner.errorEnvelope('route.not-found', 'no route matches this path');
const NOT_ALLOWED = partner.errorEnvelope('route.method-not-allowed', 'method not allowed on this path');
const OTHER_CLIENT = { remoteAddress: '10.11.12.13' };

/** A token shaped like a real key that was never issued. */
function unknownKey(): string {
  return `ghk_${randomBytes(4).toString('hex')}_${randomBytes(20).toString('hex')}`;
}

describe.each(dialects)('the failed-authentication limit per client address (%s)', (dialect) => {
  async function start(limitPerMinute: string): Promise<{ t: TestApp; a: Arranged }> {
    const t = await build({
      dialect,
      env: {
        GATEHOUSE_AUTH_FAILURE_LIMIT_PER_MINUTE: limitPerMinute,
        GATEHOUSE_RATE_LIMIT_PER_SECOND: '0',
      },
    });
    return { t, a: await arrangePartner(t.services) };
  }

  /** Spends the address's budget: `count` refused keys, each answered 403. */
  async function failAuthentication(t: TestApp, a: Arranged, count: number): Promise<void> {
    for (let i = 0; i < count; i += 1) {
      partner.expectReply(
        await readCode(t, withToken(a, unknownKey()), platformId()),
        403,
        partner.EXPLICIT_DENY,
      );
    }
  }

  test('when an address has had 3 keys refused and its limit is 3 a minute, then its next request gets 429 even with a good key', async () => {
    const { t, a } = await start('3');
    await failAuthentication(t, a, 3);
    expectRateLimited(await readCode(t, a.headers, platformId()), 60);
    expectRateLimited(await readCode(t, withToken(a, unknownKey()), platformId()), 60);
  });

  test('when a minute has passed since its last refused key, then the address is served again', async () => {
    const { t, a } = await start('3');
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      await failAuthentication(t, a, 3);
      expectRateLimited(await readCode(t, a.headers, platformId()), 60);
      vi.setSystemTime(Date.now() + 60_000);
      partner.expectReply(await readCode(t, a.headers, platformId()), 404, partner.CODE_NOT_FOUND);
    } finally {
      vi.useRealTimers();
    }
  });

  test('when one address is over its failed-authentication limit, then another address is served', async () => {
    const { t, a } = await start('3');
    await failAuthentication(t, a, 3);
    partner.expectReply(
      await readCode(t, a.headers, platformId(), OTHER_CLIENT),
      404,
      partner.CODE_NOT_FOUND,
    );
    partner.expectReply(
      await readCode(t, withToken(a, unknownKey()), platformId(), OTHER_CLIENT),
      403,
      partner.EXPLICIT_DENY,
    );
  });

  test('when a good key is used between refused ones, then only the refusals count', async () => {
    const { t, a } = await start('3');
    await failAuthentication(t, a, 2);
    for (let i = 0; i < 5; i += 1) {
      partner.expectReply(await readCode(t, a.headers, platformId()), 404, partner.CODE_NOT_FOUND);
    }
    await failAuthentication(t, a, 1);
    expectRateLimited(await readCode(t, a.headers, platformId()), 60);
  });

  test("when a live key asks for another partner's gym, then that 403 counts as a failed authentication too", async () => {
    const { t, a } = await start('2');
    const b = await arrangePartner(t.services);
    for (let i = 0; i < 2; i += 1) {
      const response = await readCode(t, { ...a.headers, 'x-gym-id': String(b.gym.id) }, platformId());
      partner.expectReply(response, 403, partner.EXPLICIT_DENY);
    }
    expectRateLimited(await readCode(t, a.headers, platformId()), 60);
  });

  test('when an address is over its limit, then 404 and 405 still come first, and 429 comes before 401, 403 and 400 X-Gym-Id', async () => {
    const { t, a } = await start('1');
    await failAuthentication(t, a, 1);
    const unknownPath = await t.app.inject({
      method: 'GET',
      url: '/access/v1/nowhere',
      headers: a.headers,
    });
    partner.expectReply(unknownPath, 404, NOT_FOUND);
    const wrongMethod = await t.app.inject({
      method: 'PATCH',
      url: '/access/v1/validate',
      headers: a.headers,
    });
    partner.expectReply(wrongMethod, 405, NOT_ALLOWED);
    expectRateLimited(await readCode(t, partner.without(a.headers, 'authorization'), platformId()), 60);
    expectRateLimited(await readCode(t, { ...a.headers, authorization: 'Basic dXNlcg==' }, platformId()), 60);
    expectRateLimited(await readCode(t, withToken(a, unknownKey()), platformId()), 60);
    expectRateLimited(await readCode(t, { ...a.headers, 'x-gym-id': 'abc' }, platformId()), 60);
  });

  test('when GATEHOUSE_AUTH_FAILURE_LIMIT_PER_MINUTE=0, then refused keys are never limited', async () => {
    const { t, a } = await start('0');
    await failAuthentication(t, a, 70);
    partner.expectReply(await readCode(t, a.headers, platformId()), 404, partner.CODE_NOT_FOUND);
  });
});
