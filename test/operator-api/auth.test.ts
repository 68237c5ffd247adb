import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, test } from 'vitest';
import { arrangePartner, platformId } from '../fixtures/factories.js';
import { dialects, useApp, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';
import { expectReply } from '../fixtures/partner-api.js';

type Route = [InjectOptions['method'], string, unknown?];

/** One well-formed request to every operator route, on records that exist. */
function everyRoute(ids: { partner: number; gym: number; product: number; key: number; checkin: number }) {
  const member = platformId();
  const routes: Route[] = [
    ['POST', '/partners', { name: 'Refused Partner' }],
    ['GET', '/partners'],
    ['POST', '/gyms', { partner_id: ids.partner, name: 'Refused Gym' }],
    ['GET', `/gyms?partner_id=${ids.partner}`],
    ['POST', `/gyms/${ids.gym}/products`, { description: 'Refused plan' }],
    ['GET', `/gyms/${ids.gym}/products`],
    ['POST', `/partners/${ids.partner}/keys`, { label: 'refused' }],
    ['GET', `/partners/${ids.partner}/keys`],
    ['DELETE', `/keys/${ids.key}`],
    ['POST', '/checkins', { platform_id: member, gym_id: ids.gym, product_id: ids.product }],
    ['POST', `/checkins/${ids.checkin}/cancel`],
    ['GET', '/checkins'],
    ['GET', '/transactions'],
    ['GET', '/transactions?format=csv'],
    ['GET', `/custom-codes?platform_id=${member}&gym_id=${ids.gym}`],
    ['GET', '/payouts?from=2026-03-01&to=2026-04-01'],
    ['GET', '/audit'],
  ];
  return routes;
}

function send(t: TestApp, [method, url, body]: Route, authorization?: string) {
  const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
  if (body === undefined) return t.app.inject({ method, url: `/admin/v1${url}`, headers });
  headers['content-type'] = 'application/json';
  return t.app.inject({ method, url: `/admin/v1${url}`, headers, payload: JSON.stringify(body) });
}

const NO_BEARER = errorEnvelope('authorization', 'a bearer token is required');
const WRONG_TOKEN = errorEnvelope('authorization', 'invalid admin token');

describe.each(dialects)('operator API authentication (%s)', (dialect) => {
  const app = op.operatorApp({ dialect });

  async function arrange(t: TestApp) {
    const n = await op.arrangeNetwork(t);
    const checkin = await op.createCheckin(t, n.product);
    const ids = { partner: n.partner.id, gym: n.gym.id, product: n.product.id, key: n.key.id };
    return { n, routes: everyRoute({ ...ids, checkin: checkin.id }) };
  }

  test('when no Authorization header or no bearer token is sent, then every route answers 401 key authorization and writes nothing', async () => {
    const t = app();
    const { routes } = await arrange(t);
    const before = await op.wholeStore(t);

    for (const authorization of [undefined, `Basic ${op.ADMIN_TOKEN}`, 'Bearer', 'Bearer    ']) {
      for (const route of routes) {
        expectReply(await send(t, route, authorization), 401, NO_BEARER);
      }
    }

    expect(await op.wholeStore(t)).toEqual(before);
  });

  test('when the bearer token is wrong (a prefix of it, longer, other case), then every route answers 403 key authorization and writes nothing', async () => {
    const t = app();
    const { routes } = await arrange(t);
    const before = await op.wholeStore(t);

    for (const token of [
      'not-the-admin-token',
      op.ADMIN_TOKEN.slice(0, -1),
      `${op.ADMIN_TOKEN}x`,
      op.ADMIN_TOKEN.toUpperCase(),
    ]) {
      for (const route of routes) {
        expectReply(await send(t, route, `Bearer ${token}`), 403, WRONG_TOKEN);
      }
    }

    expect(await op.wholeStore(t)).toEqual(before);
  });

  test('when a live partner key is presented with its own X-Gym-Id, then every route answers 403 and writes nothing', async () => {
    const t = app();
    const { n, routes } = await arrange(t);
    const before = await op.wholeStore(t);

    for (const route of routes) {
      const [method, url] = route;
      const headers = { ...op.partnerHeaders(n.key.key, n.gym.id), 'content-type': 'application/json' };
      const payload = route[2] === undefined ? undefined : JSON.stringify(route[2]);
      const response = await t.app.inject({ method, url: `/admin/v1${url}`, headers, payload });
      expectReply(response, 403, WRONG_TOKEN);
    }

    expect(await op.wholeStore(t)).toEqual(before);
  });

  test('when the admin token follows a lower-case "bearer" and several spaces, then it is accepted', async () => {
    const t = app();

    const response = await send(t, ['POST', '/partners', { name: 'Spaced' }], `bearer   ${op.ADMIN_TOKEN}  `);

    expect(response.statusCode).toBe(201);
  });

  test('when the admin token is right, then every route of the table succeeds (the refusals above are about the token alone)', async () => {
    const t = app();
    const { routes } = await arrange(t);
    const expected = (method: Route[0], url: string) => {
      if (url.startsWith('/custom-codes')) return 404; // no code yet: the lookup answers, it does not refuse
      if (method === 'DELETE') return 204;
      return method === 'POST' && !url.endsWith('/cancel') ? 201 : 200;
    };

    const statuses: [Route[0], string, number][] = [];
    for (const route of routes) {
      statuses.push([route[0], route[1], (await send(t, route, `Bearer ${op.ADMIN_TOKEN}`)).statusCode]);
    }

    expect(statuses).toEqual(routes.map(([method, url]) => [method, url, expected(method, url)]));
  });
});

describe.each(dialects)('operator API with GATEHOUSE_ADMIN_TOKEN unset (%s)', (dialect) => {
  let t: TestApp;
  const shared = useApp({ dialect });
  beforeAll(async () => {
    t = shared();
  });

  test('when any operator route is called, with or without a token, then it answers 403 saying how to enable the API, and writes nothing', async () => {
    const a = await arrangePartner(t.services);
    const checkin = await t.services.checkins.create({
      platformId: platformId(),
      gymId: a.gym.id,
      productId: a.product.id,
    });
    const ids = { partner: a.partner.id, gym: a.gym.id, product: a.product.id, key: a.keyId };
    const routes = everyRoute({ ...ids, checkin: checkin.id });
    const before = await op.wholeStore(t);
    const disabled = errorEnvelope(
      'authorization',
      'the operator API is disabled: set GATEHOUSE_ADMIN_TOKEN or create an operator (gatehouse operator create) to enable it',
    );

    for (const authorization of [undefined, `Bearer ${op.ADMIN_TOKEN}`, `Bearer ${a.key}`]) {
      for (const route of routes) {
        expectReply(await send(t, route, authorization), 403, disabled);
      }
    }

    expect(await op.wholeStore(t)).toEqual(before);
  });

  test('when the operator API is off, then the partner API still serves its keys', async () => {
    const a = await arrangePartner(t.services);

    const response = await t.app.inject({
      method: 'GET',
      url: '/access/v1/transactions',
      headers: a.headers,
    });

    expectReply(response, 200, {
      metadata: { total: 0, errors: 0 },
      results: [],
      next_cursor: op.A_CURSOR,
      has_more: false,
    });
  });
});
