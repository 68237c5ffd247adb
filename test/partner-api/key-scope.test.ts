import { describe, expect, test } from 'vitest';
import { arrangePartner, platformId, unique, type Arranged } from '../fixtures/factories.js';
import * as partner from '../fixtures/partner-api.js';
import { checkinRow } from '../fixtures/store-state.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';

const ROUTES = ['validate', 'POST code', 'PUT code', 'DELETE code', 'GET code'] as const;

/** A second gym of the arranged partner, with a product, a member's pending check-in and that member's code. */
async function secondGym(t: TestApp, a: Arranged) {
  const gym = await t.services.catalog.createGym({
    id: 900_000 + unique(),
    partnerId: a.partner.id,
    name: 'Annex',
  });
  const product = await t.services.catalog.createProduct(gym.id, {
    description: 'Annex pass',
    payoutCents: 300,
  });
  const member = platformId();
  await t.services.checkins.create({ platformId: member, gymId: gym.id, productId: product.id });
  await t.services.customCodes.create({ gymId: gym.id, platformId: member }, 'ANNEX');
  return { gym, product, member };
}

describe.each(dialects)('key scope: the gyms a key may act on (%s)', (dialect) => {
  const app = partner.sharedApp({ dialect });

  test('when a key scoped to its gym validates there, then 200', async () => {
    const t = app();
    const a = await arrangePartner(t.services, { scopedToGym: true });
    const checkin = await partner.arrangeCheckin(t, a);

    const response = await partner.postValidate(t, a.headers, { platform_id: checkin.platformId });

    partner.expectValidatedNow(t, a, response, { platform_id: checkin.platformId });
  });

  test.each(ROUTES)(
    'when a key scoped to one gym calls %s for another gym of the same partner, then 403 and that gym is untouched',
    async (route) => {
      const t = app();
      const a = await arrangePartner(t.services, { scopedToGym: true });
      const annex = await secondGym(t, a);
      await partner.expectReplyNoWrite(t, 403, partner.EXPLICIT_DENY, () =>
        partner.partnerRequest(t, route, { ...a.headers, 'x-gym-id': String(annex.gym.id) }, annex.member),
      );
    },
  );

  test("when a key for all the partner's gyms is used on a gym created after it was issued, then it works", async () => {
    const t = app();
    const a = await arrangePartner(t.services);
    const annex = await secondGym(t, a);

    const response = await partner.partnerRequest(
      t,
      'PUT code',
      { ...a.headers, 'x-gym-id': String(annex.gym.id) },
      annex.member,
    );

    partner.expectReply(response, 200, partner.EMPTY_SUCCESS);
  });

  test.each(ROUTES)(
    "when partner A's key calls %s with partner B's gym, then 403 and B's records are untouched",
    async (route) => {
      const t = app();
      const a = await arrangePartner(t.services);
      const b = await arrangePartner(t.services);
      const checkin = await partner.arrangeCheckin(t, b);
      await t.services.customCodes.create({ gymId: b.gym.id, platformId: checkin.platformId }, 'B-CODE');
      await partner.expectReplyNoWrite(t, 403, partner.EXPLICIT_DENY, () =>
        partner.partnerRequest(t, route, { ...a.headers, 'x-gym-id': String(b.gym.id) }, checkin.platformId),
      );
      expect((await checkinRow(t.store, checkin.id)).status).toBe('pending');
    },
  );

  test.each(ROUTES)(
    'when a live key calls %s with a gym id that does not exist, then the same 403',
    async (route) => {
      const t = app();
      const a = await arrangePartner(t.services);
      await partner.expectReplyNoWrite(t, 403, partner.EXPLICIT_DENY, () =>
        partner.partnerRequest(t, route, { ...a.headers, 'x-gym-id': '999999999999' }),
      );
    },
  );
});
