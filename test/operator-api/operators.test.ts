import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { ConfigError } from '../../src/config/errors.js';
import { platformId } from '../fixtures/factories.js';
import { build, dialects, type TestApp } from '../fixtures/test-app.js';
import { TestClock } from '../fixtures/test-clock.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';
import { expectReply } from '../fixtures/partner-api.js';
import * as op from '../fixtures/operator-api.js';

const TOKEN = /^gho_[0-9a-f]{8}_[0-9a-f]{40}$/;
const WRONG_TOKEN = errorEnvelope('authorization', 'invalid admin token');
const DAY_MS = 86_400_000;

interface Issued {
  id: number;
  name: string;
  role: string;
  token: string;
  expires_at: string | null;
  created_at: string;
}

async function createOperator(t: TestApp, body: Record<string, unknown>, headers = op.ADMIN) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/admin/v1/operators',
    headers: { ...headers, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  expect(response.statusCode, response.body).toBe(201);
  return JSON.parse(response.body) as Issued;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function as(t: TestApp, token: string, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) {
  return t.app.inject({
    method,
    url: `/admin/v1${url}`,
    headers: {
      ...bearer(token),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}

async function auditRows(t: TestApp) {
  return t.store.db
    .selectFrom('audit_log')
    .select(['actor', 'action', 'entity', 'entity_id'])
    .orderBy('id')
    .execute();
}

describe.each(dialects)('operator identities (%s)', (dialect) => {
  const app = op.operatorApp({ dialect, perTest: true });

  test('when the admin creates an operator, then 201 shows its token once, the store keeps only its hash, and the audit log records the issue', async () => {
    const t = app();

    const response = await op.admin(t, 'POST', '/operators', { name: 'ana@example.com', role: 'support' });

    const body = JSON.parse(response.body) as Issued;
    expect(body.token).toMatch(TOKEN);
    expectReply(response, 201, {
      id: body.id,
      name: 'ana@example.com',
      role: 'support',
      token: body.token,
      expires_at: null,
      created_at: op.T0,
    });
    const rows = await t.store.db.selectFrom('operators').selectAll().execute();
    expect(rows).toEqual([
      {
        id: body.id,
        name: 'ana@example.com',
        role: 'support',
        prefix: body.token.slice(0, 12),
        token_hash: createHash('sha256').update(body.token).digest('hex'),
        expires_at: null,
        revoked_at: null,
        created_by: 'operator',
        created_at: op.T0_MS,
      },
    ]);
    expect(await auditRows(t)).toEqual([
      { actor: 'operator', action: 'issue', entity: 'operator', entity_id: String(body.id) },
    ]);
  });

  test('when operators are listed, then every field but the token is shown', async () => {
    const t = app();
    const ana = await createOperator(t, { name: 'ana', role: 'finance', expires_at: '2026-06-01' });

    expectReply(await op.admin(t, 'GET', '/operators'), 200, {
      items: [
        {
          id: ana.id,
          name: 'ana',
          role: 'finance',
          prefix: ana.token.slice(0, 12),
          expires_at: '2026-06-01T00:00:00.000Z',
          revoked_at: null,
          created_by: 'operator',
          created_at: op.T0,
        },
      ],
      next_cursor: null,
    });
  });

  test('when each role asks who it is, then /me names it with exactly its permissions, and asking writes nothing', async () => {
    const t = app();
    expectReply(await op.admin(t, 'GET', '/me'), 200, {
      name: null,
      role: 'admin',
      permissions: [
        'self',
        'read',
        'read-secret',
        'catalog',
        'keys',
        'checkins',
        'money',
        'webhooks',
        'members',
        'operators',
      ],
      expires_at: null,
      timezone: 'UTC',
    });
    const expected: Record<string, string[]> = {
      finance: ['self', 'read', 'read-secret', 'money'],
      support: ['self', 'read', 'read-secret', 'catalog', 'keys', 'checkins', 'webhooks', 'members'],
      'member-app': ['self', 'read-secret', 'checkins'],
      readonly: ['self', 'read'],
    };
    for (const [role, permissions] of Object.entries(expected)) {
      const issued = await createOperator(t, { name: `who-${role}`, role, expires_at: '2027-01-01' });
      expectReply(await as(t, issued.token, 'GET', '/me'), 200, {
        name: `who-${role}`,
        role,
        permissions,
        expires_at: '2027-01-01T00:00:00.000Z',
        timezone: 'UTC',
      });
    }
    const before = await op.wholeStore(t);
    await as(t, 'gho_00000000_0000000000000000000000000000000000000000', 'GET', '/me').then((response) =>
      expectReply(response, 403, WRONG_TOKEN),
    );
    expect(await op.wholeStore(t)).toEqual(before);
  });

  test('when a named operator acts, then the audit log names it operator:<name>', async () => {
    const t = app();
    const ana = await createOperator(t, { name: 'ana', role: 'support' });

    const created = await as(t, ana.token, 'POST', '/partners', { name: 'Acme' });

    expect(created.statusCode).toBe(201);
    const partnerId = String((JSON.parse(created.body) as { id: number }).id);
    expect((await auditRows(t)).at(-1)).toEqual({
      actor: 'operator:ana',
      action: 'create',
      entity: 'partner',
      entity_id: partnerId,
    });
  });

  test("when a revoked operator's name is given to a new one, then the audit log tells the two apart by id, each with its name at the time", async () => {
    const t = app();
    const oldAna = await createOperator(t, { name: 'ana', role: 'support' });
    const first = await as(t, oldAna.token, 'POST', '/partners', { name: 'Old Ana Gym' });
    expect((await op.admin(t, 'DELETE', `/operators/${oldAna.id}`)).statusCode).toBe(204);
    const newAna = await createOperator(t, { name: 'ana', role: 'admin' });

    const second = await as(t, newAna.token, 'POST', '/partners', { name: 'New Ana Gym' });

    const ids = [first, second].map((response) => String(response.json<{ id: number }>().id));
    expect(newAna.id).not.toBe(oldAna.id);
    const audit = await op.admin(t, 'GET', '/audit?entity=partner');
    const entries = audit.json<{ items: Record<string, unknown>[] }>().items.slice(-2);
    expect(entries.map(({ actor, actor_id, entity_id }) => ({ actor, actor_id, entity_id }))).toEqual([
      { actor: 'operator:ana', actor_id: oldAna.id, entity_id: ids[0] },
      { actor: 'operator:ana', actor_id: newAna.id, entity_id: ids[1] },
    ]);
    const rows = await t.store.db
      .selectFrom('audit_log')
      .select(['actor', 'actor_id'])
      .where('entity', '=', 'operator')
      .orderBy('id')
      .execute();
    expect(rows.slice(-3)).toEqual([
      { actor: 'operator', actor_id: null },
      { actor: 'operator', actor_id: null },
      { actor: 'operator', actor_id: null },
    ]);
  });

  test("when the member app looks a member's code up, then the audit log records who read it", async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const member = platformId();
    await t.services.customCodes.create({ gymId: n.gym.id, platformId: member }, '4321');
    const memberApp = await createOperator(t, { name: 'member-app', role: 'member-app' });

    const response = await as(
      t,
      memberApp.token,
      'GET',
      `/custom-codes?platform_id=${member}&gym_id=${n.gym.id}`,
    );

    expectReply(response, 200, {
      platform_id: member,
      gym_id: n.gym.id,
      custom_code: '4321',
      updated_at: op.T0,
    });
    expect((await auditRows(t)).at(-1)).toEqual({
      actor: 'operator:member-app',
      action: 'read',
      entity: 'custom-code',
      entity_id: `${n.gym.id}:${member}`,
    });
  });

  test('when an operator is revoked, then 204, its next request is refused, and the audit log names who revoked it', async () => {
    const t = app();
    const ana = await createOperator(t, { name: 'ana', role: 'readonly' });
    expect((await as(t, ana.token, 'GET', '/partners')).statusCode).toBe(200);

    const revoked = await op.admin(t, 'DELETE', `/operators/${ana.id}`);

    expect(revoked.statusCode).toBe(204);
    expect(revoked.body).toBe('');
    expectReply(await as(t, ana.token, 'GET', '/partners'), 403, WRONG_TOKEN);
    const row = await t.store.db.selectFrom('operators').select('revoked_at').executeTakeFirstOrThrow();
    expect(row.revoked_at).toBe(op.T0_MS);
    expect((await auditRows(t)).at(-1)).toEqual({
      actor: 'operator',
      action: 'revoke',
      entity: 'operator',
      entity_id: String(ana.id),
    });
  });

  test('when an unknown operator is revoked, then 404 operator.not-found and nothing is written', async () => {
    const t = app();

    await op.expectAdminNoWrite(
      t,
      'DELETE',
      '/operators/999',
      404,
      errorEnvelope('operator.not-found', 'operator not found'),
    );
  });

  test('when an operator token reaches its expiry, then it is refused from that instant on', async () => {
    const t = app();
    const ana = await createOperator(t, {
      name: 'ana',
      role: 'readonly',
      expires_at: '2026-03-02T13:00:00Z',
    });
    t.clock.set('2026-03-02T12:59:59.999Z');
    expect((await as(t, ana.token, 'GET', '/partners')).statusCode).toBe(200);

    t.clock.set('2026-03-02T13:00:00.000Z');

    expectReply(await as(t, ana.token, 'GET', '/partners'), 403, WRONG_TOKEN);
  });

  test('when an admin operator with an expiry issues operators, then none outlives it, and one without an expiry inherits it', async () => {
    const t = app();
    const boss = await createOperator(t, { name: 'boss', role: 'admin', expires_at: '2026-04-01' });

    const later = await as(t, boss.token, 'POST', '/operators', {
      name: 'ana',
      role: 'support',
      expires_at: '2026-05-01',
    });
    const inherited = await createOperator(t, { name: 'bob', role: 'support' }, bearer(boss.token));

    expectReply(
      later,
      400,
      errorEnvelope('expires_at', 'must not be later than the expiry of the token that issues it'),
    );
    expect(inherited.expires_at).toBe('2026-04-01T00:00:00.000Z');
    const rows = await t.store.db
      .selectFrom('operators')
      .select(['name', 'created_by'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { name: 'boss', created_by: 'operator' },
      { name: 'bob', created_by: 'operator:boss' },
    ]);
  });

  const NAME_PATTERN = 'must be 1 to 64 letters, digits or . _ @ + -, starting with a letter or digit';
  test.each([
    [{ name: 'ana', role: 'root' }, 'role', 'must be one of admin, finance, support, member-app, readonly'],
    [{ name: 'ana smith', role: 'support' }, 'name', NAME_PATTERN],
    [{ name: '', role: 'support' }, 'name', NAME_PATTERN],
    [{ role: 'support' }, 'name', 'is required'],
    [{ name: 'ana', role: 'support', expires_at: '2026-03-01' }, 'expires_at', 'must be in the future'],
    [
      { name: 'ana', role: 'support', expires_at: 'soon' },
      'expires_at',
      'must be an ISO-8601 date or date-time',
    ],
  ])(
    'when an operator is created with %j, then 400 key %s and nothing is written',
    async (body, key, message) => {
      const t = app();
      const before = await op.wholeStore(t);

      expectReply(await op.admin(t, 'POST', '/operators', body), 400, errorEnvelope(key, message));

      expect(await op.wholeStore(t)).toEqual(before);
      expect(await t.store.db.selectFrom('operators').selectAll().execute()).toEqual([]);
    },
  );

  test('when a live operator already has the name, then 409; once it is revoked, the name is free again', async () => {
    const t = app();
    const first = await createOperator(t, { name: 'ana', role: 'support' });

    expectReply(
      await op.admin(t, 'POST', '/operators', { name: 'ana', role: 'readonly' }),
      409,
      errorEnvelope('operator.already-exists', 'an operator with this name exists: revoke it first'),
    );
    await op.admin(t, 'DELETE', `/operators/${first.id}`);
    const second = await createOperator(t, { name: 'ana', role: 'readonly' });

    expect(second.id).not.toBe(first.id);
  });

  test('when an operator list is paged, then the cursor continues it', async () => {
    const t = app();
    for (const name of ['a1', 'a2', 'a3']) await createOperator(t, { name, role: 'readonly' });

    const first = JSON.parse((await op.admin(t, 'GET', '/operators?limit=2')).body) as {
      items: { name: string }[];
      next_cursor: string;
    };
    const second = JSON.parse(
      (await op.admin(t, 'GET', `/operators?limit=2&cursor=${first.next_cursor}`)).body,
    ) as {
      items: { name: string }[];
      next_cursor: string | null;
    };

    expect(first.next_cursor).toEqual(op.A_CURSOR);
    expect([...first.items, ...second.items].map((item) => item.name)).toEqual(['a1', 'a2', 'a3']);
    expect(second.next_cursor).toBeNull();
  });
});

describe.each(dialects)('bootstrap admin tokens and the API switch (%s)', (dialect) => {
  test('when GATEHOUSE_ADMIN_TOKEN lists two tokens, then both are admins at once (rotation), and a third is refused', async () => {
    const old = 'old-admin-token-0123456789';
    const next = 'new-admin-token-9876543210';
    const t = await build({
      dialect,
      env: { GATEHOUSE_ADMIN_TOKEN: `${old}, ${next}`, GATEHOUSE_AUTH_FAILURE_LIMIT_PER_MINUTE: '0' },
    });

    expect((await as(t, old, 'POST', '/partners', { name: 'By old' })).statusCode).toBe(201);
    expect((await as(t, next, 'POST', '/partners', { name: 'By new' })).statusCode).toBe(201);
    expectReply(await as(t, 'third-admin-token-000000', 'GET', '/partners'), 403, WRONG_TOKEN);
    expect((await auditRows(t)).map((row) => row.actor)).toEqual(['operator', 'operator']);
  });

  test('when GATEHOUSE_ADMIN_TOKEN is unset but an operator exists, then the API is on for that operator only', async () => {
    const t = await build({ dialect, clock: new TestClock(op.T0_MS) });
    const issued = await t.services.operators.create({ name: 'ana', role: 'admin' });

    expect((await as(t, issued.token, 'GET', '/operators')).statusCode).toBe(200);
    expectReply(await as(t, 'operator-secret-0123456789', 'GET', '/operators'), 403, WRONG_TOKEN);
    await t.services.operators.revoke(issued.operator.id);
    expectReply(
      await as(t, issued.token, 'GET', '/operators'),
      403,
      errorEnvelope(
        'authorization',
        'the operator API is disabled: set GATEHOUSE_ADMIN_TOKEN or create an operator (gatehouse operator create) to enable it',
      ),
    );
  });

  test('when an operator token expires and none other is live, then the API is off again', async () => {
    const clock = new TestClock(op.T0_MS);
    const t = await build({ dialect, clock });
    const issued = await t.services.operators.create({
      name: 'ana',
      role: 'admin',
      expiresAt: op.T0_MS + DAY_MS,
    });

    clock.advance(DAY_MS);

    expect((await as(t, issued.token, 'GET', '/operators')).statusCode).toBe(403);
    expect(JSON.parse((await as(t, issued.token, 'GET', '/operators')).body)).toEqual(
      errorEnvelope(
        'authorization',
        'the operator API is disabled: set GATEHOUSE_ADMIN_TOKEN or create an operator (gatehouse operator create) to enable it',
      ),
    );
  });

  test('when GATEHOUSE_ADMIN_TOKEN lists a token shorter than 16 characters, then the configuration is refused without echoing it', () => {
    const load = () => loadConfig({ GATEHOUSE_ADMIN_TOKEN: 'long-enough-token-000,short' });

    expect(load).toThrow(ConfigError);
    expect(load).toThrow(
      'GATEHOUSE_ADMIN_TOKEN is not valid: each comma-separated token must be at least 16 characters',
    );
  });
});

describe.each(dialects)('failed operator authentication, limited per client address (%s)', (dialect) => {
  const TOKEN_OK = 'operator-secret-0123456789';
  const RATE_LIMITED = errorEnvelope('rate.limited', 'too many requests');

  function read(app: TestApp, token: string, remoteAddress = '127.0.0.1') {
    return app.app.inject({
      method: 'GET',
      url: '/admin/v1/partners',
      headers: bearer(token),
      remoteAddress,
    });
  }

  test('when an address has had 3 tokens refused and its limit is 3 a minute, then its next request gets 429 even with the right token; another address is served', async () => {
    const t = await build({
      dialect,
      env: { GATEHOUSE_ADMIN_TOKEN: TOKEN_OK, GATEHOUSE_AUTH_FAILURE_LIMIT_PER_MINUTE: '3' },
    });
    for (let i = 0; i < 3; i += 1)
      expectReply(await read(t, `wrong-token-${i}-0000000000`), 403, WRONG_TOKEN);

    const limited = await read(t, TOKEN_OK);
    const other = await read(t, TOKEN_OK, '10.11.12.13');

    expectReply(limited, 429, RATE_LIMITED);
    expect(limited.headers['retry-after']).toBe('60');
    expect(other.statusCode).toBe(200);
  });

  test('when 300 wrong tokens are tried in a row, then at most the limit are even looked at: the rest answer 429', async () => {
    const t = await build({
      dialect,
      env: { GATEHOUSE_ADMIN_TOKEN: TOKEN_OK, GATEHOUSE_AUTH_FAILURE_LIMIT_PER_MINUTE: '60' },
    });

    const statuses = new Map<number, number>();
    for (let i = 0; i < 300; i += 1) {
      const status = (await read(t, `gho_0000000${i % 10}_${'0'.repeat(40)}`)).statusCode;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }

    expect(Object.fromEntries(statuses)).toEqual({ 403: 60, 429: 240 });
  });

  test('when a request has no token at all, then 401 and it does not count as a refused token', async () => {
    const t = await build({
      dialect,
      env: { GATEHOUSE_ADMIN_TOKEN: TOKEN_OK, GATEHOUSE_AUTH_FAILURE_LIMIT_PER_MINUTE: '1' },
    });
    for (let i = 0; i < 5; i += 1) {
      const response = await t.app.inject({ method: 'GET', url: '/admin/v1/partners' });
      expectReply(response, 401, errorEnvelope('authorization', 'a bearer token is required'));
    }

    expect((await read(t, TOKEN_OK)).statusCode).toBe(200);
  });
});
