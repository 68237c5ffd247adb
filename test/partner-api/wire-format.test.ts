import { describe, expect, test } from 'vitest';
import { BODY_LIMIT_BYTES as BODY_LIMIT } from '../../src/http/body-limit.js';
import { arrangePartner, platformId } from '../fixtures/factories.js';
import * as partner from '../fixtures/partner-api.js';
import { customCodeRow } from '../fixtures/store-state.js';
import { dialects } from '../fixtures/test-app.js';

/** A validate body of exactly `bytes` bytes, padded in an unknown field (ignored). */
function paddedBody(member: string, bytes: number): string {
  const bare = JSON.stringify({ platform_id: member, padding: '' });
  return JSON.stringify({ platform_id: member, padding: 'x'.repeat(bytes - bare.length) });
}

describe.each(dialects)('content types and body limits (%s)', (dialect) => {
  const app = partner.sharedApp({ dialect });

  test.each([
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON; Charset=UTF-8',
    'APPLICATION/JSON',
    'application/json;charset=utf-8',
  ])('when validate is sent as "%s", then it is accepted', async (contentType) => {
    const t = app();
    const { a, checkin } = await partner.arrangeWithCheckin(t);

    const response = await partner.postValidate(
      t,
      { ...a.headers, 'content-type': contentType },
      {
        platform_id: checkin.platformId,
      },
    );

    partner.expectValidatedNow(t, a, response, { platform_id: checkin.platformId });
  });

  test('when PUT is sent as "application/json; charset=UTF-8", then it is accepted', async () => {
    const t = app();
    const a = await arrangePartner(t.services);
    const member = platformId();
    await t.services.customCodes.create({ gymId: a.gym.id, platformId: member }, 'OLD');

    const response = await partner.codeRequest(
      t,
      'PUT',
      member,
      { ...a.headers, 'content-type': 'application/json; charset=UTF-8' },
      {
        custom_code: 'NEW',
      },
    );

    partner.expectReply(response, 200, partner.EMPTY_SUCCESS);
    expect((await customCodeRow(t.store, a.gym.id, member))?.code).toBe('NEW');
  });

  test.each([
    ['text/plain', 'text/plain'],
    ['application/xml', 'application/xml'],
    ['a form', 'application/x-www-form-urlencoded'],
    ['application/jsonp', 'application/jsonp'],
    ['no Content-Type', undefined],
  ])('when a JSON body is sent as %s, then 415 and nothing is written', async (_, contentType) => {
    const t = app();
    const { a, checkin } = await partner.arrangeWithCheckin(t);
    const before = await partner.storeState(t.store);

    const validate = await t.app.inject({
      method: 'POST',
      url: '/access/v1/validate',
      headers: contentType === undefined ? a.headers : { ...a.headers, 'content-type': contentType },
      payload: JSON.stringify({ platform_id: checkin.platformId }),
    });
    const create = await t.app.inject({
      method: 'POST',
      url: `/access/v1/code/${checkin.platformId}`,
      headers: contentType === undefined ? a.headers : { ...a.headers, 'content-type': contentType },
      payload: JSON.stringify({ custom_code: 'X' }),
    });

    partner.expectReply(validate, 415, partner.UNSUPPORTED_MEDIA_TYPE);
    partner.expectReply(create, 415, partner.UNSUPPORTED_MEDIA_TYPE);
    expect(await partner.storeState(t.store)).toEqual(before);
  });

  test('when the body is exactly 64 KiB, then it is accepted', async () => {
    const t = app();
    const { a, checkin } = await partner.arrangeWithCheckin(t);
    const body = paddedBody(checkin.platformId, BODY_LIMIT);

    const response = await partner.postValidate(t, a.headers, body);

    expect(Buffer.byteLength(body)).toBe(BODY_LIMIT);
    partner.expectValidatedNow(t, a, response, { platform_id: checkin.platformId });
  });

  test('when the body is 64 KiB + 1 byte, then 413 request.too-large and nothing is written', async () => {
    const t = app();
    const { a, checkin } = await partner.arrangeWithCheckin(t);
    await partner.expectReplyNoWrite(
      t,
      413,
      partner.errorEnvelope('request.too-large', 'body must not exceed 65536 bytes'),
      () => partner.postValidate(t, a.headers, paddedBody(checkin.platformId, BODY_LIMIT + 1)),
    );
  });

  test.each([
    ['malformed JSON', '{"platform_id":', 'malformed JSON'],
    ['an empty body', '', 'is required'],
    ['a JSON array', '["1234567890123"]', 'must be a JSON object'],
    ['a JSON string', '"1234567890123"', 'must be a JSON object'],
    ['a JSON number', '1234567890123', 'must be a JSON object'],
    ['JSON null', 'null', 'must be a JSON object'],
  ])('when validate carries %s, then 400 body and nothing is written', async (_, payload, message) => {
    const t = app();
    const a = await arrangePartner(t.services);
    await partner.expectReplyNoWrite(t, 400, partner.errorEnvelope('body', message), () =>
      partner.postValidate(t, a.headers, payload),
    );
  });

  test.each([
    ['__proto__', '{"platform_id":"1234567890123","__proto__":{"polluted":true}}'],
    [
      'constructor.prototype',
      '{"platform_id":"1234567890123","constructor":{"prototype":{"polluted":true}}}',
    ],
  ])('when the JSON carries a %s key, then 400 body and no prototype is polluted', async (_, payload) => {
    const t = app();
    const a = await arrangePartner(t.services);

    const response = await partner.postValidate(t, a.headers, payload);

    partner.expectReply(
      response,
      400,
      partner.errorEnvelope('body', 'must not contain __proto__ or constructor.prototype keys'),
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('when a POST code request has no body at all, then 400 body is required', async () => {
    const t = app();
    const a = await arrangePartner(t.services);

    const response = await partner.codeRequest(t, 'POST', platformId(), a.headers);

    partner.expectReply(response, 400, partner.errorEnvelope('body', 'is required'));
  });

  test.each([
    ['text/plain and a text body', 'text/plain', 'garbage'],
    ['a JSON type and an empty body', 'application/json', ''],
    ['a JSON type and malformed JSON', 'application/json', '{"custom_code":'],
    ['a JSON type and an invalid code', 'application/json', '{"custom_code":""}'],
  ])(
    'when DELETE is sent with %s, then the body is ignored: 204 and the code is deleted',
    async (_, type, payload) => {
      const t = app();
      const a = await arrangePartner(t.services);
      const member = platformId();
      await t.services.customCodes.create({ gymId: a.gym.id, platformId: member }, 'BYE');

      const response = await t.app.inject({
        method: 'DELETE',
        url: `/access/v1/code/${member}`,
        headers: { ...a.headers, 'content-type': type },
        payload,
      });

      expect({ status: response.statusCode, body: response.body }).toEqual({ status: 204, body: '' });
      expect(await customCodeRow(t.store, a.gym.id, member)).toBeUndefined();
    },
  );

  test('when the client sends Accept: text/html, then validate still answers 200 JSON (no 406)', async () => {
    const t = app();
    const { a, checkin } = await partner.arrangeWithCheckin(t);

    const response = await partner.postValidate(
      t,
      { ...a.headers, accept: 'text/html' },
      { platform_id: checkin.platformId },
    );

    partner.expectValidatedNow(t, a, response, { platform_id: checkin.platformId });
  });
});
