import { describe, expect, test } from 'vitest';
import * as partner from '../fixtures/partner-api.js';
import {
  checkinRow,
  customCodeRow,
  expectLedgerInvariants,
  transactionsOf,
} from '../fixtures/store-state.js';
import { dialects } from '../fixtures/test-app.js';

const CONCURRENT = 50;

describe.each(dialects)('concurrent validates (%s)', (dialect) => {
  const app = partner.sharedApp({ dialect });

  test(`when ${CONCURRENT} validates of one check-in arrive at once, then exactly one 200, the rest 400 already validated, one transaction`, async () => {
    const t = app();
    const { a, checkin } = await partner.arrangeWithCheckin(t);

    const responses = await Promise.all(
      Array.from({ length: CONCURRENT }, () =>
        partner.postValidate(t, a.headers, { platform_id: checkin.platformId }),
      ),
    );

    const replies = responses.map((response) => ({
      status: response.statusCode,
      type: response.headers['content-type'],
      body: JSON.parse(response.body) as unknown,
    }));
    const ok = replies.filter((reply) => reply.status === 200);
    const refused = replies.filter((reply) => reply.status !== 200);
    const json = 'application/json; charset=utf-8';
    expect(ok).toEqual([
      {
        status: 200,
        type: json,
        body: partner.validationResult(
          a,
          { platform_id: checkin.platformId },
          partner.secondsOf(t.clock.now()),
        ),
      },
    ]);
    expect(refused).toEqual(
      Array.from({ length: CONCURRENT - 1 }, () => ({
        status: 400,
        type: json,
        body: partner.ALREADY_VALIDATED,
      })),
    );
    expect((await checkinRow(t.store, checkin.id)).status).toBe('validated');
    expect(await transactionsOf(t.store, checkin.id)).toHaveLength(1);
    await expectLedgerInvariants(t.store);
  });

  test('when concurrent validates each carry a different code, then one validation and the stored code is one of those sent', async () => {
    const t = app();
    const { a, checkin } = await partner.arrangeWithCheckin(t);
    const codes = Array.from({ length: 20 }, (_, index) => `CODE-${index}`);

    const responses = await Promise.all(
      codes.map((code) =>
        partner.postValidate(t, a.headers, { platform_id: checkin.platformId, custom_code: code }),
      ),
    );

    const replies = responses.map((response) => ({
      status: response.statusCode,
      body: JSON.parse(response.body) as unknown,
    }));
    const ok = partner.validationResult(
      a,
      { platform_id: checkin.platformId },
      partner.secondsOf(t.clock.now()),
    );
    expect(replies.filter((reply) => reply.status === 200)).toEqual([{ status: 200, body: ok }]);
    expect(replies.filter((reply) => reply.status !== 200)).toEqual(
      Array.from({ length: codes.length - 1 }, () => ({ status: 400, body: partner.ALREADY_VALIDATED })),
    );
    expect(codes).toContain((await customCodeRow(t.store, a.gym.id, checkin.platformId))?.code);
    expect(await transactionsOf(t.store, checkin.id)).toHaveLength(1);
    await expectLedgerInvariants(t.store);
  });
});
