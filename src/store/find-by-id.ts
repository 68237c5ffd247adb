import type { Kysely, Selectable } from 'kysely';
import type { Database } from './database.js';

/** The tables whose rows are found by their own `id`. */
type ById =
  'partners' | 'gyms' | 'products' | 'api_keys' | 'operators' | 'webhook_endpoints' | 'webhook_deliveries';

/** The row of `table` with this id, as the repository's `map` makes it; undefined when there is none. */
export async function findById<T extends ById, R>(
  db: Kysely<Database>,
  table: T,
  id: number,
  map: (row: Selectable<Database[T]>) => R,
): Promise<R | undefined> {
  // Over a generic table TypeScript cannot resolve Kysely's column types: the query is built over the union of
  // the tables, and the signature keeps each caller's row type exact.
  const from: ById = table;
  const row = await db.selectFrom(from).selectAll().where('id', '=', id).executeTakeFirst();
  return row && map(row as unknown as Selectable<Database[T]>);
}
