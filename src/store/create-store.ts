import { createPostgresStore, isPostgresUnavailable } from './dialects/postgres/postgres-store.js';
import { createSqliteStore, isSqliteUnavailable } from './dialects/sqlite/sqlite-store.js';
import type { Store, StoreOptions } from './store.js';

export class UnsupportedDatabaseError extends Error {}

/** The dialect factory: the only place that chooses between SQLite and PostgreSQL. */
export function createStore(options: StoreOptions): Store {
  if (options.databaseUrl.startsWith('sqlite:')) return createSqliteStore(options);
  if (/^postgres(ql)?:\/\//.test(options.databaseUrl)) return createPostgresStore(options);
  throw new UnsupportedDatabaseError(
    `GATEHOUSE_DATABASE_URL: unsupported database "${options.databaseUrl.split(':')[0]}"`,
  );
}

/** Whether an error means "the store cannot serve now, retry later" rather than a bug. */
export function isStoreUnavailable(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  const codeText = typeof code === 'string' ? code : undefined;
  if (codeText?.startsWith('SQLITE_') === true) return isSqliteUnavailable(codeText);
  return isPostgresUnavailable(codeText, typeof message === 'string' ? message : '');
}
