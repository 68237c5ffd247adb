import type { InjectOptions } from 'fastify';
import { describe, expect, test } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';
import { expectReply } from '../fixtures/partner-api.js';

interface Entry {
  id: number;
  actor: string;
  action: string;
  entity: string;
  entity_id: string;
  at: string;
}

function code(
  t: TestApp,
  method: InjectOptions['method'],
  key: string,
  gymId: number,
  member: string,
  value?: string,
) {
  const headers = {
    ...op.partnerHeaders(key, gymId),
    ...(value === undefined ? {} : { 'content-type': 'application/json' }),
  };
  const payload = value === undefined ? undefined : JSON.stringify({ custom_code: value });
  return t.app.inject({ method, url: `/access/v1/code/${member}`, headers, payload });
}

/** Every audited action, one a second from T0, by the operator and by a partner key. */
async function auditedStory(t: TestApp) {
  const tick = () => t.clock.advance(1000);
  const partner = await op.createPartner(t);
  tick();
  const gym = await op.createGym(t, partner.id);
  tick();
  const product = await op.createProduct(t, gym.id);
  tick();
  const revoked = await op.issueKey(t, partner.id);
  tick();
  const live = await op.issueKey(t, partner.id);
  tick();
  await op.admin(t, 'DELETE', `/keys/${revoked.id}`);
  tick();
  const checkin = await op.createCheckin(t, product);
  tick();
  await op.admin(t, 'POST', `/checkins/${checkin.id}/cancel`);
  await op.admin(t, 'POST', `/checkins/${checkin.id}/cancel`); // idempotent: changes nothing, records nothing
  const member = platformId();
  tick();
  expect((await code(t, 'POST', live.key, gym.id, member, 'CODE-ONE')).statusCode).toBe(201);
  tick();
  expect((await code(t, 'PUT', live.key, gym.id, member, 'CODE-TWO')).statusCode).toBe(200);
  tick();
  expect((await code(t, 'DELETE', live.key, gym.id, member)).statusCode).toBe(204);
  tick();
  const visit = await op.createCheckin(t, product);
  expect((await op.validate(t, live.key, gym.id, visit.platform_id, 'CODE-THREE')).statusCode).toBe(200);
  const entry = (
    id: number,
    actor: string,
    action: string,
    entity: string,
    entityId: unknown,
    second: number,
  ) => ({
    id,
    actor,
    actor_id: null,
    action,
    entity,
    entity_id: String(entityId),
    at: op.at(second * 1000),
  });
  const byKey = `key:${live.prefix}`;
  const expected = [
    entry(1, 'operator', 'create', 'partner', partner.id, 0),
    entry(2, 'operator', 'create', 'gym', gym.id, 1),
    entry(3, 'operator', 'create', 'product', product.id, 2),
    entry(4, 'operator', 'issue', 'key', revoked.id, 3),
    entry(5, 'operator', 'issue', 'key', live.id, 4),
    entry(6, 'operator', 'revoke', 'key', revoked.id, 5),
    entry(7, 'operator', 'create', 'checkin', checkin.id, 6),
    entry(8, 'operator', 'cancel', 'checkin', checkin.id, 7),
    entry(9, byKey, 'create', 'custom-code', `${gym.id}:${member}`, 8),
    entry(10, byKey, 'update', 'custom-code', `${gym.id}:${member}`, 9),
    entry(11, byKey, 'delete', 'custom-code', `${gym.id}:${member}`, 10),
    entry(12, 'operator', 'create', 'checkin', visit.id, 11),
  ];
  return { expected, secrets: [revoked.key, live.key, op.ADMIN_TOKEN, 'CODE-ONE', 'CODE-TWO', 'CODE-THREE'] };
}

const itemsOf = (body: string) => (JSON.parse(body) as { items: Entry[] }).items;

describe.each(dialects)('operator API: GET /admin/v1/audit (%s)', (dialect) => {
  // A fresh store per test: the audit log is global, and these tests read all of it.
  const app = op.operatorApp({ dialect, perTest: true });

  test('when every audited action has happened, then each has one entry naming the operator or key:<prefix>, and the upsert inside validate has none', async () => {
    const t = app();
    const { expected } = await auditedStory(t);

    const response = await op.admin(t, 'GET', '/audit');

    expectReply(response, 200, { items: expected, next_cursor: null });
  });

  test('when a refused validation stores a code, then the audit names the key that stored it, never the code', async () => {
    const t = app();
    const partner = await op.createPartner(t);
    const gym = await op.createGym(t, partner.id);
    const product = await op.createProduct(t, gym.id);
    const key = await op.issueKey(t, partner.id);
    const visit = await op.createCheckin(t, product);
    expect((await op.validate(t, key.key, gym.id, visit.platform_id)).statusCode).toBe(200);
    t.clock.advance(1000);
    const before = itemsOf((await op.admin(t, 'GET', '/audit')).body).length;

    // Already validated: refused, and the code is stored all the same — by this key.
    expect((await op.validate(t, key.key, gym.id, visit.platform_id, 'REFUSED-1')).statusCode).toBe(400);
    t.clock.advance(1000);
    expect((await op.validate(t, key.key, gym.id, visit.platform_id, 'REFUSED-2')).statusCode).toBe(400);

    const entries = itemsOf((await op.admin(t, 'GET', '/audit')).body).slice(before);
    const entity_id = `${gym.id}:${visit.platform_id}`;
    expect(entries).toEqual([
      {
        id: before + 1,
        actor: `key:${key.prefix}`,
        actor_id: null,
        action: 'create',
        entity: 'custom-code',
        entity_id,
        at: op.at(1000),
      },
      {
        id: before + 2,
        actor: `key:${key.prefix}`,
        actor_id: null,
        action: 'update',
        entity: 'custom-code',
        entity_id,
        at: op.at(2000),
      },
    ]);
    expect(JSON.stringify(entries)).not.toMatch(/REFUSED/);
  });

  test('when the audit log is read, in the API or in the store, then no key secret, admin token or code value appears', async () => {
    const t = app();
    const { secrets } = await auditedStory(t);

    const listed = (await op.admin(t, 'GET', '/audit')).body;
    const stored = JSON.stringify(await t.store.db.selectFrom('audit_log').selectAll().execute());

    for (const secret of secrets) {
      expect(listed).not.toContain(secret);
      expect(stored).not.toContain(secret);
    }
  });

  test('when filtered by from (inclusive), to (exclusive) and entity, then only the matching entries come', async () => {
    const t = app();
    const { expected } = await auditedStory(t);

    const period = await op.admin(t, 'GET', `/audit?from=${op.at(3000)}&to=${op.at(6000)}`);
    const keys = await op.admin(t, 'GET', '/audit?entity=key');
    const codes = await op.admin(t, 'GET', `/audit?entity=custom-code&from=${op.at(9000)}`);
    const none = await op.admin(t, 'GET', '/audit?from=2026-03-03');

    expect(itemsOf(period.body)).toEqual(expected.slice(3, 6));
    expect(itemsOf(keys.body)).toEqual(expected.slice(3, 6));
    expect(itemsOf(codes.body)).toEqual(expected.slice(9, 11));
    expectReply(none, 200, { items: [], next_cursor: null });
  });

  test('when listed with limit=5, then next_cursor leads through every entry', async () => {
    const t = app();
    const { expected } = await auditedStory(t);
    const seen: Entry[] = [];

    let cursor: string | null = '';
    while (cursor !== null) {
      const response = await op.admin(t, 'GET', `/audit?limit=5${cursor === '' ? '' : `&cursor=${cursor}`}`);
      const page = JSON.parse(response.body) as { items: Entry[]; next_cursor: string | null };
      seen.push(...page.items);
      cursor = page.next_cursor;
    }

    expect(seen).toEqual(expected);
  });

  test('when listed newest first with limit=4, then next_cursor leads back through every entry, and an oldest-first cursor is refused there', async () => {
    const t = app();
    const { expected } = await auditedStory(t);
    const seen: Entry[] = [];

    let cursor: string | null = '';
    while (cursor !== null) {
      const response = await op.admin(
        t,
        'GET',
        `/audit?order=desc&limit=4${cursor === '' ? '' : `&cursor=${cursor}`}`,
      );
      const page = JSON.parse(response.body) as { items: Entry[]; next_cursor: string | null };
      seen.push(...page.items);
      cursor = page.next_cursor;
    }
    const ascending = JSON.parse((await op.admin(t, 'GET', '/audit?limit=2')).body) as {
      next_cursor: string;
    };
    const mixed = await op.admin(t, 'GET', `/audit?order=desc&cursor=${ascending.next_cursor}`);

    expect(seen).toEqual([...expected].reverse());
    expectReply(mixed, 400, errorEnvelope('cursor', 'is not a cursor this API returned'));
  });

  test("when filtered by actor_id, then only that operator's entries come, newest first if asked", async () => {
    const t = app();
    await op.createPartner(t);
    const made = JSON.parse(
      (await op.admin(t, 'POST', '/operators', { name: 'cleo', role: 'support' })).body,
    ) as { id: number; token: string };
    const partnerByCleo = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/partners',
      headers: { authorization: `Bearer ${made.token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'By Cleo' }),
    });
    expect(partnerByCleo.statusCode).toBe(201);
    const partnerId = (JSON.parse(partnerByCleo.body) as { id: number }).id;

    const mine = await op.admin(t, 'GET', `/audit?actor_id=${made.id}&order=desc`);
    const nobody = await op.admin(t, 'GET', `/audit?actor_id=${made.id + 100}`);

    expectReply(mine, 200, {
      items: [
        {
          id: expect.any(Number) as number,
          actor: 'operator:cleo',
          actor_id: made.id,
          action: 'create',
          entity: 'partner',
          entity_id: String(partnerId),
          at: expect.any(String) as string,
        },
      ],
      next_cursor: null,
    });
    expectReply(nobody, 200, { items: [], next_cursor: null });
  });

  test.each([
    ['order=newest', 'order', 'must be one of asc, desc'],
    ['actor_id=0', 'actor_id', 'must be a positive integer'],
    [
      'entity=secret',
      'entity',
      'must be one of partner, gym, product, key, checkin, custom-code, operator, member, webhook, transaction, settlement, plan, payout-rules',
    ],
    ['from=soon', 'from', 'must be an ISO-8601 date or date-time'],
    ['to=2026-04-31', 'to', 'must be an ISO-8601 date or date-time'],
    ['limit=1001', 'limit', 'must be an integer from 1 to 1000'],
    ['cursor=YWZ0ZXI6', 'cursor', 'is not a cursor this API returned'],
  ])('when the audit log is read with %s, then 400 key %s', async (query, key, message) => {
    expectReply(await op.admin(app(), 'GET', `/audit?${query}`), 400, errorEnvelope(key, message));
  });
});
