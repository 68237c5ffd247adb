import { describe, expect, test } from 'vitest';
import { arrangePartner, platformId, type Arranged } from '../fixtures/factories.js';
import * as partner from '../fixtures/partner-api.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';

const TOO_LARGE = partner.errorEnvelope('request.too-large', 'body must not exceed 65536 bytes');
const NOT_FOUND = partner.errorEnvelope('route.not-found', 'no route matches this path');
const NOT_ALLOWED = partner.errorEnvelope('route.method-not-allowed', 'method not allowed on this path');

interface Faults {
  authorization?: string | null;
  gymId?: string;
  contentType?: string | null;
  payload?: string;
}

/** A validate request with the arranged headers, then each fault applied (null removes the header). */
function validateWith(t: TestApp, a: Arranged, faults: Faults) {
  const headers: Record<string, string> = { ...a.headers, 'content-type': 'application/json' };
  if (faults.authorization === null) delete headers.authorization;
  else if (faults.authorization !== undefined) headers.authorization = faults.authorization;
  if (faults.gymId !== undefined) headers['x-gym-id'] = faults.gymId;
  if (faults.contentType === null) delete headers['content-type'];
  else if (faults.contentType !== undefined) headers['content-type'] = faults.contentType;
  return t.app.inject({
    method: 'POST',
    url: '/access/v1/validate',
    headers,
    payload: faults.payload ?? JSON.stringify({ platform_id: platformId() }),
  });
}

const BAD_TOKEN = 'Bearer not-a-key';
const MALFORMED = '{"platform_id":';
const HUGE_MALFORMED = `{"platform_id":"${'9'.repeat(70_000)}`;

describe.each(dialects)('order of checks when several things are wrong (%s)', (dialect) => {
  const app = partner.sharedApp({ dialect });

  test.each<[string, (other: Arranged) => Faults, number, unknown]>([
    [
      'no Authorization and a bad X-Gym-Id',
      () => ({ authorization: null, gymId: 'abc' }),
      401,
      partner.UNAUTHORIZED,
    ],
    [
      'a bad token and a bad X-Gym-Id',
      () => ({ authorization: BAD_TOKEN, gymId: 'abc' }),
      403,
      partner.EXPLICIT_DENY,
    ],
    [
      'a bad token and a text/plain body',
      () => ({ authorization: BAD_TOKEN, contentType: 'text/plain' }),
      403,
      partner.EXPLICIT_DENY,
    ],
    [
      'a bad X-Gym-Id and a wrong content type',
      () => ({ gymId: '0', contentType: 'text/plain' }),
      400,
      partner.GYM_ID_ERROR,
    ],
    [
      'a bad X-Gym-Id and malformed JSON',
      () => ({ gymId: '-5', payload: MALFORMED }),
      400,
      partner.GYM_ID_ERROR,
    ],
    [
      'a gym out of scope and a wrong content type',
      (o) => ({ gymId: String(o.gym.id), contentType: 'text/plain' }),
      403,
      partner.EXPLICIT_DENY,
    ],
    [
      'a gym out of scope and a bad platform_id',
      (o) => ({ gymId: String(o.gym.id), payload: '{"platform_id":1}' }),
      403,
      partner.EXPLICIT_DENY,
    ],
    [
      'a wrong content type and malformed JSON',
      () => ({ contentType: 'text/plain', payload: MALFORMED }),
      415,
      partner.UNSUPPORTED_MEDIA_TYPE,
    ],
    [
      'a wrong content type and a body over 64 KiB',
      () => ({ contentType: 'text/plain', payload: HUGE_MALFORMED }),
      415,
      partner.UNSUPPORTED_MEDIA_TYPE,
    ],
    [
      'no content type and malformed JSON',
      () => ({ contentType: null, payload: MALFORMED }),
      415,
      partner.UNSUPPORTED_MEDIA_TYPE,
    ],
    ['a body over 64 KiB that is also malformed', () => ({ payload: HUGE_MALFORMED }), 413, TOO_LARGE],
    ['malformed JSON', () => ({ payload: MALFORMED }), 400, partner.errorEnvelope('body', 'malformed JSON')],
    [
      'an array body holding a bad platform_id',
      () => ({ payload: '[{"platform_id":1}]' }),
      400,
      partner.errorEnvelope('body', 'must be a JSON object'),
    ],
    [
      'a bad platform_id and a bad custom_code',
      () => ({ payload: '{"platform_id":"12","custom_code":""}' }),
      400,
      partner.PLATFORM_ID_ERROR,
    ],
    [
      'a missing platform_id and a bad custom_code',
      () => ({ payload: '{"custom_code":7}' }),
      400,
      partner.PLATFORM_ID_ERROR,
    ],
  ])('when validate has %s, then %i', async (_, faults, status, body) => {
    const t = app();
    const a = await arrangePartner(t.services);
    const other = await arrangePartner(t.services);
    const before = await partner.storeState(t.store);

    const response = await validateWith(t, a, faults(other));

    partner.expectReply(response, status, body);
    expect(await partner.storeState(t.store)).toEqual(before);
  });

  test('when the path is unknown and there is no Authorization, then 404 route.not-found before 401', async () => {
    const t = app();

    partner.expectReply(await t.app.inject({ method: 'POST', url: '/access/v1/validat' }), 404, NOT_FOUND);
  });

  test('when the method is wrong and there is no Authorization, then 405 before 401', async () => {
    const t = app();

    const response = await t.app.inject({ method: 'PATCH', url: '/access/v1/validate', payload: 'x' });

    partner.expectReply(response, 405, NOT_ALLOWED);
    expect(response.headers.allow).toBe('POST');
  });

  test('when a DELETE has a bad token and a bad path id, then 403 before the path is looked at', async () => {
    const t = app();
    const a = await arrangePartner(t.services);

    const response = await t.app.inject({
      method: 'DELETE',
      url: '/access/v1/code/12',
      headers: { ...a.headers, authorization: BAD_TOKEN },
    });

    partner.expectReply(response, 403, partner.EXPLICIT_DENY);
  });

  test('when a PUT has a bad X-Gym-Id and a bad path id, then 400 X-Gym-Id', async () => {
    const t = app();
    const a = await arrangePartner(t.services);

    const response = await t.app.inject({
      method: 'PUT',
      url: '/access/v1/code/12',
      headers: { ...a.headers, 'x-gym-id': 'x', 'content-type': 'application/json' },
      payload: '{"custom_code":""}',
    });

    partner.expectReply(response, 400, partner.GYM_ID_ERROR);
  });
});
