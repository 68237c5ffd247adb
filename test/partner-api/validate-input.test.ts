import { describe, expect, test } from 'vitest';
import { BAD_CODES, BAD_IDS } from '../fixtures/bad-inputs.js';
import { arrangePartner, platformId } from '../fixtures/factories.js';
import * as partner from '../fixtures/partner-api.js';
import { checkinRow, customCodeRow, transactionsOf } from '../fixtures/store-state.js';
import { dialects } from '../fixtures/test-app.js';

describe.each(dialects)('validate input (%s)', (dialect) => {
  const app = partner.sharedApp({ dialect });

  test.each(BAD_IDS)(
    'when platform_id is %s, then 400 platform_id and nothing is written',
    async (_, value) => {
      const t = app();
      const a = await arrangePartner(t.services);
      await partner.arrangeCheckin(t, a, { platformId: '1234567890123' });
      await partner.expectReplyNoWrite(t, 400, partner.PLATFORM_ID_ERROR, () =>
        partner.postValidate(t, a.headers, { platform_id: value }),
      );
    },
  );

  test.each(BAD_IDS)('when gympass_id alone is %s, then 400 platform_id', async (_, value) => {
    const t = app();
    const a = await arrangePartner(t.services);
    await partner.expectReplyNoWrite(t, 400, partner.PLATFORM_ID_ERROR, () =>
      partner.postValidate(t, a.headers, { gympass_id: value }),
    );
  });

  test.each([
    ['an empty object', {}],
    ['both ids null', { platform_id: null, gympass_id: null }],
    ['only a custom_code', { custom_code: 'QR-1' }],
  ])('when the body has %s, then 400 platform_id', async (_, body) => {
    const t = app();
    const a = await arrangePartner(t.services);
    const before = await partner.storeState(t.store);

    partner.expectReply(await partner.postValidate(t, a.headers, body), 400, partner.PLATFORM_ID_ERROR);
    expect(await partner.storeState(t.store)).toEqual(before);
  });

  test('when the id has leading zeros, then it is accepted and echoed byte for byte', async () => {
    const t = app();
    const a = await arrangePartner(t.services);
    const checkin = await partner.arrangeCheckin(t, a, { platformId: '0000000000042' });

    const response = await partner.postValidate(t, a.headers, { platform_id: '0000000000042' });

    partner.expectValidatedNow(t, a, response, { platform_id: '0000000000042' });
    expect((await checkinRow(t.store, checkin.id)).status).toBe('validated');
  });

  test('when only gympass_id is sent, then it validates and results.user echoes platform_id and gympass_id', async () => {
    const t = app();
    const { a, checkin } = await partner.arrangeWithCheckin(t);

    const response = await partner.postValidate(t, a.headers, { gympass_id: checkin.platformId });

    const user = { platform_id: checkin.platformId, gympass_id: checkin.platformId };
    partner.expectValidatedNow(t, a, response, user);
    expect(await transactionsOf(t.store, checkin.id)).toHaveLength(1);
  });

  test('when both ids are sent and equal, then it validates and both are echoed', async () => {
    const t = app();
    const { a, checkin } = await partner.arrangeWithCheckin(t);
    const id = checkin.platformId;

    const response = await partner.postValidate(t, a.headers, { platform_id: id, gympass_id: id });

    partner.expectValidatedNow(t, a, response, { platform_id: id, gympass_id: id });
  });

  test('when platform_id is null next to a valid gympass_id, then it counts as absent and the member is validated', async () => {
    const t = app();
    const { a, checkin } = await partner.arrangeWithCheckin(t);
    const id = checkin.platformId;

    const response = await partner.postValidate(t, a.headers, { platform_id: null, gympass_id: id });

    partner.expectValidatedNow(t, a, response, { platform_id: id, gympass_id: id });
    expect((await checkinRow(t.store, checkin.id)).status).toBe('validated');
  });

  test('when gympass_id is null next to a valid platform_id, then only platform_id is echoed', async () => {
    const t = app();
    const { a, checkin } = await partner.arrangeWithCheckin(t);

    const response = await partner.postValidate(t, a.headers, {
      platform_id: checkin.platformId,
      gympass_id: null,
    });

    partner.expectValidatedNow(t, a, response, { platform_id: checkin.platformId });
  });

  test('when both ids are sent and differ, then 400 platform_id and neither member is validated', async () => {
    const t = app();
    const a = await arrangePartner(t.services);
    const first = await partner.arrangeCheckin(t, a);
    const second = await partner.arrangeCheckin(t, a);
    await partner.expectReplyNoWrite(
      t,
      400,
      partner.errorEnvelope('platform_id', 'must equal gympass_id when both are sent'),
      () =>
        partner.postValidate(t, a.headers, {
          platform_id: first.platformId,
          gympass_id: second.platformId,
          custom_code: '   ',
        }),
    );
  });

  test.each(BAD_CODES)(
    'when custom_code is %s, then 400 custom_code, the stored code is unchanged and the check-in stays pending',
    async (_, value, message) => {
      const t = app();
      const { a, checkin } = await partner.arrangeWithCheckin(t);
      await t.services.customCodes.create({ gymId: a.gym.id, platformId: checkin.platformId }, 'KEEP-ME');
      await partner.expectReplyNoWrite(t, 400, partner.errorEnvelope('custom_code', message), () =>
        partner.postValidate(t, a.headers, {
          platform_id: checkin.platformId,
          custom_code: value,
        }),
      );
    },
  );

  test.each([
    ['13 emoji (13 code points)', '😀'.repeat(13)],
    ['13 ASCII characters', 'ABCDEFGHIJKLM'],
    ['one character', '7'],
    ['inner spaces', ' A B '],
  ])('when custom_code is %s, then it is accepted and stored verbatim', async (_, code) => {
    const t = app();
    const { a, checkin } = await partner.arrangeWithCheckin(t);

    const response = await partner.postValidate(t, a.headers, {
      platform_id: checkin.platformId,
      custom_code: code,
    });

    partner.expectValidatedNow(t, a, response, { platform_id: checkin.platformId });
    expect((await customCodeRow(t.store, a.gym.id, checkin.platformId))?.code).toBe(code);
  });

  test('when platform_id and custom_code are both bad, then the platform_id error wins', async () => {
    const t = app();
    const a = await arrangePartner(t.services);

    const response = await partner.postValidate(t, a.headers, {
      platform_id: 42,
      custom_code: 'ABCDEFGHIJKLMN',
    });

    partner.expectReply(response, 400, partner.PLATFORM_ID_ERROR);
  });

  test('when a valid platform_id comes with a 14-character code, then the custom_code length error is returned', async () => {
    const t = app();
    const a = await arrangePartner(t.services);

    const response = await partner.postValidate(t, a.headers, {
      platform_id: platformId(),
      custom_code: '12345678901234',
    });

    partner.expectReply(response, 400, partner.CODE_LENGTH_ERROR);
  });

  test('when the body carries unknown fields (status, gym_id, partner_id, product_id, validated_at), then they are ignored', async () => {
    const t = app();
    const a = await arrangePartner(t.services);
    const b = await arrangePartner(t.services);
    const checkin = await partner.arrangeCheckin(t, a);
    const now = t.clock.now();

    const response = await partner.postValidate(t, a.headers, {
      platform_id: checkin.platformId,
      status: 'cancelled',
      gym_id: b.gym.id,
      partner_id: b.partner.id,
      product_id: b.product.id,
      validated_at: '2001-01-01T00:00:00Z',
      payout_cents: 1,
    });

    partner.expectReply(
      response,
      200,
      partner.validationResult(a, { platform_id: checkin.platformId }, partner.secondsOf(now)),
    );
    expect(await transactionsOf(t.store, checkin.id)).toEqual([
      expect.objectContaining({
        partner_id: a.partner.id,
        gym_id: a.gym.id,
        product_id: a.product.id,
        payout_cents: a.product.payoutCents,
        validated_at: now,
      }),
    ]);
  });
});
