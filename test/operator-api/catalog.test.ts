import { describe, expect, test } from 'vitest';
import { unique } from '../fixtures/factories.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';
import { expectReply } from '../fixtures/partner-api.js';

const rowOf = (t: TestApp, table: 'partners' | 'gyms' | 'products', id: number) =>
  t.store.db.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst();

const idOf = (body: string) => (JSON.parse(body) as { id: number }).id;

describe.each(dialects)('operator API: partners, gyms, products (%s)', (dialect) => {
  const app = op.operatorApp({ dialect });

  test('when a partner is created, then 201 {id, name, created_at}, unknown fields ignored, and it is stored', async () => {
    const t = app();

    const response = await op.admin(t, 'POST', '/partners', { name: 'Smart Fit', unknown_field: 'ignored' });

    const id = idOf(response.body);
    expectReply(response, 201, { id, name: 'Smart Fit', offboarded_at: null, created_at: op.T0 });
    expect(await rowOf(t, 'partners', id)).toEqual({
      id,
      name: 'Smart Fit',
      created_at: op.T0_MS,
      offboarded_at: null,
      sandbox: 0,
      // The compatibility profile: off, the spec's answers.
      cancelled_spelling: 'cancelled',
      gym_from_key: 0,
    });
  });

  test.each([
    ['no name', 'name', 'is required', {}],
    ['an empty name', 'name', 'must NOT have fewer than 1 characters', { name: '' }],
    ['201 characters', 'name', 'must NOT have more than 200 characters', { name: 'x'.repeat(201) }],
    ['a number as name', 'name', 'must be string', { name: 5 }],
    ['a JSON array', 'body', 'must be a JSON object', ['Smart Fit']],
  ])(
    'when a partner is created with %s, then 400 key %s and nothing is written',
    async (_c, key, message, body) => {
      const t = app();
      const before = await op.wholeStore(t);

      expectReply(await op.admin(t, 'POST', '/partners', body), 400, errorEnvelope(key, message));
      expect(await op.wholeStore(t)).toEqual(before);
    },
  );

  test('when a partner is created with no body or malformed JSON, then 400 key body and nothing is written', async () => {
    const t = app();
    const headers = { ...op.ADMIN, 'content-type': 'application/json' };
    const before = await op.wholeStore(t);

    const absent = await t.app.inject({ method: 'POST', url: '/admin/v1/partners', headers });
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/partners',
      headers,
      payload: '{"name":',
    });

    expectReply(absent, 400, errorEnvelope('body', 'is required'));
    expectReply(malformed, 400, errorEnvelope('body', 'malformed JSON'));
    expect(await op.wholeStore(t)).toEqual(before);
  });

  test.each([
    ['limit=0', 'limit', 'must be an integer from 1 to 1000'],
    ['limit=1001', 'limit', 'must be an integer from 1 to 1000'],
    ['limit=-1', 'limit', 'must be an integer from 1 to 1000'],
    ['cursor=not-a-cursor', 'cursor', 'is not a cursor this API returned'],
    [`cursor=${Buffer.from('after:x').toString('base64url')}`, 'cursor', 'is not a cursor this API returned'],
    [`cursor=${'A'.repeat(201)}`, 'cursor', 'must NOT have more than 200 characters'],
  ])('when partners are listed with %s, then 400 key %s', async (query, key, message) => {
    const t = app();

    expectReply(await op.admin(t, 'GET', `/partners?${query}`), 400, errorEnvelope(key, message));
  });

  test('when a gym id is already taken, even by another partner, then 409 gym.already-exists and nothing is written', async () => {
    const t = app();
    const [first, second] = [await op.createPartner(t), await op.createPartner(t)];
    const taken = await op.createGym(t, first.id);
    const before = await op.wholeStore(t);

    const response = await op.admin(t, 'POST', '/gyms', {
      id: taken.id,
      partner_id: second.id,
      name: 'Other',
    });

    expectReply(response, 409, errorEnvelope('gym.already-exists', 'gym already exists'));
    expect(await op.wholeStore(t)).toEqual(before);
  });

  test.each([
    ['an unknown partner', 404, 'partner.not-found', 'partner not found', { partner_id: 999_999 }],
    ['partner_id as a string', 400, 'partner_id', 'must be integer', { partner_id: '1' }],
    ['id 0', 400, 'id', 'must be >= 1', { id: 0 }],
    ['no name', 400, 'name', 'is required', { name: undefined }],
  ])(
    'when a gym is created with %s, then %i key %s and nothing is written',
    async (_c, status, key, message, override) => {
      const t = app();
      const partner = await op.createPartner(t);
      const before = await op.wholeStore(t);

      const body = { partner_id: partner.id, name: 'G', ...override };
      expectReply(await op.admin(t, 'POST', '/gyms', body), status, errorEnvelope(key, message));
      expect(await op.wholeStore(t)).toEqual(before);
    },
  );

  test('when a product is created with only a description, then payout 0 and currency BRL, and it is stored', async () => {
    const t = app();
    const gym = await op.createGym(t, (await op.createPartner(t)).id);

    const response = await op.admin(t, 'POST', `/gyms/${gym.id}/products`, { description: 'Day pass' });

    const id = idOf(response.body);
    expectReply(response, 201, {
      id,
      gym_id: gym.id,
      description: 'Day pass',
      payout_cents: 0,
      currency: 'BRL',
      retired_at: null,
      category: 'standard',
    });
    expect(await rowOf(t, 'products', id)).toEqual({
      id,
      gym_id: gym.id,
      description: 'Day pass',
      payout_cents: 0,
      currency: 'BRL',
      created_at: op.T0_MS,
      retired_at: null,
      category: 'standard',
    });
  });

  test('when a product is created with id, payout and currency, then they are kept; the id is global: 409 on another gym', async () => {
    const t = app();
    const partner = await op.createPartner(t);
    const [a, b] = [await op.createGym(t, partner.id), await op.createGym(t, partner.id)];
    const id = 500_000 + unique();
    const product = {
      id,
      gym_id: a.id,
      description: 'Black plan',
      payout_cents: 2599,
      currency: 'USD',
      category: 'premium',
    };

    const made = await op.admin(t, 'POST', `/gyms/${a.id}/products`, { ...product, gym_id: undefined });
    const before = await op.wholeStore(t);
    const duplicate = await op.admin(t, 'POST', `/gyms/${b.id}/products`, { id, description: 'Other' });

    expectReply(made, 201, { ...product, retired_at: null });
    expectReply(duplicate, 409, errorEnvelope('product.already-exists', 'product already exists'));
    expect(await op.wholeStore(t)).toEqual(before);
    expectReply(await op.admin(t, 'GET', `/gyms/${a.id}/products`), 200, {
      items: [{ ...product, retired_at: null }],
      next_cursor: null,
    });
    expectReply(await op.admin(t, 'GET', `/gyms/${b.id}/products`), 200, { items: [], next_cursor: null });
  });

  test.each([
    ['an unknown gym', 404, 'gym.not-found', 'gym not found', '999999', {}],
    ['a gym id that is not a number', 400, 'gym_id', 'must be a positive integer', 'abc', {}],
    ['gym id 0', 400, 'gym_id', 'must be a positive integer', '0', {}],
    ['no description', 400, 'description', 'is required', undefined, { description: undefined }],
    [
      'a lower-case currency',
      400,
      'currency',
      'must be a three-letter currency code such as BRL',
      undefined,
      { currency: 'usd' },
    ],
    ['a negative payout', 400, 'payout_cents', 'must be >= 0', undefined, { payout_cents: -1 }],
    ['a fractional payout', 400, 'payout_cents', 'must be integer', undefined, { payout_cents: 1.5 }],
  ])(
    'when a product is created with %s, then %i key %s and nothing is written',
    async (_c, status, key, message, gymPath, override) => {
      const t = app();
      const gym = await op.createGym(t, (await op.createPartner(t)).id);
      const before = await op.wholeStore(t);

      const response = await op.admin(t, 'POST', `/gyms/${gymPath ?? gym.id}/products`, {
        description: 'P',
        ...override,
      });

      expectReply(response, status, errorEnvelope(key, message));
      expect(await op.wholeStore(t)).toEqual(before);
    },
  );

  test('when the products of an unknown gym are listed, then 404 gym.not-found', async () => {
    const t = app();

    const response = await op.admin(t, 'GET', '/gyms/999999/products');

    expectReply(response, 404, errorEnvelope('gym.not-found', 'gym not found'));
  });
});

describe.each(dialects)('operator API: GATEHOUSE_CURRENCY (%s)', (dialect) => {
  const app = op.operatorApp({ dialect, env: { GATEHOUSE_CURRENCY: 'EUR' } });

  test('when GATEHOUSE_CURRENCY is EUR and a product names no currency, then it is EUR', async () => {
    const t = app();
    const gym = await op.createGym(t, (await op.createPartner(t)).id);

    const product = await op.createProduct(t, gym.id, { description: 'Day pass' });

    expect(product).toEqual({
      id: product.id,
      gym_id: gym.id,
      description: 'Day pass',
      payout_cents: 0,
      currency: 'EUR',
      retired_at: null,
      category: 'standard',
    });
  });
});
