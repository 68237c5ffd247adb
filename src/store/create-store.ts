import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import type { Database } from './database.js';
import { migrations } from './migrations/index.js';
import type { Store } from './store.js';

export interface StoreOptions {
  readonly databaseUrl: string;
  readonly sqliteSynchronous?: 'full' | 'normal';
  readonly sqliteBusyTimeoutMs?: number;
}

export class UnsupportedDatabaseError extends Error {}

/** The only place that knows which dialect is in use. */
export function createStore(options: StoreOptions): Store {
  if (options.databaseUrl.startsWith('sqlite:')) return createSqliteStore(options);
  throw new UnsupportedDatabaseError(
    `GATEHOUSE_DATABASE_URL: unsupported database "${options.databaseUrl.split(':')[0]}"`,
  );
}

function openSqlite(options: StoreOptions): SqliteDatabase.Database {
  const path = options.databaseUrl.slice('sqlite:'.length);
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new SqliteDatabase(path, { timeout: options.sqliteBusyTimeoutMs ?? 250 });
  if (path !== ':memory:') database.pragma('journal_mode = WAL');
  database.pragma(`synchronous = ${options.sqliteSynchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
  database.pragma('foreign_keys = ON');
  return database;
}

function createSqliteStore(options: StoreOptions): Store {
  const database = openSqlite(options);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  return {
    dialect: 'sqlite',
    db,
    write: (work) =>
      db.connection().execute(async (connection) => {
        await sql`begin immediate`.execute(connection);
        try {
          const result = await work(connection);
          await sql`commit`.execute(connection);
          return result;
        } catch (error) {
          if (database.inTransaction) await sql`rollback`.execute(connection);
          throw error;
        }
      }),
    migrate: () => migrate(db),
    isReady: () => isReady(db),
    close: () => db.destroy(),
  };
}

async function migrate(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } });
  const { error } = await migrator.migrateToLatest();
  if (error !== undefined) throw error instanceof Error ? error : new Error(`migration failed: ${JSON.stringify(error)}`);
}

async function isReady(db: Kysely<Database>): Promise<boolean> {
  try {
    const migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } });
    const applied = await migrator.getMigrations();
    return applied.every((migration) => migration.executedAt !== undefined);
  } catch {
    return false;
  }
}

const SQLITE_UNAVAILABLE = new Set([
  'SQLITE_BUSY',
  'SQLITE_BUSY_SNAPSHOT',
  'SQLITE_BUSY_RECOVERY',
  'SQLITE_LOCKED',
]);

/** Whether an error means "the store cannot serve now, retry later" rather than a bug. */
export function isStoreUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && SQLITE_UNAVAILABLE.has(code);
}
