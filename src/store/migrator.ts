import { Migrator, type Kysely } from 'kysely';
import type { Database } from './database.js';
import { migrations } from './migrations/index.js';

function migrator(db: Kysely<Database>): Migrator {
  return new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } });
}

/** Applies pending migrations; Kysely holds its migration lock meanwhile, so concurrent starters queue. */
export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  const { error } = await migrator(db).migrateToLatest();
  if (error !== undefined) {
    throw error instanceof Error ? error : new Error(`migration failed: ${JSON.stringify(error)}`);
  }
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
