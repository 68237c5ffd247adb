import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, test } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import {
  checkinRow,
  customCodeRow,
  expectLedgerInvariants,
  transactionsOf,
} from '../fixtures/store-state.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import { createCheckin, expectCleanErrorBody, expectNoLeaks, useFaultApp } from '../fixtures/fault-app.js';
import { EXPLICIT_DENY } from '../fixtures/wire-bodies.js';
import { postValidate, codeRequest } from '../fixtures/partner-api.js';
import { VERSION } from '../../src/config/version.js';

const UNEXPECTED = 'There was an unexpected internal server error';

/** An unexpected failure's 500: the envelope plus the request id the response header carries. */
function expectUnexpectedError(response: LightMyRequestResponse, key: string, secrets: string[]): void {
  expect(response.statusCode).toBe(500);
  const requestId = response.headers['x-request-id'];
  expect(typeof requestId).toBe('string');
  expect(response.json()).toEqual({
    metadata: { total: 0, errors: 1 },
    errors: [{ message: UNEXPECTED, key }],
    request_id: requestId,
  });
  expectCleanErrorBody(response, secrets);
}

/** The error was logged (an operator can find it by request id), without stack or SQL. */
function expectLoggedError(t: TestApp, requestId: string): void {
  const lines = t.logs.lines.map((line) => JSON.parse(line) as { level: number; reqId?: string });
  expect(
    lines.some((line) => line.level >= 50 && line.reqId === requestId),
    'the 500 is logged',
  ).toBe(true);
}

async function expectAlive(t: TestApp): Promise<void> {
  const health = await t.app.inject({ method: 'GET', url: '/health' });
  expect(health.statusCode).toBe(200);
  expect(health.json()).toEqual({ status: 'ok', version: VERSION });
}

describe.each(dialects)('unexpected errors and logs (%s)', (dialect) => {
  const ctx = useFaultApp(dialect);

  test('when a custom-code endpoint fails unexpectedly (its table is gone), then 500 custom-code.unexpected-error with the request id, no stack', async () => {
    const { t } = ctx;
    const a = await ctx.arrange();
    const member = platformId();
    await t.store.db.schema.dropTable('custom_codes').execute();
    ctx.secrets.push('Row37#code');
    const requests = [
      ['POST', 'fault-37-post', { custom_code: 'Row37#code' }],
      ['PUT', 'fault-37-put', { custom_code: 'Row37#code' }],
      ['DELETE', undefined, undefined],
      ['GET', undefined, undefined],
    ] as const;
    for (const [method, requestId, body] of requests) {
      const response = await t.app.inject({
        method,
        url: `/access/v1/code/${member}`,
        headers: { ...a.headers, ...(requestId === undefined ? {} : { 'x-request-id': requestId }) },
        ...(body === undefined ? {} : { payload: body }),
      });
      expectUnexpectedError(response, 'checkin.custom-code.unexpected-error', ctx.secrets);
      if (requestId !== undefined) expect(response.headers['x-request-id']).toBe(requestId);
      expectLoggedError(t, String(response.headers['x-request-id']));
      await expectAlive(t);
    }
    // Everything that does not touch the missing table still works.
    const checkin = await createCheckin(t, a);
    expect((await postValidate(t, a.headers, { platform_id: checkin.platformId })).statusCode).toBe(200);
    await expectLedgerInvariants(t.store);
  });

  test('when validate fails unexpectedly after flipping the check-in (no transactions table), then 500 validation.unexpected-error and nothing is kept', async () => {
    const { t } = ctx;
    const a = await ctx.arrange();
    const checkin = await createCheckin(t, a);
    // Reversals name their transaction: PostgreSQL drops that reference with the table.
    const drop = t.store.db.schema.dropTable('transactions');
    await (t.store.dialect === 'postgres' ? drop.cascade() : drop).execute();
    ctx.secrets.push('Row37#valid');
    const response = await t.app.inject({
      method: 'POST',
      url: '/access/v1/validate',
      headers: { ...a.headers, 'x-request-id': 'fault-37-validate' },
      payload: { platform_id: checkin.platformId, custom_code: 'Row37#valid' },
    });
    expectUnexpectedError(response, 'checkin.validation.unexpected-error', ctx.secrets);
    expect(response.json()).toMatchObject({ request_id: 'fault-37-validate' });
    expectLoggedError(t, 'fault-37-validate');
    // One database transaction: the flip and the code upsert were rolled back with the failed insert.
    expect((await checkinRow(t.store, checkin.id)).status).toBe('pending');
    expect(await customCodeRow(t.store, a.gym.id, checkin.platformId)).toBeUndefined();
    await expectAlive(t);
  });

  test('when the code upsert inside validate fails (no custom_codes table), then 500 validation.unexpected-error and no validation is kept', async () => {
    const { t } = ctx;
    const a = await ctx.arrange();
    const checkin = await createCheckin(t, a);
    await t.store.db.schema.dropTable('custom_codes').execute();
    ctx.secrets.push('Row37#upsert');
    const response = await postValidate(t, a.headers, {
      platform_id: checkin.platformId,
      custom_code: 'Row37#upsert',
    });
    expectUnexpectedError(response, 'checkin.validation.unexpected-error', ctx.secrets);
    expectLoggedError(t, String(response.headers['x-request-id']));
    expect((await checkinRow(t.store, checkin.id)).status).toBe('pending');
    expect(await transactionsOf(t.store, checkin.id)).toEqual([]);
    await expectLedgerInvariants(t.store);
    await expectAlive(t);
    // Without a code the same validate succeeds: the process and the store are fine.
    expect((await postValidate(t, a.headers, { platform_id: checkin.platformId })).statusCode).toBe(200);
    await expectLedgerInvariants(t.store);
  });

  test('when a whole mixed run is logged, then no key secret, token, credential or custom code appears in the logs', async () => {
    const { t } = ctx;
    const a = await ctx.arrange();
    const b = await ctx.arrange();
    const scoped = await t.services.apiKeys.issue(a.partner.id, { gymIds: [a.gym.id], label: 'scoped' });
    const revoked = await t.services.apiKeys.issue(a.partner.id, { label: 'to revoke' });
    await t.services.apiKeys.revoke(revoked.key.id);
    const unknown = `ghk_${randomBytes(4).toString('hex')}_${randomBytes(20).toString('hex')}`;
    const codes = ['L0g#valid-1', 'L0g#again-2', 'L0g#expd-3', 'L0g#nf-4', 'L0g#post-5', 'L0g#put-6'];
    const invalid = [
      'L0g#toolong-777',
      'L0g#broken-8',
      'L0g#500-9',
      'L0g#500-10',
      'L0g#xml-11',
      'L0g#big-12',
    ];
    const credentials = [
      'L0gGarbageToken-xyz',
      'L0gPassword-42',
      Buffer.from('gym:L0gPassword-42').toString('base64'),
    ];
    ctx.secrets.push(scoped.secret, revoked.secret, unknown, ...codes, ...invalid, ...credentials);
    const scopedHeaders = { ...a.headers, authorization: `Bearer ${scoped.secret}` };

    const [m1, m2, m3] = [platformId(), platformId(), platformId()];
    await createCheckin(t, a, { platformId: m1 });
    await createCheckin(t, a, { platformId: m2, at: t.clock.now() - 1200 * 1000 });
    const run: [LightMyRequestResponse, number][] = [
      [await postValidate(t, scopedHeaders, { platform_id: m1, custom_code: codes[0] }), 200],
      [await postValidate(t, a.headers, { platform_id: m1, custom_code: codes[1] }), 400],
      [await postValidate(t, a.headers, { platform_id: m2, custom_code: codes[2] }), 400],
      [await postValidate(t, a.headers, { platform_id: m3, custom_code: codes[3] }), 404],
      [await codeRequest(t, 'POST', m3, a.headers, { custom_code: codes[4] }), 201],
      [await codeRequest(t, 'PUT', m3, a.headers, { custom_code: codes[5] }), 200],
      [await codeRequest(t, 'GET', m3, a.headers), 200],
      [await codeRequest(t, 'DELETE', m3, a.headers), 204],
      [await codeRequest(t, 'PUT', m3, a.headers, { custom_code: invalid[0] }), 400],
      [
        await t.app.inject({
          method: 'POST',
          url: `/access/v1/code/${m3}`,
          headers: { ...a.headers, 'content-type': 'application/json' },
          payload: `{"custom_code":"${invalid[1]}"`,
        }),
        400,
      ],
      [
        await t.app.inject({
          method: 'POST',
          url: `/access/v1/code/${m3}`,
          headers: { ...a.headers, 'content-type': 'application/xml' },
          payload: `<c>${invalid[4]}</c>`,
        }),
        415,
      ],
      [
        await t.app.inject({
          method: 'POST',
          url: `/access/v1/code/${m3}`,
          headers: { ...a.headers, 'content-type': 'application/json' },
          payload: JSON.stringify({ custom_code: invalid[5], pad: 'x'.repeat(70_000) }),
        }),
        413,
      ],
      [await codeRequest(t, 'GET', m3, { ...a.headers, authorization: `Bearer ${credentials[0]}` }), 403],
      [await codeRequest(t, 'GET', m3, { ...a.headers, authorization: `Bearer ${unknown}` }), 403],
      [await codeRequest(t, 'GET', m3, { ...a.headers, authorization: `Bearer ${revoked.secret}` }), 403],
      [await codeRequest(t, 'GET', m3, { ...a.headers, 'x-gym-id': String(b.gym.id) }), 403],
      [await codeRequest(t, 'GET', m3, { ...a.headers, authorization: `Basic ${credentials[2]}` }), 401],
    ];
    await t.store.db.schema.dropTable('custom_codes').execute();
    run.push(
      [await codeRequest(t, 'POST', m3, a.headers, { custom_code: invalid[2] }), 500],
      [await postValidate(t, a.headers, { platform_id: m3, custom_code: invalid[3] }), 404],
    );
    await createCheckin(t, a, { platformId: m3 });
    run.push([await postValidate(t, a.headers, { platform_id: m3, custom_code: invalid[3] }), 500]);

    expect(run.map(([response]) => response.statusCode)).toEqual(run.map(([, status]) => status));
    expect(run.find(([response]) => response.statusCode === 403)?.[0].json()).toEqual(EXPLICIT_DENY);
    for (const [response, status] of run) {
      if (status >= 400) expectCleanErrorBody(response, ctx.secrets);
    }
    // The logs are not empty (a silent logger would pass vacuously): one line per request, and they hold none of it.
    expect(t.logs.lines.filter((line) => line.includes('"msg":"request"')).length).toBeGreaterThanOrEqual(
      run.length,
    );
    expect(t.logs.lines.filter((line) => line.includes('"level":50'))).toHaveLength(2);
    expectNoLeaks(t.logs.text(), [...ctx.secrets, a.key, b.key], 'logs of the whole run');
  });
});
