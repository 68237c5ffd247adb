import { Migrator, type Kysely } from 'kysely';
import type { Database } from './database.js';
import { migrations } from './migrations/index.js';

/**
 * `schema`: where the migrator keeps its bookkeeping tables. Without it, Kysely looks for them in every schema of
 * a PostgreSQL database, so a gatehouse in one schema would mistake another schema's migrations for its own.
 */
function migrator(db: Kysely<Database>, schema: string | undefined): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
  });
}

/** Applies pending migrations; Kysely holds its migration lock meanwhile, so concurrent starters queue. */
export async function migrateToLatest(db: Kysely<Database>, schema?: string): Promise<void> {
  const { error } = await migrator(db, schema).migrateToLatest();
  if (error !== undefined) {
    throw error instanceof Error ? error : new Error(`migration failed: ${JSON.stringify(error)}`);
  }
}

/** The store answers and every known migration has been applied. */
export async function isMigrated(db: Kysely<Database>, schema?: string): Promise<boolean> {
  try {
    const known = await migrator(db, schema).getMigrations();
    return known.every((migration) => migration.executedAt !== undefined);
  } catch {
    return false;
  }
}
