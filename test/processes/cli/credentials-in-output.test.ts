import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, test } from 'vitest';
import { expectNoLeaks } from '../../fixtures/fault-app.js';
import { createPgSchema, pgAvailable, PG_TEST_URL } from '../../fixtures/postgres.js';
import { useServeProcesses } from '../../fixtures/processes/serve-process.js';
import { gatehouse, type CliResult } from '../../fixtures/processes/cli.js';

/** A password nobody else would write, so a hit in the output can only be a leak. */
const password = () => `pw${randomBytes(8).toString('hex')}`;

/** The URL with the password in its userinfo; the PostgreSQL under test trusts loopback, so it still connects. */
function withPassword(url: string, secret: string): string {
  const parsed = new URL(url);
  parsed.password = secret;
  return parsed.href;
}

/** A loopback port nothing listens on. */
const CLOSED_PORT_URL = (secret: string) => `postgres://gatehouse:${secret}@127.0.0.1:9/gatehouse`;

function everything(result: CliResult): string {
  return `${result.stdout}\n${result.stderr}`;
}

describe.skipIf(!pgAvailable)('credentials of a database URL never reach the output', () => {
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    await Promise.all(drops.map((drop) => drop()));
  });
  const startServe = useServeProcesses();

  test('when migrate succeeds on a URL with a password (in the userinfo and as a parameter), then it says where with both hidden', async () => {
    const schema = await createPgSchema();
    drops.push(schema.drop);
    const [inUserinfo, inParameter] = [password(), password()];
    const url = `${withPassword(schema.url, inUserinfo)}&password=${inParameter}`;

    const result = await gatehouse(['migrate'], { GATEHOUSE_DATABASE_URL: url });

    const shown = url.replace(inUserinfo, '***').replace(inParameter, '***');
    expect(result).toEqual({ code: 0, stdout: `migrations applied to ${shown}\n`, stderr: '' });
    expect(shown).toMatch(
      /^postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:5432\/test\?options=.+&password=\*\*\*$/,
    );
  });

  test('when migrate cannot reach the database, then it exits 1 and neither output carries the password', async () => {
    const secret = password();

    const result = await gatehouse(['migrate'], { GATEHOUSE_DATABASE_URL: CLOSED_PORT_URL(secret) });

    expect(result).toEqual({ code: 1, stdout: '', stderr: 'gatehouse: connect ECONNREFUSED 127.0.0.1:9\n' });
    expectNoLeaks(everything(result), [secret], 'migrate');
  });

  test('when serve is refused by the database (it does not exist), then it exits 1 and its output carries no password', async () => {
    const secret = password();
    const missing = new URL(withPassword(PG_TEST_URL, secret));
    missing.pathname = '/gatehouse_no_such_database';

    const result = await gatehouse(['serve'], {
      GATEHOUSE_DATABASE_URL: missing.href,
      GATEHOUSE_PORT: '0',
      GATEHOUSE_LOG_LEVEL: 'debug',
    });

    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^gatehouse: .*database "gatehouse_no_such_database" does not exist.*\n$/);
    expectNoLeaks(everything(result), [secret], 'serve');
  });

  test('when serve waits for an unreachable database, then its retry log lines carry no password and no stack trace', async () => {
    const secret = password();
    const server = await startServe({
      GATEHOUSE_DATABASE_URL: CLOSED_PORT_URL(secret),
      GATEHOUSE_PG_CONNECT_TIMEOUT_MS: '500',
      GATEHOUSE_LOG_LEVEL: 'debug',
    });
    await sleep(2500);

    server.kill('SIGTERM');

    expect(await server.exited).toMatchObject({ code: 0, signal: null });
    const output = server.output();
    expect(output, 'the retries were logged').toContain('database unavailable; retrying migrations');
    expectNoLeaks(output, [secret], 'serve');
  });
});
