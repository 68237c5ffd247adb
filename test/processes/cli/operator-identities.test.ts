import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  AN_ISO_MILLIS,
  cliOn,
  expectSuccess,
  jsonOf,
  openStore,
  useTempDir,
} from '../../fixtures/processes/cli.js';

const TOKEN: unknown = expect.stringMatching(/^gho_[0-9a-f]{8}_[0-9a-f]{40}$/);

describe('gatehouse operator create|list|revoke and member erase, on a SQLite file', () => {
  const dir = useTempDir();

  test('when an operator is created, listed and revoked, then the token is printed once, never listed, and the revocation is stored and audited', async () => {
    const url = `sqlite:${join(dir(), 'operators.db')}`;
    const cli = cliOn(url);
    expectSuccess(await cli(['migrate']));

    const created = jsonOf<Record<string, unknown>>(
      expectSuccess(
        await cli(['operator', 'create', '--name', 'ana', '--role', 'finance', '--format', 'json']),
      ),
    );
    const listed = jsonOf<Record<string, unknown>[]>(
      expectSuccess(await cli(['operator', 'list', '--format', 'json'])),
    );
    const revoked = await cli(['operator', 'revoke', String(created.id)]);

    expect(created).toEqual({
      id: 1,
      name: 'ana',
      role: 'finance',
      prefix: expect.stringMatching(/^gho_[0-9a-f]{8}$/) as unknown,
      expires_at: null,
      revoked_at: null,
      created_by: 'operator',
      created_at: AN_ISO_MILLIS,
      token: TOKEN,
    });
    expect(listed).toEqual([
      Object.fromEntries(Object.entries(created).filter(([field]) => field !== 'token')),
    ]);
    expect(revoked).toEqual({ code: 0, stdout: 'operator 1 revoked\n', stderr: '' });
    const store = openStore(url);
    try {
      const row = await store.db.selectFrom('operators').select(['revoked_at']).executeTakeFirstOrThrow();
      expect(row.revoked_at).toEqual(expect.any(Number));
      const audit = await store.db
        .selectFrom('audit_log')
        .select(['actor', 'action', 'entity', 'entity_id'])
        .execute();
      expect(audit).toEqual([
        { actor: 'operator', action: 'issue', entity: 'operator', entity_id: '1' },
        { actor: 'operator', action: 'revoke', entity: 'operator', entity_id: '1' },
      ]);
    } finally {
      await store.close();
    }
  });

  test('when the role, the name, the operator or the member is wrong, then exit 1 with one line saying what, and nothing is written', async () => {
    const url = `sqlite:${join(dir(), 'refusals.db')}`;
    const cli = cliOn(url);
    expectSuccess(await cli(['migrate']));

    expect(await cli(['operator', 'create', '--name', 'ana', '--role', 'root'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        "error: option '--role <role>' argument 'root' is invalid. must be one of admin, finance, support, member-app, readonly\nRun 'gatehouse operator create --help' for its usage.\n",
    });
    expect(await cli(['operator', 'create', '--name', 'ana smith', '--role', 'support'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'gatehouse: must be 1 to 64 letters, digits or . _ @ + -, starting with a letter or digit (name)\n',
    });
    expect(await cli(['operator', 'revoke', '7'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'gatehouse: operator not found (operator.not-found)\n',
    });
    expect(await cli(['member', 'erase', '12345'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        "error: command-argument value '12345' is invalid for argument 'platform-id'. must be 13 digits\nRun 'gatehouse member erase --help' for its usage.\n",
    });
    const store = openStore(url);
    try {
      expect(await store.db.selectFrom('operators').selectAll().execute()).toEqual([]);
      expect(await store.db.selectFrom('audit_log').selectAll().execute()).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
