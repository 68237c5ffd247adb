import { describe, expect, test } from 'vitest';
import { arrangePartner, platformId } from '../fixtures/factories.js';
import { errorEnvelope, expectReply, sharedApp, storeState } from '../fixtures/partner-api.js';
import { customCodeRow } from '../fixtures/store-state.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';

const ADMIN_TOKEN = 'operator-secret-0123456789';
const NOT_UTF8 = errorEnvelope('body', 'must be UTF-8');

/** `{"custom_code":"AB<bytes>"}`: the bytes sent as they are, not as JSON escapes. */
function codeBody(bytes: number[]): Buffer {
  return Buffer.concat([Buffer.from('{"custom_code":"AB'), Buffer.from(bytes), Buffer.from('"}')]);
}

/** Byte sequences that are not UTF-8, each of which a lenient decoder turns into U+FFFD. */
const INVALID_UTF8: [string, number[]][] = [
  ['a lone continuation byte', [0x80]],
  ['0xFF', [0xff]],
  ['a truncated two-byte sequence', [0xc3]],
  ['an overlong encoding of "/"', [0xc0, 0xaf]],
  ['an encoded surrogate (CESU-8)', [0xed, 0xa0, 0x80]],
  ['a code point past U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
];

function send(
  t: TestApp,
  method: 'POST' | 'PUT',
  url: string,
  headers: Record<string, string>,
  payload: Buffer,
) {
  return t.app.inject({ method, url, headers: { ...headers, 'content-type': 'application/json' }, payload });
}

describe.each(dialects)('JSON bodies must be UTF-8 (%s)', (dialect) => {
  const app = sharedApp({ dialect, env: { GATEHOUSE_ADMIN_TOKEN: ADMIN_TOKEN } });

  test.each(INVALID_UTF8)(
    'when a body holds %s, then every route that reads a body answers 400 body and nothing is written',
    async (_kind, bytes) => {
      const t = app();
      const a = await arrangePartner(t.services);
      const member = platformId();
      await t.services.customCodes.create({ gymId: a.gym.id, platformId: member }, 'KEEP-ME');
      const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
      const before = await storeState(t.store);

      const answers = [
        await send(t, 'POST', '/access/v1/validate', a.headers, codeBody(bytes)),
        await send(t, 'POST', `/access/v1/code/${platformId()}`, a.headers, codeBody(bytes)),
        await send(t, 'PUT', `/access/v1/code/${member}`, a.headers, codeBody(bytes)),
        await send(
          t,
          'POST',
          '/admin/v1/partners',
          admin,
          Buffer.from([...Buffer.from('{"name":"Gym '), ...bytes, 0x22, 0x7d]),
        ),
      ];

      for (const answer of answers) expectReply(answer, 400, NOT_UTF8);
      expect(await storeState(t.store)).toEqual(before);
    },
  );

  test('when two codes differ only in invalid bytes, then neither is stored, so they never become one code', async () => {
    const t = app();
    const a = await arrangePartner(t.services);
    const [first, second] = [platformId(), platformId()];

    const answers = [
      await send(t, 'POST', `/access/v1/code/${first}`, a.headers, codeBody([0xff])),
      await send(t, 'POST', `/access/v1/code/${second}`, a.headers, codeBody([0xfe])),
    ];

    for (const answer of answers) expectReply(answer, 400, NOT_UTF8);
    expect(await customCodeRow(t.store, a.gym.id, first)).toBeUndefined();
    expect(await customCodeRow(t.store, a.gym.id, second)).toBeUndefined();
  });

  test('when a code is valid UTF-8 beyond ASCII (2, 3 and 4 bytes), then it is stored exactly', async () => {
    const t = app();
    const a = await arrangePartner(t.services);
    const member = platformId();

    const response = await send(
      t,
      'POST',
      `/access/v1/code/${member}`,
      a.headers,
      Buffer.from('{"custom_code":"Ação東😀"}'),
    );

    expectReply(response, 201, { metadata: { total: 1, errors: 0 }, results: {} });
    expect(await customCodeRow(t.store, a.gym.id, member)).toMatchObject({ code: 'Ação東😀' });
  });
});
