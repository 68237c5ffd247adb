import { describe, expect, test } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import { dialects } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';
import { expectReply } from '../fixtures/partner-api.js';

/** The greatest id there is: 15 digits, as X-Gym-Id and every id in a path or body allow. */
const MAX_ID = 999_999_999_999_999;
const NO_ID_LEFT = errorEnvelope(
  'id',
  `must be given: the next id after the greatest one would pass ${MAX_ID}`,
);

describe.each(dialects)('every id the operator API accepts or hands out can be used (%s)', (dialect) => {
  // A fresh app per test: the greatest gym and product ids are what these tests are about.
  const app = op.operatorApp({ dialect, perTest: true });

  test('when a gym is created with the greatest id, then partners can send it as X-Gym-Id and validate there', async () => {
    const t = app();
    const partner = await op.createPartner(t);

    const created = await op.admin(t, 'POST', '/gyms', {
      id: MAX_ID,
      partner_id: partner.id,
      name: 'Last Gym',
    });

    expectReply(created, 201, {
      id: MAX_ID,
      partner_id: partner.id,
      name: 'Last Gym',
      timezone: null,
      retired_at: null,
      created_at: op.T0,
    });
    const product = await op.createProduct(t, MAX_ID, { payout_cents: 700 });
    const key = await op.issueKey(t, partner.id);
    const member = platformId();
    await op.createCheckin(t, product, { platform_id: member });
    const validated = await op.validate(t, key.key, MAX_ID, member);
    expectReply(validated, 200, {
      metadata: { total: 1, errors: 0 },
      results: {
        user: { platform_id: member },
        gym: { Id: MAX_ID, product: { Id: product.id, description: product.description } },
        validated_at: '2026-03-02T12:00:00Z',
      },
    });
  });

  test('when the greatest gym id is taken and a gym is created without an id, then 400 id, nothing is written, and a given id still works', async () => {
    const t = app();
    const partner = await op.createPartner(t);
    await op.admin(t, 'POST', '/gyms', { id: MAX_ID, partner_id: partner.id, name: 'Last Gym' });
    const before = await op.wholeStore(t);

    const generated = await op.admin(t, 'POST', '/gyms', { partner_id: partner.id, name: 'Next Gym' });

    expectReply(generated, 400, NO_ID_LEFT);
    expect(await op.wholeStore(t)).toEqual(before);
    const given = await op.admin(t, 'POST', '/gyms', { id: 42, partner_id: partner.id, name: 'Given Gym' });
    expectReply(given, 201, {
      id: 42,
      partner_id: partner.id,
      name: 'Given Gym',
      timezone: null,
      retired_at: null,
      created_at: op.T0,
    });
  });

  test('when the greatest product id is taken and a product is created without an id, then 400 id and nothing is written', async () => {
    const t = app();
    const partner = await op.createPartner(t);
    await op.admin(t, 'POST', '/gyms', { id: 7, partner_id: partner.id, name: 'Gym' });
    await op.createProduct(t, 7, { id: MAX_ID });
    const before = await op.wholeStore(t);

    const generated = await op.admin(t, 'POST', '/gyms/7/products', {
      description: 'Next plan',
      payout_cents: 100,
    });

    expectReply(generated, 400, NO_ID_LEFT);
    expect(await op.wholeStore(t)).toEqual(before);
  });

  test('when a gym id past the greatest is given, then 400 id and nothing is written', async () => {
    const t = app();
    const partner = await op.createPartner(t);
    const before = await op.wholeStore(t);

    const response = await op.admin(t, 'POST', '/gyms', {
      id: MAX_ID + 1,
      partner_id: partner.id,
      name: 'Too far',
    });

    expectReply(response, 400, errorEnvelope('id', `must be <= ${MAX_ID}`));
    expect(await op.wholeStore(t)).toEqual(before);
  });
});
