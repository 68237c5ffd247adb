import { PostgresAdapter, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely } from 'kysely';

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

/*
 * The timestamp columns, as every table that records them declares them: epoch milliseconds, never null. Frozen:
 * migrations already applied call them, so they must never change.
 */

/** `created_at`: when the row was made. */
export function createdAt<TB extends string, C extends string>(
  table: CreateTableBuilder<TB, C>,
): CreateTableBuilder<TB, C | 'created_at'> {
  return table.addColumn('created_at', 'bigint', (c) => c.notNull());
}

/** `updated_at`: when the row last changed. */
export function updatedAt<TB extends string, C extends string>(
  table: CreateTableBuilder<TB, C>,
): CreateTableBuilder<TB, C | 'updated_at'> {
  return table.addColumn('updated_at', 'bigint', (c) => c.notNull());
}
