import { describe, expect, test } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import { checkinRow, customCodeRow, expectLedgerInvariants } from '../fixtures/store-state.js';
import { dialects } from '../fixtures/test-app.js';
import { rawRequest } from '../fixtures/raw-http.js';
import { createCheckin, expectNoWrite, useFaultApp } from '../fixtures/fault-app.js';
import { errorEnvelope, JSON_TYPE, validationBody } from '../fixtures/wire-bodies.js';
import { expectReply } from '../fixtures/partner-api.js';
import { BODY_LIMIT_BYTES } from '../../src/http/body-limit.js';
import { VERSION } from '../../src/config/version.js';

const MALFORMED = errorEnvelope('body', 'malformed JSON');
const NOT_AN_OBJECT = errorEnvelope('body', 'must be a JSON object');
const REQUIRED = errorEnvelope('body', 'is required');
const UNSUPPORTED = errorEnvelope('request.unsupported-media-type', 'Content-Type must be application/json');
const TOO_LARGE = errorEnvelope('request.too-large', 'body must not exceed 65536 bytes');
const NOT_FOUND = errorEnvelope('route.not-found', 'no route matches this path');
const INVALID_URL = errorEnvelope('request.invalid-url', 'malformed URL');
const NOT_ALLOWED = errorEnvelope('route.method-not-allowed', 'method not allowed on this path');

/** The three routes that read a body. */
function bodyRoutes(member: string) {
  return [
    ['POST', '/access/v1/validate'],
    ['POST', `/access/v1/code/${member}`],
    ['PUT', `/access/v1/code/${member}`],
  ] as const;
}

/** A validate body of exactly `bytes` bytes, padded with an ignored field. */
function validateBodyOfSize(member: string, bytes: number): string {
  const bare = JSON.stringify({ platform_id: member, pad: '' });
  return JSON.stringify({ platform_id: member, pad: 'p'.repeat(bytes - bare.length) });
}

describe.each(dialects)('transport-level input (%s)', (dialect) => {
  const ctx = useFaultApp(dialect);

  test.each([
    ['malformed JSON', '{"platform_id": 1234567890123', {}, MALFORMED],
    ['single-quoted JSON', "{'platform_id':'1234567890123'}", {}, MALFORMED],
    ['a bare word', 'nul', {}, MALFORMED],
    ['trailing garbage', '{"platform_id":"1234567890123"}}', {}, MALFORMED],
    ['an empty body with the JSON type', '', {}, REQUIRED],
    ['a truncated body', '{"platform_id":"12345', {}, MALFORMED],
    [
      'a body shorter than its Content-Length',
      '{"platform_id":"1234567890123"}',
      { 'content-length': '200' },
      MALFORMED,
    ],
    ['JSON null', 'null', {}, NOT_AN_OBJECT],
    ['a JSON array', '[{"platform_id":"1234567890123"}]', {}, NOT_AN_OBJECT],
    ['a JSON string', '"1234567890123"', {}, NOT_AN_OBJECT],
    ['a JSON number', '42', {}, NOT_AN_OBJECT],
  ])('when the body is %s, then 400 body and no write', async (_label, payload, headers, expected) => {
    const { t } = ctx;
    const a = await ctx.arrange();
    await createCheckin(t, a, { platformId: '1234567890123' });
    await expectNoWrite(t.store, async () => {
      for (const [method, url] of bodyRoutes('1234567890123')) {
        const response = await t.app.inject({
          method,
          url,
          headers: { ...a.headers, 'content-type': 'application/json', ...headers },
          payload,
        });
        expect(response.statusCode, `${method} ${url}`).toBe(400);
        expect(response.json()).toEqual(expected);
      }
    });
    await expectLedgerInvariants(t.store);
  });

  test('when a POST or PUT has no body and no Content-Type, then 400 body is required', async () => {
    const { t } = ctx;
    const a = await ctx.arrange();
    await expectNoWrite(t.store, async () => {
      for (const [method, url] of bodyRoutes(platformId())) {
        const response = await t.app.inject({ method, url, headers: a.headers });
        expect(response.statusCode, `${method} ${url}`).toBe(400);
        expect(response.json()).toEqual(REQUIRED);
      }
    });
  });

  test.each([
    ['text/plain', 'text/plain'],
    ['application/xml', 'application/xml'],
    ['form-encoded', 'application/x-www-form-urlencoded'],
    ['multipart', 'multipart/form-data; boundary=x'],
    ['a JSON look-alike', 'application/jsonp'],
    ['missing', undefined],
  ])('when Content-Type is %s on a POST/PUT with a body, then 415 and no write', async (_label, type) => {
    const { t } = ctx;
    const a = await ctx.arrange();
    const checkin = await createCheckin(t, a);
    const payload = JSON.stringify({ platform_id: checkin.platformId, custom_code: 'Row15#code' });
    await expectNoWrite(t.store, async () => {
      for (const [method, url] of bodyRoutes(checkin.platformId)) {
        const headers = type === undefined ? a.headers : { ...a.headers, 'content-type': type };
        const response = await t.app.inject({ method, url, headers, payload });
        expect(response.statusCode, `${method} ${url}`).toBe(415);
        expect(response.json()).toEqual(UNSUPPORTED);
        expect(response.headers['content-type']).toBe(JSON_TYPE);
      }
    });
    // DELETE ignores any body and any Content-Type.
    await t.services.customCodes.create({ gymId: a.gym.id, platformId: checkin.platformId }, 'Row15#del');
    ctx.secrets.push('Row15#code', 'Row15#del');
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/access/v1/code/${checkin.platformId}`,
      headers: { ...a.headers, 'content-type': type ?? 'text/plain' },
      payload: 'ignored',
    });
    expect(removed.statusCode).toBe(204);
  });

  test.each([
    ['application/json; charset=UTF-8'],
    ['application/json; charset=utf-8'],
    ['Application/JSON; Charset=UTF-8'],
    ['APPLICATION/JSON'],
    ['application/json;charset=utf-8'],
  ])('when Content-Type is %j, then the body is accepted', async (type) => {
    const { t } = ctx;
    const a = await ctx.arrange();
    const checkin = await createCheckin(t, a);
    const response = await t.app.inject({
      method: 'POST',
      url: '/access/v1/validate',
      headers: { ...a.headers, 'content-type': type },
      payload: JSON.stringify({ platform_id: checkin.platformId }),
    });
    expectReply(
      response,
      200,
      validationBody(a.gym, a.product, { platform_id: checkin.platformId }, '2026-03-02T12:00:00Z'),
    );
    const member = platformId();
    const created = await t.app.inject({
      method: 'POST',
      url: `/access/v1/code/${member}`,
      headers: { ...a.headers, 'content-type': type },
      payload: '{"custom_code":"Row16#code"}',
    });
    expect(created.statusCode).toBe(201);
    expect((await customCodeRow(t.store, a.gym.id, member))?.code).toBe('Row16#code');
    ctx.secrets.push('Row16#code');
    await expectLedgerInvariants(t.store);
  });

  test('when the body is 64 KiB + 1 bytes (or 2 MiB), then 413 and no write; exactly 64 KiB is served', async () => {
    const { t } = ctx;
    const a = await ctx.arrange();
    const checkin = await createCheckin(t, a);
    const headers = { ...a.headers, 'content-type': 'application/json' };
    await expectNoWrite(t.store, async () => {
      for (const payload of [
        validateBodyOfSize(checkin.platformId, BODY_LIMIT_BYTES + 1),
        'x'.repeat(2 * 1024 * 1024),
      ]) {
        const response = await t.app.inject({ method: 'POST', url: '/access/v1/validate', headers, payload });
        expect(response.statusCode).toBe(413);
        expect(response.json()).toEqual(TOO_LARGE);
      }
    });
    const exact = validateBodyOfSize(checkin.platformId, BODY_LIMIT_BYTES);
    expect(Buffer.byteLength(exact)).toBe(BODY_LIMIT_BYTES);
    const response = await t.app.inject({
      method: 'POST',
      url: '/access/v1/validate',
      headers,
      payload: exact,
    });
    expect(response.statusCode).toBe(200);
    expect((await checkinRow(t.store, checkin.id)).status).toBe('validated');
    await expectLedgerInvariants(t.store);
  });

  test('when the header block is over 16 KiB, then 431 in the errorEnvelope, and the server still answers', async () => {
    const { t } = ctx;
    const a = await ctx.arrange();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const response = await rawRequest(
      t.app,
      `GET /access/v1/code/${platformId()} HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${a.headers.authorization}\r\n` +
        `X-Gym-Id: ${a.gym.id}\r\nX-Padding: ${'h'.repeat(17 * 1024)}\r\n\r\n`,
    );
    expect(response.status).toBe(431);
    expect(response.headers['content-type']).toBe(JSON_TYPE);
    expect(JSON.parse(response.body)).toEqual(
      errorEnvelope('request.headers-too-large', 'request headers must not exceed 16384 bytes'),
    );
    const health = await rawRequest(
      t.app,
      'GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
    );
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toEqual({ status: 'ok', version: VERSION });
  });

  test.each([
    ['a broken percent-escape', '/access/v1/code/%E0%A4%A', 400, INVALID_URL],
    [
      'a raw .. segment',
      '/access/v1/code/..',
      400,
      errorEnvelope('platform_id', 'must be a string of 13 digits'),
    ],
    ['a control character', '/access/v1/code/12345\u000167890123', 400, INVALID_URL],
    ['no leading slash', 'access/v1/validate', 400, INVALID_URL],
  ])(
    'when a real request carries %s in its URL, then an errorEnvelope, never 500',
    async (_label, url, status, expected) => {
      const { t } = ctx;
      const a = await ctx.arrange();
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const response = await rawRequest(
        t.app,
        `GET ${url} HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${a.headers.authorization}\r\nX-Gym-Id: ${a.gym.id}\r\nConnection: close\r\n\r\n`,
      );
      expect(response.status).toBe(status);
      expect(response.headers['content-type']).toBe(JSON_TYPE);
      expect(JSON.parse(response.body)).toEqual(expected);
      const health = await rawRequest(
        t.app,
        'GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
      );
      expect(health.status).toBe(200);
    },
  );

  test('when the path is unknown, then 404 route.not-found in the errorEnvelope, before authentication', async () => {
    const { t } = ctx;
    const a = await ctx.arrange();
    for (const [method, url] of [
      ['GET', '/nope'],
      ['GET', '/access/v1'],
      ['POST', '/access/v2/validate'],
      ['POST', '/access/v1/validate/extra'],
      ['GET', `/access/v1/codes/${platformId()}`],
    ] as const) {
      for (const headers of [a.headers, {}]) {
        const response = await t.app.inject({ method, url, headers });
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
        expect(response.headers['content-type']).toBe(JSON_TYPE);
      }
    }
  });

  test('when a known path gets PATCH (or another method it lacks), then 405 with Allow, before authentication', async () => {
    const { t } = ctx;
    const a = await ctx.arrange();
    const code = `/access/v1/code/${platformId()}`;
    for (const [method, url, allow] of [
      ['PATCH', '/access/v1/validate', 'POST'],
      ['GET', '/access/v1/validate', 'POST'],
      ['DELETE', '/access/v1/validate', 'POST'],
      ['PATCH', code, 'DELETE, GET, HEAD, POST, PUT'],
    ] as const) {
      for (const headers of [a.headers, {}]) {
        const response = await t.app.inject({ method, url, headers, payload: { custom_code: 'x' } });
        expect(response.statusCode, `${method} ${url}`).toBe(405);
        expect(response.json()).toEqual(NOT_ALLOWED);
        expect(response.headers.allow).toBe(allow);
        expect(response.headers['content-type']).toBe(JSON_TYPE);
      }
    }
  });
});
