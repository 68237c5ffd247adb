import { Migrator, type Kysely } from 'kysely';
import type { Database } from './database.js';
import { migrations } from './migrations/index.js';

function migrator(db: Kysely<Database>): Migrator {
  return new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } });
}

function thrown(error: unknown): void {
  if (error !== undefined) {
    throw error instanceof Error ? error : new Error(`migration failed: ${JSON.stringify(error)}`);
  }
}

/** Applies pending migrations; Kysely holds its migration lock meanwhile, so concurrent starters queue. */
export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  thrown((await migrator(db).migrateToLatest()).error);
}

/**
 * Migrates up or down to `migration` (down: each newer one's `down`): an earlier schema, as a database of an earlier
 * release has it (the tests of a migration, a bench's base build).
 */
export async function migrateTo(db: Kysely<Database>, migration: string): Promise<void> {
  thrown((await migrator(db).migrateTo(migration)).error);
}

/** The store answers and every known migration has been applied. */
export async function isMigrated(db: Kysely<Database>): Promise<boolean> {
  try {
    const known = await migrator(db).getMigrations();
    return known.every((migration) => migration.executedAt !== undefined);
  } catch {
    return false;
  }
}
