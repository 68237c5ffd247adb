import { PostgresAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** A generated integer primary key: SQLite's rowid alias, PostgreSQL's identity column. */
export function serialPrimaryKey(
  db: Kysely<any>,
): ['integer' | 'bigint', (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder] {
  return isPostgres(db)
    ? ['bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity()]
    : ['integer', (c) => c.primaryKey().autoIncrement()];
}
