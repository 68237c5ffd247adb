import { describe, expect, test } from 'vitest';
import { arrangePartner } from '../fixtures/factories.js';
import * as partner from '../fixtures/partner-api.js';
import { checkinRow } from '../fixtures/store-state.js';
import { dialects } from '../fixtures/test-app.js';

const ROUTES = ['validate', 'POST code', 'PUT code', 'DELETE code', 'GET code'] as const;

describe.each(dialects)('Authorization and X-Gym-Id (%s)', (dialect) => {
  const app = partner.sharedApp({ dialect });

  describe.each(ROUTES)('%s', (route) => {
    test.each([
      ['no Authorization header', undefined],
      ['the Basic scheme', 'Basic dXNlcjpwYXNz'],
      ['"Bearer" alone', 'Bearer'],
      ['"Bearer" and spaces only', 'Bearer    '],
      ['another scheme word', 'Token abc'],
    ])(
      'when there is %s, then 401 {"message":"Unauthorized"} and nothing is written',
      async (_, authorization) => {
        const t = app();
        const a = await arrangePartner(t.services);
        const headers =
          authorization === undefined
            ? partner.without(a.headers, 'authorization')
            : { ...a.headers, authorization };
        const before = await partner.storeState(t.store);

        partner.expectReply(await partner.partnerRequest(t, route, headers), 401, partner.UNAUTHORIZED);
        expect(await partner.storeState(t.store)).toEqual(before);
      },
    );

    test.each([
      ['an unknown well-formed key', () => `ghk_00000000_${'0'.repeat(40)}`],
      ['10 KB of garbage', () => 'x'.repeat(10_240)],
      ['odd characters', () => 'ab"c<>{}ñ\u00ff'],
    ])('when the token is %s, then 403 explicit deny and nothing is written', async (_, token) => {
      const t = app();
      const a = await arrangePartner(t.services);
      await partner.expectReplyNoWrite(t, 403, partner.EXPLICIT_DENY, () =>
        partner.partnerRequest(t, route, {
          ...a.headers,
          authorization: `Bearer ${token()}`,
        }),
      );
    });
  });

  /** A fresh partner's member validated with `header(key)` as the Authorization header. */
  async function validateWithAuthorization(header: (key: string) => string) {
    const t = app();
    const { a, checkin } = await partner.arrangeWithCheckin(t);
    const headers = { ...a.headers, authorization: header(a.key) };
    const response = await partner.postValidate(t, headers, { platform_id: checkin.platformId });
    return { t, a, checkin, response };
  }

  test.each([
    ['lowercase "bearer" and several spaces', (key: string) => `bearer   ${key}`],
    ['uppercase "BEARER"', (key: string) => `BEARER ${key}`],
    ['trailing spaces', (key: string) => `Bearer ${key}   `],
  ])('when the header has %s, then the key is read and the member validated', async (_, header) => {
    const { t, a, checkin, response } = await validateWithAuthorization(header);

    partner.expectValidatedNow(t, a, response, { platform_id: checkin.platformId });
  });

  test.each([
    ['the key with one character more', (key: string) => `Bearer ${key}0`],
    ['the key followed by another word', (key: string) => `Bearer ${key} extra`],
    ['the key in another case', (key: string) => `Bearer ${key.toUpperCase()}`],
  ])('when the header has %s, then 403 explicit deny', async (_, header) => {
    const { t, checkin, response } = await validateWithAuthorization(header);

    partner.expectReply(response, 403, partner.EXPLICIT_DENY);
    expect((await checkinRow(t.store, checkin.id)).status).toBe('pending');
  });

  test('when a key is revoked, then its very next request gets 403 and the member stays pending', async () => {
    const t = app();
    const a = await arrangePartner(t.services);
    const first = await partner.arrangeCheckin(t, a);
    const second = await partner.arrangeCheckin(t, a);
    expect((await partner.postValidate(t, a.headers, { platform_id: first.platformId })).statusCode).toBe(
      200,
    );

    await t.services.apiKeys.revoke(a.keyId);
    await partner.expectReplyNoWrite(t, 403, partner.EXPLICIT_DENY, () =>
      partner.postValidate(t, a.headers, { platform_id: second.platformId }),
    );
  });

  test('when a key issued with expires_at is used 1 ms before it, then it works; at expires_at, then 403', async () => {
    const t = app();
    const a = await arrangePartner(t.services);
    const expiresAt = t.clock.now() + 60_000;
    const issued = await t.services.apiKeys.issue(a.partner.id, { expiresAt });
    const headers = { ...a.headers, authorization: `Bearer ${issued.secret}` };
    const early = await partner.arrangeCheckin(t, a);
    const late = await partner.arrangeCheckin(t, a);

    t.clock.set(expiresAt - 1);
    const before = await partner.postValidate(t, headers, { platform_id: early.platformId });
    t.clock.set(expiresAt);
    const snapshot = await partner.storeState(t.store);
    const after = await partner.postValidate(t, headers, { platform_id: late.platformId });

    partner.expectReply(
      before,
      200,
      partner.validationResult(a, { platform_id: early.platformId }, partner.secondsOf(expiresAt - 1)),
    );
    partner.expectReply(after, 403, partner.EXPLICIT_DENY);
    expect(await partner.storeState(t.store)).toEqual(snapshot);
  });

  test('when a key was issued already expired, then 403 explicit deny', async () => {
    const t = app();
    const a = await arrangePartner(t.services);
    const issued = await t.services.apiKeys.issue(a.partner.id, { expiresAt: t.clock.now() - 1 });
    const checkin = await partner.arrangeCheckin(t, a);

    const response = await partner.postValidate(
      t,
      { ...a.headers, authorization: `Bearer ${issued.secret}` },
      {
        platform_id: checkin.platformId,
      },
    );

    partner.expectReply(response, 403, partner.EXPLICIT_DENY);
    expect((await checkinRow(t.store, checkin.id)).status).toBe('pending');
  });

  describe.each(ROUTES)('%s with a live key', (route) => {
    test.each([
      ['missing', undefined],
      ['empty', ''],
      ['not a number', 'abc'],
      ['zero', '0'],
      ['negative', '-1'],
      ['with a leading zero', '01'],
      ['a decimal', '1.5'],
      ['in exponent form', '1e3'],
      ['16 digits long', '1234567890123456'],
      ['10 KB long', '9'.repeat(10_240)],
    ])('when X-Gym-Id is %s, then 400 X-Gym-Id and nothing is written', async (_, gymId) => {
      const t = app();
      const a = await arrangePartner(t.services);
      const headers =
        gymId === undefined ? partner.without(a.headers, 'x-gym-id') : { ...a.headers, 'x-gym-id': gymId };
      const before = await partner.storeState(t.store);

      partner.expectReply(await partner.partnerRequest(t, route, headers), 400, partner.GYM_ID_ERROR);
      expect(await partner.storeState(t.store)).toEqual(before);
    });
  });
});
