import { describe, expect, test } from 'vitest';
import { CheckinValidatedConflictError } from '../../src/domain/errors.js';
import { arrangePartner, platformId } from '../fixtures/factories.js';
import * as partner from '../fixtures/partner-api.js';
import { checkinRow, expectLedgerInvariants, transactionsOf } from '../fixtures/store-state.js';
import { dialects } from '../fixtures/test-app.js';

const TTL_MS = 1_200_000;

describe.each(dialects)('check-in lifecycle as validate sees it (%s)', (dialect) => {
  const app = partner.sharedApp({ dialect });

  test('when a check-in is created, then it expires GATEHOUSE_CHECKIN_TTL_SECONDS (default 1200 s) after checked_in_at', async () => {
    const t = app();
    const a = await arrangePartner(t.services);
    const checkedInAt = t.clock.now() - 60_000;

    const checkin = await partner.arrangeCheckin(t, a, { checkedInAt });

    expect({
      checkedInAt: checkin.checkedInAt,
      expiresAt: checkin.expiresAt,
      status: checkin.status,
    }).toEqual({
      checkedInAt,
      expiresAt: checkedInAt + TTL_MS,
      status: 'pending',
    });
  });

  test('when now is 1 ms before expires_at, then the check-in is still valid: 200', async () => {
    const t = app();
    const { a, checkin } = await partner.arrangeWithCheckin(t);
    t.clock.set(checkin.expiresAt - 1);

    const response = await partner.postValidate(t, a.headers, { platform_id: checkin.platformId });

    partner.expectValidatedNow(t, a, response, { platform_id: checkin.platformId });
    expect((await checkinRow(t.store, checkin.id)).validated_at).toBe(checkin.expiresAt - 1);
    expect(await transactionsOf(t.store, checkin.id)).toHaveLength(1);
  });

  test('when now equals expires_at, then the check-in is expired: 400 checkin.validation.expired, nothing written', async () => {
    const t = app();
    const { a, checkin } = await partner.arrangeWithCheckin(t);
    t.clock.set(checkin.expiresAt);
    await partner.expectReplyNoWrite(t, 400, partner.EXPIRED, () =>
      partner.postValidate(t, a.headers, { platform_id: checkin.platformId }),
    );
  });

  test('when the member has two check-ins, then the one with the greatest checked_in_at is validated, even if created first', async () => {
    const t = app();
    const a = await arrangePartner(t.services);
    const member = platformId();
    const latest = await partner.arrangeCheckin(t, a, {
      platformId: member,
      checkedInAt: t.clock.now() - 10_000,
    });
    const older = await partner.arrangeCheckin(t, a, {
      platformId: member,
      checkedInAt: t.clock.now() - 60_000,
    });
    const olderBefore = await checkinRow(t.store, older.id);

    const response = await partner.postValidate(t, a.headers, { platform_id: member });

    partner.expectValidatedNow(t, a, response, { platform_id: member });
    expect((await checkinRow(t.store, latest.id)).status).toBe('validated');
    expect(await checkinRow(t.store, older.id)).toEqual(olderBefore);
    expect(await transactionsOf(t.store, older.id)).toEqual([]);
    expect(await transactionsOf(t.store, latest.id)).toHaveLength(1);
    await expectLedgerInvariants(t.store);
  });

  test('when two check-ins share checked_in_at, then the one created last is validated, with its own product', async () => {
    const t = app();
    const a = await arrangePartner(t.services);
    const dayPass = await t.services.catalog.createProduct(a.gym.id, {
      description: 'Day pass',
      payoutCents: 700,
      currency: 'BRL',
    });
    const member = platformId();
    const at = t.clock.now() - 30_000;
    const first = await partner.arrangeCheckin(t, a, { platformId: member, checkedInAt: at });
    const second = await t.services.checkins.create({
      platformId: member,
      gymId: a.gym.id,
      productId: dayPass.id,
      checkedInAt: at,
    });

    const response = await partner.postValidate(t, a.headers, { platform_id: member });

    partner.expectReply(
      response,
      200,
      partner.validationResult(a, { platform_id: member }, partner.secondsOf(t.clock.now()), dayPass),
    );
    expect((await checkinRow(t.store, first.id)).status).toBe('pending');
    expect(await transactionsOf(t.store, second.id)).toEqual([
      expect.objectContaining({ checkin_id: second.id, product_id: dayPass.id, payout_cents: 700 }),
    ]);
  });

  test('when the latest check-in is cancelled, then 400 cancelled and the older pending one is not validated', async () => {
    const t = app();
    const a = await arrangePartner(t.services);
    const member = platformId();
    await partner.arrangeCheckin(t, a, { platformId: member, checkedInAt: t.clock.now() - 60_000 });
    const latest = await partner.arrangeCheckin(t, a, {
      platformId: member,
      checkedInAt: t.clock.now() - 10_000,
    });
    await t.services.checkins.cancel(latest.id);
    await partner.expectReplyNoWrite(t, 400, partner.CANCELLED, () =>
      partner.postValidate(t, a.headers, { platform_id: member }),
    );
  });

  test('when a validated check-in is cancelled, then the service refuses with 409 checkin.already.validated', async () => {
    const t = app();
    const { a, checkin } = await partner.arrangeWithCheckin(t);
    await partner.postValidate(t, a.headers, { platform_id: checkin.platformId });
    const before = await partner.storeState(t.store);

    const refusal = t.services.checkins.cancel(checkin.id);

    await expect(refusal).rejects.toThrow(CheckinValidatedConflictError);
    await expect(refusal).rejects.toMatchObject({
      statusCode: 409,
      key: 'checkin.already.validated',
      message: 'Check-In already validated',
    });
    expect(await partner.storeState(t.store)).toEqual(before);
  });

  test('when a cancelled check-in is cancelled again, then it comes back cancelled, its first cancellation kept', async () => {
    const t = app();
    const { checkin } = await partner.arrangeWithCheckin(t);
    const first = await t.services.checkins.cancel(checkin.id);
    t.clock.advance(1_000);

    const again = await t.services.checkins.cancel(checkin.id);

    expect(again).toEqual(first);
    expect(again).toMatchObject({ status: 'cancelled', cancelledAt: t.clock.now() - 1_000 });
  });

  test('when an expired check-in is cancelled, then it comes back cancelled and validate then says cancelled', async () => {
    const t = app();
    const a = await arrangePartner(t.services);
    const checkin = await partner.arrangeCheckin(t, a, { checkedInAt: t.clock.now() - TTL_MS - 5_000 });

    const cancelled = await t.services.checkins.cancel(checkin.id);

    expect(cancelled.status).toBe('cancelled');
    partner.expectReply(
      await partner.postValidate(t, a.headers, { platform_id: checkin.platformId }),
      400,
      partner.CANCELLED,
    );
  });
});
