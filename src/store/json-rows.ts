import { sql, type Kysely, type RawBuilder } from 'kysely';
import { isPostgres } from './column-types.js';
import type { Database } from './database.js';

/** A column of `jsonRows`: its name and the SQL type its values are read as. */
export type JsonColumn = readonly [name: string, type: 'bigint' | 'integer' | 'text'];

/**
 * Many rows as one parameter: a JSON array of arrays, read back as a table of typed columns, in the given order.
 * The statement's text is the same whatever the number of rows, so the query builder compiles a single parameter
 * and the statement is prepared once, where a `values` list of n rows is a new statement of n × columns parameters
 * for each n, compiled parameter by parameter on every run.
 */
export function jsonRows(
  db: Kysely<Database>,
  rows: readonly (readonly unknown[])[],
  columns: readonly JsonColumn[],
): RawBuilder<unknown> {
  const json = JSON.stringify(rows);
  const source = isPostgres(db)
    ? sql`jsonb_array_elements(cast(${json} as jsonb)) with ordinality as j(value, key)`
    : sql`json_each(${json}) as j`;
  const selected = columns.map(
    ([name, type], at) => sql`cast(j.value ->> ${sql.lit(at)} as ${sql.raw(type)}) as ${sql.ref(name)}`,
  );
  return sql`(select ${sql.join(selected)} from ${source} order by j.key)`;
}
