import { describe, expect, test } from 'vitest';
import { arrangePartner, platformId } from '../fixtures/factories.js';
import * as partner from '../fixtures/partner-api.js';
import { checkinRow, expectLedgerInvariants, transactionsOf, visitRow } from '../fixtures/store-state.js';
import { dialects } from '../fixtures/test-app.js';

const TTL_MS = 1_200_000;

describe.each(dialects)('validate (%s)', (dialect) => {
  const app = partner.sharedApp({ dialect });

  test('when the check-in is valid, then 200 with the full result, the check-in is validated and one transaction copies the product', async () => {
    const t = app();
    const a = await arrangePartner(t.services, { payoutCents: 1250, currency: 'BRL' });
    const checkin = await partner.arrangeCheckin(t, a);
    const before = await checkinRow(t.store, checkin.id);
    const now = t.clock.now();

    const response = await partner.postValidate(t, a.headers, { platform_id: checkin.platformId });

    partner.expectReply(
      response,
      200,
      partner.validationResult(a, { platform_id: checkin.platformId }, partner.secondsOf(now)),
    );
    expect(await checkinRow(t.store, checkin.id)).toEqual({
      ...before,
      status: 'validated',
      validated_at: now,
    });
    expect(await transactionsOf(t.store, checkin.id)).toEqual([visitRow(a, checkin, 1250, 'BRL', now)]);
    await expectLedgerInvariants(t.store);
  });

  test('when the product pays 0 in another currency, then the validation is valid and the transaction carries 0 USD', async () => {
    const t = app();
    const a = await arrangePartner(t.services, { payoutCents: 0, currency: 'USD' });
    const checkin = await partner.arrangeCheckin(t, a);

    const response = await partner.postValidate(t, a.headers, { platform_id: checkin.platformId });

    partner.expectValidatedNow(t, a, response, { platform_id: checkin.platformId });
    const [transaction] = await transactionsOf(t.store, checkin.id);
    expect({ payout: transaction?.payout_cents, currency: transaction?.currency }).toEqual({
      payout: 0,
      currency: 'USD',
    });
    await expectLedgerInvariants(t.store);
  });

  test('when the member has no check-in at all, then 404 checkin.validation.notfound and nothing is written', async () => {
    const t = app();
    const a = await arrangePartner(t.services);
    await partner.expectReplyNoWrite(t, 404, partner.NOT_FOUND_CHECKIN, () =>
      partner.postValidate(t, a.headers, { platform_id: platformId() }),
    );
  });

  test("when the member's only check-in is at another gym of the partner, then 404 and that check-in stays pending", async () => {
    const t = app();
    const a = await arrangePartner(t.services);
    const other = await t.services.catalog.createGym({
      id: a.gym.id + 50_000,
      partnerId: a.partner.id,
      name: 'B',
    });
    const otherProduct = await t.services.catalog.createProduct(other.id, { description: 'Other' });
    const member = platformId();
    await t.services.checkins.create({ platformId: member, gymId: other.id, productId: otherProduct.id });
    await partner.expectReplyNoWrite(t, 404, partner.NOT_FOUND_CHECKIN, () =>
      partner.postValidate(t, a.headers, { platform_id: member }),
    );
  });

  test('when the member cancelled the check-in, then 400 checkin.validation.cancelled and nothing is written', async () => {
    const t = app();
    const { a, checkin } = await partner.arrangeWithCheckin(t);
    await t.services.checkins.cancel(checkin.id);
    await partner.expectReplyNoWrite(t, 400, partner.CANCELLED, () =>
      partner.postValidate(t, a.headers, { platform_id: checkin.platformId }),
    );
    expect((await checkinRow(t.store, checkin.id)).status).toBe('cancelled');
  });

  test('when the check-in window elapsed, then 400 checkin.validation.expired and nothing is written', async () => {
    const t = app();
    const a = await arrangePartner(t.services);
    const checkin = await partner.arrangeCheckin(t, a, { checkedInAt: t.clock.now() - TTL_MS - 1 });
    await partner.expectReplyNoWrite(t, 400, partner.EXPIRED, () =>
      partner.postValidate(t, a.headers, { platform_id: checkin.platformId }),
    );
    expect((await checkinRow(t.store, checkin.id)).status).toBe('pending');
  });

  test('when the check-in is already validated, then 400 checkin.already.validated and no second transaction', async () => {
    const t = app();
    const { a, checkin } = await partner.arrangeWithCheckin(t);
    await t.services.validation.validate({
      gymId: a.gym.id,
      platformId: checkin.platformId,
      customCode: undefined,
    });
    t.clock.advance(5_000);
    await partner.expectReplyNoWrite(t, 400, partner.ALREADY_VALIDATED, () =>
      partner.postValidate(t, a.headers, { platform_id: checkin.platformId }),
    );
    expect(await transactionsOf(t.store, checkin.id)).toHaveLength(1);
  });

  test('when the same validate is sent 5 times in a row, then 200 once and 4 × 400 checkin.already.validated', async () => {
    const t = app();
    const { a, checkin } = await partner.arrangeWithCheckin(t);

    const replies = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const response = await partner.postValidate(t, a.headers, { platform_id: checkin.platformId });
      replies.push({ status: response.statusCode, body: JSON.parse(response.body) as unknown });
    }

    const ok = partner.validationResult(
      a,
      { platform_id: checkin.platformId },
      partner.secondsOf(t.clock.now()),
    );
    const refused = { status: 400, body: partner.ALREADY_VALIDATED };
    expect(replies).toEqual([{ status: 200, body: ok }, refused, refused, refused, refused]);
    expect(await transactionsOf(t.store, checkin.id)).toHaveLength(1);
    await expectLedgerInvariants(t.store);
  });

  test('when the clock has milliseconds, then validated_at is YYYY-MM-DDThh:mm:ssZ truncated to the second', async () => {
    const t = app();
    const a = await arrangePartner(t.services);
    t.clock.set('2026-07-09T23:59:59.999Z');
    const checkin = await partner.arrangeCheckin(t, a);

    const response = await partner.postValidate(t, a.headers, { platform_id: checkin.platformId });

    partner.expectReply(
      response,
      200,
      partner.validationResult(a, { platform_id: checkin.platformId }, '2026-07-09T23:59:59Z'),
    );
    expect((JSON.parse(response.body) as { results: { validated_at: string } }).results.validated_at).toMatch(
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/,
    );
    const [transaction] = await transactionsOf(t.store, checkin.id);
    expect(transaction?.validated_at).toBe(Date.parse('2026-07-09T23:59:59.999Z'));
  });
});
