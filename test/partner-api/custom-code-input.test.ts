import { describe, expect, test } from 'vitest';
import { BAD_CODES, BAD_PATH_IDS } from '../fixtures/bad-inputs.js';
import { arrangePartner, platformId, type Arranged } from '../fixtures/factories.js';
import * as partner from '../fixtures/partner-api.js';
import { customCodeRow } from '../fixtures/store-state.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';

const WRITES = ['POST', 'PUT'] as const;
const ALL_METHODS = ['POST', 'PUT', 'DELETE', 'GET'] as const;
const ROUTE_NOT_FOUND = partner.errorEnvelope('route.not-found', 'no route matches this path');

/** A member who already holds 'KEEP-ME' at the arranged gym, so PUT has something to (not) replace. */
async function memberWithCode(t: TestApp, a: Arranged): Promise<string> {
  const member = platformId();
  await t.services.customCodes.create({ gymId: a.gym.id, platformId: member }, 'KEEP-ME');
  return member;
}

function bodyFor(method: (typeof ALL_METHODS)[number]) {
  return method === 'POST' || method === 'PUT' ? { custom_code: 'VALID-1' } : undefined;
}

describe.each(dialects)('custom-code input (%s)', (dialect) => {
  const app = partner.sharedApp({ dialect });

  describe.each(WRITES)('%s /access/v1/code/:platform_id', (method) => {
    test.each(BAD_CODES)(
      'when custom_code is %s, then 400 custom_code and the stored codes are unchanged',
      async (_, value, message) => {
        const t = app();
        const a = await arrangePartner(t.services);
        const member = method === 'PUT' ? await memberWithCode(t, a) : platformId();
        await partner.expectReplyNoWrite(t, 400, partner.errorEnvelope('custom_code', message), () =>
          partner.codeRequest(t, method, member, a.headers, { custom_code: value }),
        );
      },
    );

    test('when custom_code is absent, then 400 custom_code is required', async () => {
      const t = app();
      const a = await arrangePartner(t.services);
      const member = await memberWithCode(t, a);
      await partner.expectReplyNoWrite(t, 400, partner.errorEnvelope('custom_code', 'is required'), () =>
        partner.codeRequest(t, method, member, a.headers, { code: 'X' }),
      );
    });

    test('when custom_code is null, then 400 custom_code (never "no code" here)', async () => {
      const t = app();
      const a = await arrangePartner(t.services);
      const member = await memberWithCode(t, a);
      await partner.expectReplyNoWrite(t, 400, partner.errorEnvelope('custom_code', 'must be a string'), () =>
        partner.codeRequest(t, method, member, a.headers, { custom_code: null }),
      );
    });

    test('when custom_code is 13 emoji (13 code points), then it is accepted and stored', async () => {
      const t = app();
      const a = await arrangePartner(t.services);
      const member = method === 'PUT' ? await memberWithCode(t, a) : platformId();

      const response = await partner.codeRequest(t, method, member, a.headers, {
        custom_code: '🏋'.repeat(13),
      });

      partner.expectReply(response, method === 'POST' ? 201 : 200, partner.EMPTY_SUCCESS);
      expect((await customCodeRow(t.store, a.gym.id, member))?.code).toBe('🏋'.repeat(13));
    });

    test('when the body is absent, then 400 body is required', async () => {
      const t = app();
      const a = await arrangePartner(t.services);
      await partner.expectReplyNoWrite(t, 400, partner.errorEnvelope('body', 'is required'), () =>
        partner.codeRequest(t, method, platformId(), a.headers),
      );
    });

    test('when both the path id and the code are bad, then the platform_id error wins', async () => {
      const t = app();
      const a = await arrangePartner(t.services);

      const response = await partner.codeRequest(t, method, '123', a.headers, { custom_code: '' });

      partner.expectReply(response, 400, partner.PLATFORM_ID_ERROR);
    });
  });

  describe.each(ALL_METHODS)('%s with a bad path platform_id', (method) => {
    test.each(BAD_PATH_IDS)(
      'when the path id is %s, then 400 platform_id and nothing is written',
      async (_, segment) => {
        const t = app();
        const a = await arrangePartner(t.services);
        await partner.expectReplyNoWrite(t, 400, partner.PLATFORM_ID_ERROR, () =>
          partner.codeRequest(t, method, segment, a.headers, bodyFor(method)),
        );
      },
    );

    test.each([
      ['"..", which routes elsewhere', '..'],
      ['200 digits, too long to route', '1'.repeat(200)],
    ])('when the path id is %s, then 404 route.not-found, never 500', async (_, segment) => {
      const t = app();
      const a = await arrangePartner(t.services);
      await partner.expectReplyNoWrite(t, 404, ROUTE_NOT_FOUND, () =>
        partner.codeRequest(t, method, segment, a.headers, bodyFor(method)),
      );
    });
  });

  test('when a path id has leading zeros, then it is a valid member id', async () => {
    const t = app();
    const a = await arrangePartner(t.services);

    const response = await partner.codeRequest(t, 'POST', '0000000000007', a.headers, {
      custom_code: 'ZEROS',
    });

    partner.expectReply(response, 201, partner.EMPTY_SUCCESS);
    expect((await customCodeRow(t.store, a.gym.id, '0000000000007'))?.code).toBe('ZEROS');
  });
});
