import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { PG_TEST_URL, pgAvailable } from '../../fixtures/postgres.js';
import { gatehouse, useTempDir } from '../../fixtures/processes/cli.js';

const tempDir = useTempDir();

/** Operator commands that read or write: none of them may bring a database into being. */
const OPERATOR_COMMANDS = [
  'partner list',
  'partner create Acme',
  'gym list',
  'key list --partner 1',
  'transactions',
  'demo',
] as const;

describe.concurrent('an operator command on a SQLite file that does not exist', () => {
  test.for(OPERATOR_COMMANDS)(
    'when `gatehouse %s` names a missing file, then it stops with one line and creates neither file nor directory',
    async (command, { expect }) => {
      const dir = join(tempDir(), `missing-${randomBytes(4).toString('hex')}`);
      const path = join(dir, 'gatehouse.db');

      const result = await gatehouse(command.split(' '), { GATEHOUSE_DATABASE_URL: `sqlite:${path}` });

      expect(result).toEqual({
        code: 1,
        stdout: '',
        stderr: `gatehouse: no database at ${path}: run 'gatehouse migrate' to create it, or fix GATEHOUSE_DATABASE_URL\n`,
      });
      expect(existsSync(dir)).toBe(false);
    },
  );

  test('when `gatehouse migrate` names a missing file, then it creates it (migrate and serve are the ones that may)', async () => {
    const path = join(tempDir(), `created-${randomBytes(4).toString('hex')}`, 'gatehouse.db');

    const result = await gatehouse(['migrate'], { GATEHOUSE_DATABASE_URL: `sqlite:${path}` });

    expect(result).toEqual({ code: 0, stdout: `migrations applied to sqlite:${path}\n`, stderr: '' });
    expect(existsSync(path)).toBe(true);
  });
});

/** PG_TEST_URL with another database, or another user. */
function pgUrl(change: { database?: string; user?: string; password?: string }): string {
  const url = new URL(PG_TEST_URL);
  if (change.database !== undefined) url.pathname = `/${change.database}`;
  if (change.user !== undefined) url.username = change.user;
  if (change.password !== undefined) url.password = change.password;
  return url.toString();
}

describe
  .skipIf(!pgAvailable)
  .concurrent('PostgreSQL that refuses: every command stops at once with one line', () => {
    const missingDatabase = `gatehouse_missing_${randomBytes(4).toString('hex')}`;
    const unknownUser = `gatehouse_nobody_${randomBytes(4).toString('hex')}`;
    const CASES = [
      {
        name: 'a database that does not exist',
        url: pgUrl({ database: missingDatabase }),
        stderr: `gatehouse: cannot use ${pgUrl({ database: missingDatabase })}: database "${missingDatabase}" does not exist (create the database or fix GATEHOUSE_DATABASE_URL)\n`,
      },
      {
        name: 'a login it refuses',
        url: pgUrl({ user: unknownUser, password: 'not-this-one' }),
        stderr: `gatehouse: cannot use ${pgUrl({ user: unknownUser, password: '***' })}: role "${unknownUser}" does not exist (fix the user or password in GATEHOUSE_DATABASE_URL)\n`,
      },
    ];

    test.for(
      CASES.flatMap((c) => ['serve', 'migrate', 'partner list'].map((command) => ({ ...c, command }))),
    )(
      'when `gatehouse $command` is given $name, then it exits 1 with one line and no retry',
      async ({ url, stderr, command }, { expect }) => {
        const result = await gatehouse(command.split(' '), {
          GATEHOUSE_DATABASE_URL: url,
          GATEHOUSE_PORT: '0',
        });

        expect(result).toEqual({ code: 1, stdout: '', stderr });
      },
    );
  });

describe.concurrent('a malformed PostgreSQL URL', () => {
  test.for(['serve', 'migrate', 'partner list'])(
    'when `gatehouse %s` is given a URL the driver cannot parse, then it exits 1 naming the variable, without the password',
    async (command, { expect }) => {
      const result = await gatehouse(command.split(' '), {
        GATEHOUSE_DATABASE_URL: 'postgres://app:hunter2@db.internal:port/gatehouse',
        GATEHOUSE_PORT: '0',
      });

      expect(result).toEqual({
        code: 1,
        stdout: '',
        stderr:
          'gatehouse: GATEHOUSE_DATABASE_URL="postgres://app:***@db.internal:port/gatehouse" is not valid: ' +
          'use sqlite:<path>, sqlite::memory: or postgres://<user>@<host>:<port>/<database>\n',
      });
    },
  );
});
