import { describe, expect, test } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import {
  checkinRow,
  customCodeRow,
  expectLedgerInvariants,
  transactionsOf,
} from '../fixtures/store-state.js';
import { dialects } from '../fixtures/test-app.js';
import { arrangeBystander, createCheckin, expectNoWrite, useFaultApp } from '../fixtures/fault-app.js';
import { errorEnvelope, PLATFORM_ID_ERROR, validationBody } from '../fixtures/wire-bodies.js';
import { postValidate, codeRequest, expectReply } from '../fixtures/partner-api.js';

const BAD_PLATFORM_IDS: [string, unknown][] = [
  ['12 digits', '123456789012'],
  ['14 digits', '12345678901234'],
  ['a number', 1234567890123],
  ['letters', 'abcdefghijklm'],
  ['one letter among digits', '123456789012a'],
  ['Arabic-Indic digits', '١٢٣٤٥٦٧٨٩٠١٢٣'],
  ['full-width digits', '１２３４５６７８９０１２３'],
  ['a trailing newline', '1234567890123\n'],
  ['null', null],
  ['an array', ['1234567890123']],
  ['an object', { id: '1234567890123' }],
];

const CODE_LENGTH = errorEnvelope('custom_code', 'length must be between 1 and 13 characters');
const BAD_CODES: [string, unknown, ReturnType<typeof errorEnvelope>][] = [
  ['empty', '', CODE_LENGTH],
  ['blank', '   ', errorEnvelope('custom_code', 'must not be blank')],
  ['14 characters', 'abcdefghijklmn', CODE_LENGTH],
  ['14 emoji', '😀'.repeat(14), CODE_LENGTH],
  ['a NUL', 'ab\u0000cd', errorEnvelope('custom_code', 'must not contain control characters')],
  ['a tab', 'ab\tcd', errorEnvelope('custom_code', 'must not contain control characters')],
  ['a DEL', 'ab\u007fcd', errorEnvelope('custom_code', 'must not contain control characters')],
  ['a C1 control', 'ab\u0085cd', errorEnvelope('custom_code', 'must not contain control characters')],
  ['a number', 1234, errorEnvelope('custom_code', 'must be a string')],
  ['an object', { code: 'abc' }, errorEnvelope('custom_code', 'must be a string')],
  ['an array', ['abc'], errorEnvelope('custom_code', 'must be a string')],
];

const PROTO_BODIES = [
  '{"__proto__":{"polluted":"yes"}}',
  '{"platform_id":"1234567890123","custom_code":"abc","__proto__":{"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"custom_code":"abc","nested":{"constructor":{"prototype":{"polluted":"yes"}}}}',
];

describe.each(dialects)('field and body input (%s)', (dialect) => {
  const ctx = useFaultApp(dialect);

  test.each(BAD_PLATFORM_IDS)(
    'when platform_id in the validate body is %s, then 400 platform_id and no write',
    async (_label, value) => {
      const { t } = ctx;
      const a = await ctx.arrange();
      await createCheckin(t, a, { platformId: '1234567890123' });
      await expectNoWrite(t.store, async () => {
        for (const body of [{ platform_id: value }, { platform_id: value, custom_code: 'Row8#code' }]) {
          const response = await postValidate(t, a.headers, body);
          expect(response.statusCode).toBe(400);
          expect(response.json()).toEqual(PLATFORM_ID_ERROR);
        }
      });
      await expectLedgerInvariants(t.store);
    },
  );

  test('when the path platform_id of a code endpoint is not 13 ASCII digits, then 400 platform_id and no write', async () => {
    const { t } = ctx;
    const a = await ctx.arrange();
    const paths = [
      '123456789012',
      '12345678901234',
      'abcdefghijklm',
      encodeURIComponent('١٢٣٤٥٦٧٨٩٠١٢٣'),
      '1234567890123%20',
    ];
    await expectNoWrite(t.store, async () => {
      for (const path of paths) {
        for (const method of ['POST', 'PUT', 'DELETE', 'GET'] as const) {
          const body = method === 'POST' || method === 'PUT' ? { custom_code: 'Row8#path' } : undefined;
          const response = await codeRequest(t, method, path, a.headers, body);
          expect(response.statusCode, `${method} ${path}`).toBe(400);
          expect(response.json()).toEqual(PLATFORM_ID_ERROR);
        }
      }
    });
  });

  test.each([
    ['an encoded slash', '123456%2F789012', 400],
    ['encoded dots (normalised away like ..)', '%2E%2E', 404],
    ['dots', '..', 404],
    ['200 digits', '1'.repeat(200), 404],
    ['200 letters', 'z'.repeat(200), 404],
  ])(
    'when the path platform_id has %s, then a 400 or 404 errorEnvelope, never 500',
    async (_label, path, status) => {
      const { t } = ctx;
      const a = await ctx.arrange();
      const expected =
        status === 400 ? PLATFORM_ID_ERROR : errorEnvelope('route.not-found', 'no route matches this path');
      await expectNoWrite(t.store, async () => {
        for (const method of ['POST', 'PUT', 'DELETE', 'GET'] as const) {
          const body = method === 'POST' || method === 'PUT' ? { custom_code: 'Row9#path' } : undefined;
          const response = await codeRequest(t, method, path, a.headers, body);
          expect(response.statusCode, `${method} ${path.slice(0, 20)}`).toBe(status);
          expect(response.json()).toEqual(expected);
        }
      });
    },
  );

  test.each(BAD_CODES)(
    'when custom_code is %s, then 400 custom_code on validate, POST and PUT, and the stored code and check-in are unchanged',
    async (_label, value, expected) => {
      const { t } = ctx;
      const a = await ctx.arrange();
      const checkin = await createCheckin(t, a);
      await t.services.customCodes.create({ gymId: a.gym.id, platformId: checkin.platformId }, 'Row10#orig');
      ctx.secrets.push('Row10#orig');
      await expectNoWrite(t.store, async () => {
        const responses = [
          await postValidate(t, a.headers, { platform_id: checkin.platformId, custom_code: value }),
          await codeRequest(t, 'POST', platformId(), a.headers, { custom_code: value }),
          await codeRequest(t, 'PUT', checkin.platformId, a.headers, { custom_code: value }),
        ];
        for (const response of responses) {
          expect(response.statusCode).toBe(400);
          expect(response.json()).toEqual(expected);
        }
      });
      expect((await checkinRow(t.store, checkin.id)).status).toBe('pending');
      expect((await customCodeRow(t.store, a.gym.id, checkin.platformId))?.code).toBe('Row10#orig');
      await expectLedgerInvariants(t.store);
    },
  );

  test('when custom_code is 13 emoji (13 code points), then it is accepted by validate, POST and PUT', async () => {
    const { t } = ctx;
    const a = await ctx.arrange();
    const emoji = ['😀'.repeat(13), '🏋'.repeat(13), '💪'.repeat(13)];
    const checkin = await createCheckin(t, a);
    expect(
      (await postValidate(t, a.headers, { platform_id: checkin.platformId, custom_code: emoji[0] }))
        .statusCode,
    ).toBe(200);
    expect((await customCodeRow(t.store, a.gym.id, checkin.platformId))?.code).toBe(emoji[0]);
    const member = platformId();
    expect((await codeRequest(t, 'POST', member, a.headers, { custom_code: emoji[1] })).statusCode).toBe(201);
    expect((await customCodeRow(t.store, a.gym.id, member))?.code).toBe(emoji[1]);
    expect((await codeRequest(t, 'PUT', member, a.headers, { custom_code: emoji[2] })).statusCode).toBe(200);
    expect((await codeRequest(t, 'GET', member, a.headers)).json()).toEqual({
      metadata: { total: 1, errors: 0 },
      results: { platform_id: member, custom_code: emoji[2], updated_at: '2026-03-02T12:00:00.000Z' },
    });
    await expectLedgerInvariants(t.store);
  });

  test.each([['"quoted"'], ["'; DROP TABLE"], ['%'], ['_'], ['\\'], ['a%_b\\\'c"d'], ["O'Brien"], ['%_%']])(
    'when custom_code is %j, then it is stored and read back verbatim',
    async (code) => {
      const { t } = ctx;
      const a = await ctx.arrange();
      const [created, updated, upserted] = [platformId(), platformId(), platformId()];
      expect((await codeRequest(t, 'POST', created, a.headers, { custom_code: code })).statusCode).toBe(201);
      await t.services.customCodes.create({ gymId: a.gym.id, platformId: updated }, 'Row11#before');
      ctx.secrets.push('Row11#before');
      expect((await codeRequest(t, 'PUT', updated, a.headers, { custom_code: code })).statusCode).toBe(200);
      await createCheckin(t, a, { platformId: upserted });
      expect(
        (await postValidate(t, a.headers, { platform_id: upserted, custom_code: code })).statusCode,
      ).toBe(200);
      for (const member of [created, updated, upserted]) {
        expect((await customCodeRow(t.store, a.gym.id, member))?.code).toBe(code);
        const read = await codeRequest(t, 'GET', member, a.headers);
        expect(read.statusCode).toBe(200);
        expect(read.json()).toEqual({
          metadata: { total: 1, errors: 0 },
          results: { platform_id: member, custom_code: code, updated_at: '2026-03-02T12:00:00.000Z' },
        });
      }
      // A wildcard is not a pattern: another member has no code.
      expect((await codeRequest(t, 'GET', platformId(), a.headers)).statusCode).toBe(404);
      expect(
        await t.store.db.selectFrom('custom_codes').select('code').where('gym_id', '=', a.gym.id).execute(),
      ).toHaveLength(3);
      await expectLedgerInvariants(t.store);
    },
  );

  test('when the body carries status, gym_id, partner_id, validated_at, they are ignored and never applied', async () => {
    const { t } = ctx;
    const a = await ctx.arrange();
    const b = await arrangeBystander(ctx);
    const checkin = await createCheckin(t, a);
    const extras = {
      status: 'cancelled',
      gym_id: b.gym.id,
      partner_id: b.partner.id,
      validated_at: '2001-01-01T00:00:00Z',
      product_id: b.product.id,
    };
    const response = await postValidate(t, a.headers, {
      platform_id: checkin.platformId,
      custom_code: 'Row12#code',
      ...extras,
    });
    expectReply(
      response,
      200,
      validationBody(a.gym, a.product, { platform_id: checkin.platformId }, '2026-03-02T12:00:00Z'),
    );
    const [transaction] = await transactionsOf(t.store, checkin.id);
    expect(transaction).toMatchObject({
      partner_id: a.partner.id,
      gym_id: a.gym.id,
      product_id: a.product.id,
      validated_at: t.clock.now(),
    });
    expect((await customCodeRow(t.store, a.gym.id, checkin.platformId))?.code).toBe('Row12#code');

    const member = b.sharedPlatformId;
    const created = await codeRequest(t, 'POST', member, a.headers, {
      custom_code: 'Row12#post',
      platform_id: platformId(),
      ...extras,
    });
    expect(created.statusCode).toBe(201);
    expect((await customCodeRow(t.store, a.gym.id, member))?.code).toBe('Row12#post');
    ctx.secrets.push('Row12#code', 'Row12#post');
    await b.expectUnchanged();
    await expectLedgerInvariants(t.store);
  });

  test.each(PROTO_BODIES)(
    'when the JSON body is %s, then 400 body, no write and no prototype pollution',
    async (raw) => {
      const { t } = ctx;
      const a = await ctx.arrange();
      const checkin = await createCheckin(t, a, { platformId: '1234567890123' });
      await expectNoWrite(t.store, async () => {
        for (const [method, url] of [
          ['POST', '/access/v1/validate'],
          ['POST', `/access/v1/code/${checkin.platformId}`],
          ['PUT', `/access/v1/code/${checkin.platformId}`],
        ] as const) {
          const response = await t.app.inject({
            method,
            url,
            headers: { ...a.headers, 'content-type': 'application/json' },
            payload: raw,
          });
          expect(response.statusCode, `${method} ${url}`).toBe(400);
          expect(response.json()).toEqual(
            errorEnvelope('body', 'must not contain __proto__ or constructor.prototype keys'),
          );
        }
      });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.prototype).not.toHaveProperty('polluted');
      await expectLedgerInvariants(t.store);
    },
  );
});
