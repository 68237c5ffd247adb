import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { adminQuery, createPgSchema, pgAvailable, PG_TEST_URL } from '../../fixtures/postgres.js';
import { gatehouse, useTempDir } from '../../fixtures/processes/cli.js';

/** A loopback port held by another listener for the test. */
function occupiedPort(): Promise<{ port: number; server: Server }> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (typeof address === 'object' && address !== null) resolve({ port: address.port, server });
      else reject(new Error('no port'));
    });
  });
}

/** The fatal "could not start" line serve logged on stdout, parsed. */
function startFailureLine(stdout: string): unknown {
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .find((line) => line.msg === 'could not start');
}

describe('gatehouse serve when it cannot start', () => {
  const dir = useTempDir();
  const holders: Server[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const holder of holders.splice(0)) holder.close();
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  test('when its port is taken, then it exits 1 with the message on stderr and the failure logged, so a supervisor restarts it', async () => {
    const { port, server } = await occupiedPort();
    holders.push(server);

    const result = await gatehouse(['serve'], {
      GATEHOUSE_DATABASE_URL: `sqlite:${join(dir(), 'port-taken.db')}`,
      GATEHOUSE_HOST: '127.0.0.1',
      GATEHOUSE_PORT: String(port),
      GATEHOUSE_LOG_LEVEL: 'info',
    });

    const message = `listen EADDRINUSE: address already in use 127.0.0.1:${port}`;
    expect({ code: result.code, stderr: result.stderr }).toEqual({
      code: 1,
      stderr: `gatehouse: ${message}\n`,
    });
    expect(startFailureLine(result.stdout)).toMatchObject({
      level: 60,
      error: { type: 'Error', code: 'EADDRINUSE', message },
    });
  });

  test.skipIf(!pgAvailable)(
    'when the database refuses it (it does not exist), then it exits 1 with the message before it listens',
    async () => {
      const missing = new URL(PG_TEST_URL);
      missing.pathname = '/gatehouse_no_such_database';

      const result = await gatehouse(['serve'], {
        GATEHOUSE_DATABASE_URL: missing.href,
        GATEHOUSE_HOST: '127.0.0.1',
        GATEHOUSE_PORT: '0',
        GATEHOUSE_LOG_LEVEL: 'info',
      });

      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /^gatehouse: .*database "gatehouse_no_such_database" does not exist.*\n$/,
      );
      expect(result.stdout).not.toContain('Server listening');
    },
  );

  test.skipIf(!pgAvailable)(
    'when migrations fail for good after it listens (a login without the right to create tables), then it stops listening and exits 1 with the message',
    async () => {
      const schema = await createPgSchema();
      const role = `gh_noperm_${randomBytes(6).toString('hex')}`;
      await adminQuery(`create role ${role} login`);
      cleanups.push(() => adminQuery(`drop role if exists ${role}`), schema.drop);
      const url = new URL(schema.url);
      url.username = role;

      const result = await gatehouse(['serve'], {
        GATEHOUSE_DATABASE_URL: url.href,
        GATEHOUSE_HOST: '127.0.0.1',
        GATEHOUSE_PORT: '0',
        GATEHOUSE_LOG_LEVEL: 'info',
      });

      // PostgreSQL's own words (no usable schema, or no right to create in it): the same in the log and on stderr.
      const message = /^gatehouse: (.+)\n$/.exec(result.stderr)?.[1];
      expect(result.code).toBe(1);
      expect(message).toMatch(/schema/);
      expect(result.stdout).toContain('Server listening');
      expect(startFailureLine(result.stdout)).toMatchObject({
        level: 60,
        error: { type: 'DatabaseError', message },
      });
    },
  );
});
