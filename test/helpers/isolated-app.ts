import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PG_TEST_URL } from './postgres.js';
import { startTestApp, type TestApp, type TestDialect } from './test-app.js';

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_TEST_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Waits until the app's key-change listener has connected (its first act is to empty the key cache). */
async function listenerConnected(database: string): Promise<void> {
  for (let tries = 0; tries < 100; tries += 1) {
    const { rows } = await admin((client) =>
      client.query<{ n: string }>(
        `select count(*) as n from pg_stat_activity
          where datname = $1 and state = 'idle' and query ilike 'listen %'`,
        [database],
      ),
    );
    if (Number(rows[0]?.n) > 0) {
      // The LISTEN answer has left the server; the client empties its cache as soon as it reads it.
      await new Promise((resolve) => setTimeout(resolve, 100));
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the key-change listener did not connect');
}

/**
 * An app whose key cache no other test can touch. Metrics count key-cache hits exactly, but on PostgreSQL every
 * key revocation anywhere in the shared test database is NOTIFYed to every app listening there, emptying their
 * caches; NOTIFY does not cross databases, so the PostgreSQL app gets a database of its own.
 */
export async function startIsolatedApp(dialect: TestDialect): Promise<TestApp> {
  if (dialect === 'sqlite') return startTestApp({ dialect });
  const database = `gh_obs_${randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`create database ${database}`));
  const url = new URL(PG_TEST_URL);
  url.pathname = `/${database}`;
  let t: TestApp | undefined;
  try {
    t = await startTestApp({ env: { GATEHOUSE_DATABASE_URL: url.toString() } });
    await listenerConnected(database);
  } catch (error) {
    await t?.close();
    await admin((client) => client.query(`drop database if exists ${database} with (force)`));
    throw error;
  }
  const app = t;
  return {
    ...app,
    async close() {
      await app.close();
      await admin((client) => client.query(`drop database if exists ${database} with (force)`));
    },
  };
}
