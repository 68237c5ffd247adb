import { sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import { arrangePartner, platformId } from '../fixtures/factories.js';
import * as partner from '../fixtures/partner-api.js';
import {
  checkinRow,
  customCodeRow,
  expectLedgerInvariants,
  transactionsOf,
  expectCodeRow,
} from '../fixtures/store-state.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';

const TTL_MS = 1_200_000;

/** A member whose code at the gym is already 'OLD-CODE', written an hour before the test's now. */
async function withStoredCode(t: TestApp, gymId: number, member: string) {
  const now = t.clock.now();
  t.clock.set(now - 3_600_000);
  await t.services.customCodes.create({ gymId, platformId: member }, 'OLD-CODE');
  t.clock.set(now);
}

describe.each(dialects)('custom_code in validate: when it is stored (%s)', (dialect) => {
  const app = partner.sharedApp({ dialect });

  test('when the check-in is valid, then 200 and the code is stored with the validation', async () => {
    const t = app();
    const { a, checkin } = await partner.arrangeWithCheckin(t);
    const now = t.clock.now();

    const response = await partner.postValidate(t, a.headers, {
      platform_id: checkin.platformId,
      custom_code: 'QR-7781',
    });

    partner.expectReply(
      response,
      200,
      partner.validationResult(a, { platform_id: checkin.platformId }, partner.secondsOf(now)),
    );
    await expectCodeRow(t.store, a.gym.id, checkin.platformId, 'QR-7781', now);
    expect(await transactionsOf(t.store, checkin.id)).toHaveLength(1);
  });

  test.each([
    ['expired', partner.EXPIRED],
    ['cancelled', partner.CANCELLED],
    ['already validated', partner.ALREADY_VALIDATED],
  ] as const)(
    'when the check-in is %s, then 400 with its key, the existing code is replaced and no transaction is added',
    async (condition, body) => {
      const t = app();
      const a = await arrangePartner(t.services);
      const checkedInAt = condition === 'expired' ? t.clock.now() - TTL_MS : t.clock.now();
      const checkin = await partner.arrangeCheckin(t, a, { checkedInAt });
      if (condition === 'cancelled') await t.services.checkins.cancel(checkin.id);
      if (condition === 'already validated') {
        await t.services.validation.validate({
          gymId: a.gym.id,
          platformId: checkin.platformId,
          customCode: undefined,
        });
      }
      await withStoredCode(t, a.gym.id, checkin.platformId);
      const checkinBefore = await checkinRow(t.store, checkin.id);
      const transactionsBefore = await transactionsOf(t.store, checkin.id);

      const response = await partner.postValidate(t, a.headers, {
        platform_id: checkin.platformId,
        custom_code: 'NEW-CODE',
      });

      partner.expectReply(response, 400, body);
      await expectCodeRow(
        t.store,
        a.gym.id,
        checkin.platformId,
        'NEW-CODE',
        t.clock.now() - 3_600_000,
        t.clock.now(),
      );
      expect(await checkinRow(t.store, checkin.id)).toEqual(checkinBefore);
      expect(await transactionsOf(t.store, checkin.id)).toEqual(transactionsBefore);
      await expectLedgerInvariants(t.store);
    },
  );

  test('when the check-in is expired and the member had no code, then 400 expired and the code is created', async () => {
    const t = app();
    const a = await arrangePartner(t.services);
    const checkin = await partner.arrangeCheckin(t, a, { checkedInAt: t.clock.now() - TTL_MS });

    const response = await partner.postValidate(t, a.headers, {
      platform_id: checkin.platformId,
      custom_code: '4411',
    });

    partner.expectReply(response, 400, partner.EXPIRED);
    await expectCodeRow(t.store, a.gym.id, checkin.platformId, '4411', t.clock.now());
  });

  test('when no check-in is found, then 404 and the code is not stored', async () => {
    const t = app();
    const a = await arrangePartner(t.services);
    await partner.expectReplyNoWrite(t, 404, partner.NOT_FOUND_CHECKIN, () =>
      partner.postValidate(t, a.headers, {
        platform_id: platformId(),
        custom_code: 'QR-1',
      }),
    );
  });

  test('when the code input is invalid on a valid check-in, then 400 custom_code and neither code nor check-in change', async () => {
    const t = app();
    const { a, checkin } = await partner.arrangeWithCheckin(t);
    await withStoredCode(t, a.gym.id, checkin.platformId);
    await partner.expectReplyNoWrite(t, 400, partner.CODE_LENGTH_ERROR, () =>
      partner.postValidate(t, a.headers, {
        platform_id: checkin.platformId,
        custom_code: 'ABCDEFGHIJKLMN',
      }),
    );
  });

  test('when the key may not act on the gym (403), then the code is not stored and the check-in is not validated', async () => {
    const t = app();
    const a = await arrangePartner(t.services);
    const b = await arrangePartner(t.services);
    const checkin = await partner.arrangeCheckin(t, b);
    await partner.expectReplyNoWrite(t, 403, partner.EXPLICIT_DENY, () =>
      partner.postValidate(
        t,
        { ...a.headers, 'x-gym-id': String(b.gym.id) },
        { platform_id: checkin.platformId, custom_code: 'QR-2' },
      ),
    );
  });

  test('when custom_code is null, then it means "no code": 200 and nothing is stored for the member', async () => {
    const t = app();
    const { a, checkin } = await partner.arrangeWithCheckin(t);

    const response = await partner.postValidate(t, a.headers, {
      platform_id: checkin.platformId,
      custom_code: null,
    });

    partner.expectValidatedNow(t, a, response, { platform_id: checkin.platformId });
    expect(await customCodeRow(t.store, a.gym.id, checkin.platformId)).toBeUndefined();
  });

  test('when the validation fails unexpectedly, then 500 envelope with the request id, and neither validation nor code is kept', async () => {
    const t = app();
    const { a, checkin } = await partner.arrangeWithCheckin(t);
    const before = await partner.storeState(t.store);
    await sql`alter table transactions rename to transactions_gone`.execute(t.store.db);

    const response = await partner
      .postValidate(
        t,
        { ...a.headers, 'x-request-id': 'req-validate-500' },
        { platform_id: checkin.platformId, custom_code: 'QR-3' },
      )
      .finally(() => sql`alter table transactions_gone rename to transactions`.execute(t.store.db));

    partner.expectReply(response, 500, {
      ...partner.errorEnvelope(
        'checkin.validation.unexpected-error',
        'There was an unexpected internal server error',
      ),
      request_id: 'req-validate-500',
    });
    expect(response.body).not.toMatch(/transactions|sql|at .*\.ts/i);
    expect(await partner.storeState(t.store)).toEqual(before);
  });
});
