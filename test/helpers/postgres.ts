import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL server the suite runs against (CONTRIBUTING.md, set-up). */
export const PG_TEST_URL = process.env.GATEHOUSE_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** CI sets this: there, a missing server fails the run instead of skipping the PostgreSQL half. */
export const PG_REQUIRED = process.env.GATEHOUSE_TEST_REQUIRE_PG === '1';

async function probe(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_TEST_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export const pgAvailable = await probe();
if (!pgAvailable && PG_REQUIRED) {
  throw new Error(
    `PostgreSQL is required (GATEHOUSE_TEST_REQUIRE_PG=1) but does not answer at ${PG_TEST_URL}`,
  );
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_TEST_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A fresh schema of its own for one test app; the URL points gatehouse's search_path at it. */
export async function createPgSchema(): Promise<{ url: string; drop: () => Promise<void> }> {
  const schema = `gh_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`create schema ${schema}`);
  const separator = PG_TEST_URL.includes('?') ? '&' : '?';
  return {
    url: `${PG_TEST_URL}${separator}options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    drop: () => adminQuery(`drop schema if exists ${schema} cascade`),
  };
}
