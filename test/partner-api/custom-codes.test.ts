import { sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import { arrangePartner, platformId } from '../fixtures/factories.js';
import * as partner from '../fixtures/partner-api.js';
import { customCodeRow, expectCodeRow } from '../fixtures/store-state.js';
import { dialects } from '../fixtures/test-app.js';

describe.each(dialects)('custom codes (%s)', (dialect) => {
  const app = partner.sharedApp({ dialect });

  test('when POST creates a code for a member with no check-in, then 201 with an empty result and the code is stored', async () => {
    const t = app();
    const a = await arrangePartner(t.services);
    const member = platformId();

    const response = await partner.codeRequest(t, 'POST', member, a.headers, { custom_code: 'PIN-0042' });

    partner.expectReply(response, 201, partner.EMPTY_SUCCESS);
    await expectCodeRow(t.store, a.gym.id, member, 'PIN-0042', t.clock.now());
  });

  test('when POST is sent twice for the same member and gym, then 409 already-exists and the first code is intact', async () => {
    const t = app();
    const a = await arrangePartner(t.services);
    const member = platformId();
    partner.expectReply(
      await partner.codeRequest(t, 'POST', member, a.headers, { custom_code: 'FIRST' }),
      201,
      partner.EMPTY_SUCCESS,
    );
    t.clock.advance(1_000);
    await partner.expectReplyNoWrite(t, 409, partner.CODE_EXISTS, () =>
      partner.codeRequest(t, 'POST', member, a.headers, { custom_code: 'SECOND' }),
    );
    expect((await customCodeRow(t.store, a.gym.id, member))?.code).toBe('FIRST');
  });

  test('when the member has a code at another gym, then POST at this gym creates a separate code and leaves that one', async () => {
    const t = app();
    const a = await arrangePartner(t.services);
    const other = await t.services.catalog.createGym({
      id: a.gym.id + 60_000,
      partnerId: a.partner.id,
      name: 'B',
    });
    const member = platformId();
    await t.services.customCodes.create({ gymId: other.id, platformId: member }, 'AT-OTHER');

    const response = await partner.codeRequest(t, 'POST', member, a.headers, { custom_code: 'AT-THIS' });

    partner.expectReply(response, 201, partner.EMPTY_SUCCESS);
    expect((await customCodeRow(t.store, a.gym.id, member))?.code).toBe('AT-THIS');
    expect((await customCodeRow(t.store, other.id, member))?.code).toBe('AT-OTHER');
  });

  test('when two members take the same code at one gym, then both are stored', async () => {
    const t = app();
    const a = await arrangePartner(t.services);
    const [first, second] = [platformId(), platformId()];

    partner.expectReply(
      await partner.codeRequest(t, 'POST', first, a.headers, { custom_code: 'SHARED' }),
      201,
      partner.EMPTY_SUCCESS,
    );
    partner.expectReply(
      await partner.codeRequest(t, 'POST', second, a.headers, { custom_code: 'SHARED' }),
      201,
      partner.EMPTY_SUCCESS,
    );

    expect((await customCodeRow(t.store, a.gym.id, first))?.code).toBe('SHARED');
    expect((await customCodeRow(t.store, a.gym.id, second))?.code).toBe('SHARED');
  });

  test('when PUT replaces an existing code, then 200 with an empty result and the code and updated_at change', async () => {
    const t = app();
    const a = await arrangePartner(t.services);
    const member = platformId();
    const createdAt = t.clock.now();
    await t.services.customCodes.create({ gymId: a.gym.id, platformId: member }, 'OLD');
    t.clock.advance(60_000);

    const response = await partner.codeRequest(t, 'PUT', member, a.headers, { custom_code: 'NEW' });

    partner.expectReply(response, 200, partner.EMPTY_SUCCESS);
    await expectCodeRow(t.store, a.gym.id, member, 'NEW', createdAt, createdAt + 60_000);
  });

  test('when PUT targets a member with no code, then 404 not-found and nothing is created', async () => {
    const t = app();
    const a = await arrangePartner(t.services);
    await partner.expectReplyNoWrite(t, 404, partner.CODE_NOT_FOUND, () =>
      partner.codeRequest(t, 'PUT', platformId(), a.headers, { custom_code: 'NEW' }),
    );
  });

  test('when DELETE removes an existing code, then 204 with no body and the code is gone', async () => {
    const t = app();
    const a = await arrangePartner(t.services);
    const member = platformId();
    await t.services.customCodes.create({ gymId: a.gym.id, platformId: member }, 'GONE-SOON');

    const response = await partner.codeRequest(t, 'DELETE', member, a.headers);

    expect({ status: response.statusCode, body: response.body }).toEqual({ status: 204, body: '' });
    expect(await customCodeRow(t.store, a.gym.id, member)).toBeUndefined();
  });

  test('when DELETE targets a member with no code, then 404 not-found and nothing changes', async () => {
    const t = app();
    const a = await arrangePartner(t.services);
    await partner.expectReplyNoWrite(t, 404, partner.CODE_NOT_FOUND, () =>
      partner.codeRequest(t, 'DELETE', platformId(), a.headers),
    );
  });

  test('when GET reads an existing code, then 200 with platform_id, custom_code and updated_at (ISO with ms)', async () => {
    const t = app();
    const a = await arrangePartner(t.services);
    const member = platformId();
    t.clock.set('2026-03-02T12:34:56.789Z');
    await t.services.customCodes.create({ gymId: a.gym.id, platformId: member }, 'READ-ME');
    await partner.expectReplyNoWrite(
      t,
      200,
      {
        metadata: { total: 1, errors: 0 },
        results: { platform_id: member, custom_code: 'READ-ME', updated_at: '2026-03-02T12:34:56.789Z' },
      },
      () => partner.codeRequest(t, 'GET', member, a.headers),
    );
  });

  test('when GET targets a member with no code at this gym, then 404 not-found', async () => {
    const t = app();
    const a = await arrangePartner(t.services);

    partner.expectReply(
      await partner.codeRequest(t, 'GET', platformId(), a.headers),
      404,
      partner.CODE_NOT_FOUND,
    );
  });

  test.each([
    ['quotes', `a"b'c`],
    ['an SQL injection', "'; DROP TABLE"],
    ['LIKE wildcards', '100%_done'],
    ['a backslash', 'C:\\codes\\1'],
    ['13 emoji', '😀'.repeat(13)],
  ])('when the code holds %s, then it is stored and read back verbatim', async (_, code) => {
    const t = app();
    const a = await arrangePartner(t.services);
    const member = platformId();

    partner.expectReply(
      await partner.codeRequest(t, 'POST', member, a.headers, { custom_code: code }),
      201,
      partner.EMPTY_SUCCESS,
    );
    const read = await partner.codeRequest(t, 'GET', member, a.headers);

    partner.expectReply(read, 200, {
      metadata: { total: 1, errors: 0 },
      results: { platform_id: member, custom_code: code, updated_at: new Date(t.clock.now()).toISOString() },
    });
  });

  test('when the body carries unknown fields (gym_id, platform_id), then they are ignored', async () => {
    const t = app();
    const a = await arrangePartner(t.services);
    const b = await arrangePartner(t.services);
    const member = platformId();
    const decoy = platformId();

    const response = await partner.codeRequest(t, 'POST', member, a.headers, {
      custom_code: 'MINE',
      gym_id: b.gym.id,
      platform_id: decoy,
    });

    partner.expectReply(response, 201, partner.EMPTY_SUCCESS);
    expect((await customCodeRow(t.store, a.gym.id, member))?.code).toBe('MINE');
    expect(await customCodeRow(t.store, b.gym.id, member)).toBeUndefined();
    expect(await customCodeRow(t.store, a.gym.id, decoy)).toBeUndefined();
  });

  test.each(['POST', 'PUT', 'DELETE', 'GET'] as const)(
    'when %s fails unexpectedly, then 500 checkin.custom-code.unexpected-error with the request id, no SQL in the body',
    async (method) => {
      const t = app();
      const a = await arrangePartner(t.services);
      const body = method === 'POST' || method === 'PUT' ? { custom_code: 'BOOM' } : undefined;
      await sql`alter table custom_codes rename to custom_codes_gone`.execute(t.store.db);

      const response = await partner
        .codeRequest(
          t,
          method,
          platformId(),
          { ...a.headers, 'x-request-id': `req-code-500-${method}` },
          body,
        )
        .finally(() => sql`alter table custom_codes_gone rename to custom_codes`.execute(t.store.db));

      partner.expectReply(response, 500, {
        ...partner.errorEnvelope(
          'checkin.custom-code.unexpected-error',
          'There was an unexpected internal server error',
        ),
        request_id: `req-code-500-${method}`,
      });
      expect(response.body).not.toMatch(/custom_codes|select|insert|update|delete from/i);
    },
  );
});
