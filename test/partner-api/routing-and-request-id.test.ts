import type { InjectOptions } from 'fastify';
import { describe, expect, test } from 'vitest';
import { arrangePartner, platformId, type Arranged } from '../fixtures/factories.js';
import { arrangeCheckin, errorEnvelope, expectReply, sharedApp } from '../fixtures/partner-api.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';

const NOT_FOUND = errorEnvelope('route.not-found', 'no route matches this path');
const NOT_ALLOWED = errorEnvelope('route.method-not-allowed', 'method not allowed on this path');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CODE_METHODS = 'DELETE, GET, HEAD, POST, PUT';

/** One request per status the partner API answers, so X-Request-Id can be checked on each. */
async function oneOfEach(t: TestApp, a: Arranged): Promise<[number, InjectOptions][]> {
  const checkin = await arrangeCheckin(t, a);
  const member = platformId();
  const json = { ...a.headers, 'content-type': 'application/json' };
  return [
    [
      200,
      {
        method: 'POST',
        url: '/access/v1/validate',
        headers: json,
        payload: `{"platform_id":"${checkin.platformId}"}`,
      },
    ],
    [
      201,
      { method: 'POST', url: `/access/v1/code/${member}`, headers: json, payload: '{"custom_code":"A1"}' },
    ],
    [204, { method: 'DELETE', url: `/access/v1/code/${member}`, headers: a.headers }],
    [400, { method: 'POST', url: '/access/v1/validate', headers: json, payload: '{"platform_id":1}' }],
    [401, { method: 'POST', url: '/access/v1/validate', headers: { 'x-gym-id': '1' } }],
    [
      403,
      {
        method: 'GET',
        url: `/access/v1/code/${member}`,
        headers: { ...a.headers, authorization: 'Bearer nope' },
      },
    ],
    [404, { method: 'GET', url: '/access/v1/nowhere' }],
    [405, { method: 'PATCH', url: '/access/v1/validate' }],
    [413, { method: 'POST', url: '/access/v1/validate', headers: json, payload: `"${'x'.repeat(70_000)}"` }],
    [
      415,
      {
        method: 'POST',
        url: '/access/v1/validate',
        headers: { ...a.headers, 'content-type': 'text/xml' },
        payload: '<a/>',
      },
    ],
  ];
}

describe.each(dialects)('routing envelopes and X-Request-Id (%s)', (dialect) => {
  const app = sharedApp({ dialect });

  test.each<[string, InjectOptions]>([
    ['an unknown path under /access/v1', { method: 'GET', url: '/access/v1/nowhere' }],
    ['another API version', { method: 'POST', url: '/access/v2/validate', payload: '{}' }],
    // The root leads to the console (test/console/console-serving.test.ts); any other unknown page is 404.
    ['an unknown page', { method: 'GET', url: '/nowhere' }],
    ['a path with an extra segment', { method: 'GET', url: '/access/v1/code/1234567890123/extra' }],
    [
      'a text body on an unknown path',
      {
        method: 'POST',
        url: '/access/v1/nowhere',
        headers: { 'content-type': 'text/plain' },
        payload: 'hi',
      },
    ],
  ])('when the request is for %s, then 404 route.not-found in the JSON envelope', async (_, request) => {
    const t = app();

    expectReply(await t.app.inject(request), 404, NOT_FOUND);
  });

  test.each<[string, string, string]>([
    ['GET', '/access/v1/validate', 'POST'],
    ['PUT', '/access/v1/validate', 'POST'],
    ['DELETE', '/access/v1/validate', 'POST'],
    ['PATCH', '/access/v1/validate', 'POST'],
    ['PATCH', '/access/v1/code/1234567890123', CODE_METHODS],
    ['OPTIONS', '/access/v1/code/1234567890123', CODE_METHODS],
  ])('when %s is sent to %s, then 405 with Allow: %s', async (method, url, allow) => {
    const t = app();
    const a = await arrangePartner(t.services);

    const response = await t.app.inject({
      method: method as InjectOptions['method'],
      url,
      headers: a.headers,
    });

    expectReply(response, 405, NOT_ALLOWED);
    expect(response.headers.allow).toBe(allow);
  });

  test.each<[string, Record<string, string>, string]>([
    ['a text/plain body', { 'content-type': 'text/plain' }, 'hello'],
    ['malformed JSON', { 'content-type': 'application/json' }, '{"a":'],
    ['a body over 64 KiB', { 'content-type': 'application/json' }, `"${'x'.repeat(70_000)}"`],
  ])(
    'when a wrong method carries %s, then still 405: the method is checked before the body',
    async (_, headers, payload) => {
      const t = app();

      const response = await t.app.inject({
        method: 'PATCH',
        url: '/access/v1/code/1234567890123',
        headers,
        payload,
      });

      expectReply(response, 405, NOT_ALLOWED);
      expect(response.headers.allow).toBe(CODE_METHODS);
    },
  );

  test('when the client sends X-Request-Id, then every answer (200 … 415, 204 included) echoes it', async () => {
    const t = app();
    const a = await arrangePartner(t.services);

    const seen = [];
    for (const [status, request] of await oneOfEach(t, a)) {
      const id = `req-${status}.trace:1`;
      const response = await t.app.inject({
        ...request,
        headers: { ...request.headers, 'x-request-id': id },
      });
      seen.push({ status: response.statusCode, id: response.headers['x-request-id'] });
    }

    const statuses = [200, 201, 204, 400, 401, 403, 404, 405, 413, 415];
    expect(seen).toEqual(statuses.map((status) => ({ status, id: `req-${status}.trace:1` })));
  });

  test('when the client sends no X-Request-Id, then every answer carries a generated one, different each time', async () => {
    const t = app();
    const a = await arrangePartner(t.services);

    const ids: unknown[] = [];
    for (const [, request] of await oneOfEach(t, a))
      ids.push((await t.app.inject(request)).headers['x-request-id']);

    expect(ids.every((id) => typeof id === 'string' && UUID.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('when the URL is malformed (a broken percent escape), then 400 request.invalid-url in the envelope', async () => {
    const t = app();
    const a = await arrangePartner(t.services);

    const response = await t.app.inject({
      method: 'GET',
      url: '/access/v1/code/%E0%A4%A',
      headers: a.headers,
    });

    expectReply(response, 400, errorEnvelope('request.invalid-url', 'malformed URL'));
  });

  test.each([
    ['contains spaces', 'not a token'],
    ['is 129 characters long', 'r'.repeat(129)],
  ])('when the sent X-Request-Id %s, then a generated one replaces it', async (_, given) => {
    const t = app();

    const response = await t.app.inject({
      method: 'GET',
      url: '/access/v1/nowhere',
      headers: { 'x-request-id': given },
    });

    expectReply(response, 404, NOT_FOUND);
    expect(response.headers['x-request-id']).toMatch(UUID);
  });
});
