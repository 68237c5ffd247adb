import { describe, expect, test } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import {
  checkinRow,
  customCodeRow,
  expectLedgerInvariants,
  transactionsOf,
  visitRow,
} from '../fixtures/store-state.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import {
  arrangeBystander,
  createCheckin,
  expectCleanErrorBody,
  expectNoWrite,
  useFaultApp,
} from '../fixtures/fault-app.js';
import { CODE_NOT_FOUND, errorEnvelope } from '../fixtures/wire-bodies.js';
import { postValidate, codeRequest } from '../fixtures/partner-api.js';

const ALREADY_VALIDATED = errorEnvelope('checkin.already.validated', 'Check-In already validated');
const TTL_MS = 1200 * 1000;

async function transactionCount(t: TestApp): Promise<number> {
  return (await t.store.db.selectFrom('transactions').select('id').execute()).length;
}

describe.each(dialects)('validation and custom codes (%s)', (dialect) => {
  const ctx = useFaultApp(dialect);

  test('when a pending check-in is validated once, then 200 with the full body and exactly one transaction', async () => {
    const { t } = ctx;
    const a = await ctx.arrange({ payoutCents: 1875, currency: 'BRL', description: 'Black plan' });
    const b = await arrangeBystander(ctx);
    const checkin = await createCheckin(t, a, { platformId: b.sharedPlatformId });
    t.clock.advance(61_500);
    const response = await postValidate(t, a.headers, { platform_id: checkin.platformId });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      metadata: { total: 1, errors: 0 },
      results: {
        user: { platform_id: checkin.platformId },
        gym: { Id: a.gym.id, product: { Id: a.product.id, description: 'Black plan' } },
        validated_at: '2026-03-02T12:01:01Z',
      },
    });
    expect(await checkinRow(t.store, checkin.id)).toMatchObject({
      status: 'validated',
      validated_at: t.clock.now(),
    });
    const transactions = await transactionsOf(t.store, checkin.id);
    expect(transactions).toEqual([visitRow(a, checkin, 1875, 'BRL', t.clock.now())]);
    await expectLedgerInvariants(t.store);
    await b.expectUnchanged();
  });

  test('when the same validate is repeated 5 times in a row, then 200 once, then 400 already validated 4 times', async () => {
    const { t } = ctx;
    const a = await ctx.arrange();
    const checkin = await createCheckin(t, a);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const response = await postValidate(t, a.headers, { platform_id: checkin.platformId });
      statuses.push(response.statusCode);
      if (attempt > 0) expect(response.json()).toEqual(ALREADY_VALIDATED);
      t.clock.advance(1000);
    }
    expect(statuses).toEqual([200, 400, 400, 400, 400]);
    expect(await transactionsOf(t.store, checkin.id)).toHaveLength(1);
    await expectLedgerInvariants(t.store);
  });

  test('when the same validate is sent 50 times concurrently, then exactly one 200, 49 already validated, no 5xx', async () => {
    const { t } = ctx;
    const a = await ctx.arrange();
    const b = await arrangeBystander(ctx);
    const checkin = await createCheckin(t, a);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => postValidate(t, a.headers, { platform_id: checkin.platformId })),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 400)).toHaveLength(49);
    for (const response of responses.filter((r) => r.statusCode !== 200)) {
      expect(response.json()).toEqual(ALREADY_VALIDATED);
    }
    expect(await transactionsOf(t.store, checkin.id)).toHaveLength(1);
    await expectLedgerInvariants(t.store);
    await b.expectUnchanged();
  });

  test.each([
    ['expired', errorEnvelope('checkin.validation.expired', 'Check-In expired')],
    ['cancelled', errorEnvelope('checkin.validation.cancelled', 'Check-In cancelled')],
    ['already validated', ALREADY_VALIDATED],
  ] as const)(
    'when validate carries a custom_code and the check-in is %s, then 400 with its key, the code is upserted and no transaction is added',
    async (condition, expected) => {
      const { t } = ctx;
      const a = await ctx.arrange();
      const b = await arrangeBystander(ctx);
      const fresh = platformId();
      const existing = b.sharedPlatformId;
      for (const member of [fresh, existing]) {
        const checkedInAt = condition === 'expired' ? t.clock.now() - TTL_MS : undefined;
        const checkin = await createCheckin(t, a, { platformId: member, at: checkedInAt });
        if (condition === 'cancelled') await t.services.checkins.cancel(checkin.id);
        if (condition === 'already validated') {
          await t.services.validation.validate({
            gymId: a.gym.id,
            platformId: member,
            customCode: undefined,
          });
        }
      }
      await t.services.customCodes.create({ gymId: a.gym.id, platformId: existing }, 'Row24#old');
      const before = await transactionCount(t);
      t.clock.advance(5000);
      for (const [member, code] of [
        [fresh, 'Row24#new'],
        [existing, 'Row24#upd'],
      ] as const) {
        const response = await postValidate(t, a.headers, { platform_id: member, custom_code: code });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual(expected);
        expect(await customCodeRow(t.store, a.gym.id, member)).toMatchObject({
          code,
          updated_at: t.clock.now(),
        });
      }
      ctx.secrets.push('Row24#old', 'Row24#new', 'Row24#upd');
      expect(await transactionCount(t)).toBe(before);
      await expectLedgerInvariants(t.store);
      await b.expectUnchanged();
    },
  );

  test('when validate carries a custom_code and no check-in is found at this gym, then 404 and no code is stored', async () => {
    const { t } = ctx;
    const a = await ctx.arrange();
    // The member has a check-in and a code at another partner's gym: neither counts here, neither changes.
    const b = await arrangeBystander(ctx);
    const withCode = platformId();
    await t.services.customCodes.create({ gymId: a.gym.id, platformId: withCode }, 'Row25#keep');
    ctx.secrets.push('Row25#keep', 'Row25#new');
    await expectNoWrite(t.store, async () => {
      for (const member of [b.sharedPlatformId, withCode, platformId()]) {
        const response = await postValidate(t, a.headers, { platform_id: member, custom_code: 'Row25#new' });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(
          errorEnvelope('checkin.validation.notfound', 'Check-In not found in database'),
        );
      }
    });
    expect(await customCodeRow(t.store, a.gym.id, b.sharedPlatformId)).toBeUndefined();
    expect((await customCodeRow(t.store, a.gym.id, withCode))?.code).toBe('Row25#keep');
    await expectLedgerInvariants(t.store);
    await b.expectUnchanged();
  });

  test('when the same code is POSTed twice, then 201 then 409, and the first code is intact', async () => {
    const { t } = ctx;
    const a = await ctx.arrange();
    const b = await arrangeBystander(ctx);
    const member = b.sharedPlatformId;
    const created = await codeRequest(t, 'POST', member, a.headers, { custom_code: 'Row26#first' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ metadata: { total: 1, errors: 0 }, results: {} });
    const stored = await customCodeRow(t.store, a.gym.id, member);
    t.clock.advance(30_000);
    await expectNoWrite(t.store, async () => {
      for (const code of ['Row26#second', 'Row26#first']) {
        const again = await codeRequest(t, 'POST', member, a.headers, { custom_code: code });
        expect(again.statusCode).toBe(409);
        expect(again.json()).toEqual(
          errorEnvelope(
            'checkin.custom-code.already-exists',
            'Already exists a custom code for that gym and user',
          ),
        );
        expectCleanErrorBody(again, ['Row26#first', 'Row26#second']);
      }
    });
    expect(await customCodeRow(t.store, a.gym.id, member)).toEqual(stored);
    expect(stored?.code).toBe('Row26#first');
    ctx.secrets.push('Row26#first', 'Row26#second');
    await b.expectUnchanged();
  });

  test('when PUT or DELETE names a member with no code at this gym, then 404 custom-code.not-found', async () => {
    const { t } = ctx;
    const a = await ctx.arrange();
    // The member has a code at another partner's gym: this gym's PUT and DELETE must not reach it.
    const b = await arrangeBystander(ctx);
    await expectNoWrite(t.store, async () => {
      for (const member of [platformId(), b.sharedPlatformId]) {
        const put = await codeRequest(t, 'PUT', member, a.headers, { custom_code: 'Row27#put' });
        expect(put.statusCode).toBe(404);
        expect(put.json()).toEqual(CODE_NOT_FOUND);
        const removed = await codeRequest(t, 'DELETE', member, a.headers);
        expect(removed.statusCode).toBe(404);
        expect(removed.json()).toEqual(CODE_NOT_FOUND);
      }
    });
    const member = platformId();
    expect((await codeRequest(t, 'POST', member, a.headers, { custom_code: 'Row27#code' })).statusCode).toBe(
      201,
    );
    const deleted = await codeRequest(t, 'DELETE', member, a.headers);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    const twice = await codeRequest(t, 'DELETE', member, a.headers);
    expect(twice.statusCode).toBe(404);
    expect(twice.json()).toEqual(CODE_NOT_FOUND);
    expect(await customCodeRow(t.store, a.gym.id, member)).toBeUndefined();
    ctx.secrets.push('Row27#put', 'Row27#code');
    await b.expectUnchanged();
  });
});
