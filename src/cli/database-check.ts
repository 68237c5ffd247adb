import { existsSync } from 'node:fs';
import { withoutPassword } from '../config/messages.js';
import type { Store } from '../store/store.js';

/** The configured database cannot be used, and waiting will not change that: the process stops with one line. */
export class DatabaseRefusedError extends Error {
  override readonly name = 'DatabaseRefusedError';
}

/** PostgreSQL's answers that no retry will change: a database that does not exist, a login it refuses. */
const REFUSALS: ReadonlyMap<string, string> = new Map([
  ['3D000', 'create the database or fix GATEHOUSE_DATABASE_URL'],
  ['28P01', 'fix the user or password in GATEHOUSE_DATABASE_URL'],
  ['28000', 'fix the user or password in GATEHOUSE_DATABASE_URL'],
]);

/**
 * Operator commands work on a database that exists: a mistyped `sqlite:` path must not become a new, empty
 * database (only `serve` and `migrate` create one). Checked before the store opens, which would create it.
 */
export function assertSqliteFileExists(databaseUrl: string): void {
  if (!databaseUrl.startsWith('sqlite:')) return;
  const path = databaseUrl.slice('sqlite:'.length);
  if (path === ':memory:' || existsSync(path)) return;
  throw new DatabaseRefusedError(
    `no database at ${path}: run 'gatehouse migrate' to create it, or fix GATEHOUSE_DATABASE_URL`,
  );
}

/**
 * Connects once. A missing PostgreSQL database or a refused login throws DatabaseRefusedError; anything else
 * (an unreachable server above all) is left to the caller, which retries or reports it as before.
 */
export async function assertDatabaseAccepts(store: Store, databaseUrl: string): Promise<void> {
  try {
    await store.db.connection().execute(() => Promise.resolve());
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const remedy = typeof code === 'string' ? REFUSALS.get(code) : undefined;
    if (remedy === undefined) return;
    throw new DatabaseRefusedError(
      `cannot use ${withoutPassword(databaseUrl)}: ${(error as Error).message} (${remedy})`,
    );
  }
}
