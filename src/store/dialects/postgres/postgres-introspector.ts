import {
  PostgresDialect,
  sql,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type Kysely,
  type SchemaMetadata,
  type TableMetadata,
} from 'kysely';

/**
 * Kysely's PostgreSQL introspector reads the catalog of every schema in the database: another tenant's schema
 * being dropped meanwhile makes it fail, and another schema's migration tables could be taken for gatehouse's.
 * The migrator only asks which tables exist, so this one answers for the connection's current schema alone.
 */
class CurrentSchemaIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<any>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`select current_schema() as name`.execute(this.db);
    return rows;
  }

  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string; schema: string; type: string }>`
      select table_name as name, table_schema as schema, table_type as type
      from information_schema.tables where table_schema = current_schema()`.execute(this.db);
    return rows.map((row) => ({
      name: row.name,
      schema: row.schema,
      isView: row.type === 'VIEW',
      columns: [],
    }));
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}

export class CurrentSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db);
  }
}
