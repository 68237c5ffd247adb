import { describe, expect, test } from 'vitest';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';
import { expectReply } from '../fixtures/partner-api.js';
import * as op from '../fixtures/operator-api.js';

/** A request's URL (under /admin/v1) and JSON body. */
type Asked = [url: string, body: unknown];

interface Issued {
  id: number;
  name: string;
  token: string;
}

async function createOperator(t: TestApp, name: string, role: string): Promise<Issued> {
  const response = await op.admin(t, 'POST', '/operators', { name, role });
  expect(response.statusCode, response.body).toBe(201);
  return JSON.parse(response.body) as Issued;
}

function as(t: TestApp, token: string, method: 'GET' | 'PATCH', url: string, body?: unknown) {
  return t.app.inject({
    method,
    url: `/admin/v1${url}`,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}

/** The stored operators and the audit's lines about operators: what a refused change must leave as it was. */
async function operatorState(t: TestApp) {
  return {
    operators: await t.store.db.selectFrom('operators').selectAll().orderBy('id').execute(),
    audit: await t.store.db
      .selectFrom('audit_log')
      .select(['actor', 'action', 'entity_id'])
      .where('entity', '=', 'operator')
      .orderBy('id')
      .execute(),
  };
}

describe.each(dialects)("operator API: PATCH /admin/v1/operators/:id, an operator's role (%s)", (dialect) => {
  const app = op.operatorApp({ dialect, perTest: true });

  test('when an admin gives an operator another role, then 200 with the operator as it now is, the audit names the change, and its token has the new rights at its next request', async () => {
    const t = app();
    const ana = await createOperator(t, 'ana', 'readonly');
    const boss = await createOperator(t, 'boss', 'admin');
    expect((await as(t, ana.token, 'GET', '/settlements?limit=1')).statusCode).toBe(200);
    expect((await as(t, ana.token, 'PATCH', `/operators/${boss.id}`, { role: 'admin' })).statusCode).toBe(
      403,
    );

    const response = await as(t, boss.token, 'PATCH', `/operators/${ana.id}`, { role: 'finance' });

    const stored = await t.store.db
      .selectFrom('operators')
      .selectAll()
      .where('id', '=', ana.id)
      .executeTakeFirstOrThrow();
    expectReply(response, 200, {
      id: ana.id,
      name: 'ana',
      role: 'finance',
      prefix: stored.prefix,
      expires_at: null,
      revoked_at: null,
      created_by: 'operator',
      created_at: '2026-03-02T12:00:00.000Z',
    });
    expect(stored.role).toBe('finance');
    const me = await as(t, ana.token, 'GET', '/me');
    expect((JSON.parse(me.body) as { role: string }).role).toBe('finance');
    const audit = await t.store.db
      .selectFrom('audit_log')
      .select(['actor', 'actor_id', 'action', 'entity', 'entity_id'])
      .where('entity', '=', 'operator')
      .orderBy('id', 'desc')
      .limit(1)
      .execute();
    expect(audit).toEqual([
      {
        actor: 'operator:boss',
        actor_id: boss.id,
        action: 'update',
        entity: 'operator',
        entity_id: String(ana.id),
      },
    ]);
  });

  test('when the operator already holds the role, then 200 and nothing is written', async () => {
    const t = app();
    const ana = await createOperator(t, 'ana', 'support');
    const before = await operatorState(t);

    const response = await op.admin(t, 'PATCH', `/operators/${ana.id}`, { role: 'support' });

    expect(response.statusCode, response.body).toBe(200);
    expect((JSON.parse(response.body) as { role: string }).role).toBe('support');
    expect(await operatorState(t)).toEqual(before);
  });

  test.each([
    [
      'an unknown role',
      (id: number): Asked => [`/operators/${id}`, { role: 'owner' }],
      400,
      'role',
      'must be one of admin, finance, support, member-app, readonly',
    ],
    ['no role', (id: number): Asked => [`/operators/${id}`, {}], 400, 'role', 'is required'],
    [
      'an id of no operator',
      (): Asked => ['/operators/999999', { role: 'finance' }],
      404,
      'operator.not-found',
      'operator not found',
    ],
    [
      'an id that is not one',
      (): Asked => ['/operators/abc', { role: 'finance' }],
      400,
      'operator_id',
      'must be a positive integer',
    ],
  ])(
    'when asked with %s, then the error in the envelope and nothing changes',
    async (_, request, status, key, message) => {
      const t = app();
      const ana = await createOperator(t, 'ana', 'support');
      const before = await operatorState(t);
      const [url, body] = request(ana.id);

      const response = await op.admin(t, 'PATCH', url, body);

      expectReply(response, status, errorEnvelope(key, message));
      expect(await operatorState(t)).toEqual(before);
    },
  );

  test('when the operator is disabled, or is the caller itself, then 409 with its key and nothing changes', async () => {
    const t = app();
    const gone = await createOperator(t, 'gone', 'support');
    const boss = await createOperator(t, 'boss', 'admin');
    expect((await op.admin(t, 'DELETE', `/operators/${gone.id}`)).statusCode).toBe(204);
    const before = await operatorState(t);

    const disabled = await op.admin(t, 'PATCH', `/operators/${gone.id}`, { role: 'finance' });
    const itself = await as(t, boss.token, 'PATCH', `/operators/${boss.id}`, { role: 'readonly' });

    expectReply(
      disabled,
      409,
      errorEnvelope('operator.revoked', 'a disabled operator keeps its role: create the operator again'),
    );
    expectReply(itself, 409, errorEnvelope('operator.self', 'an operator may not change its own role'));
    expect(await operatorState(t)).toEqual(before);
  });
});
