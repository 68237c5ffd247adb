import type { Kysely, UpdateQueryBuilder, UpdateResult } from 'kysely';
import type { Database } from './database.js';

/** The moments a row takes once and keeps: revoked, retired, offboarded. */
interface OnceColumns {
  api_keys: 'revoked_at';
  operators: 'revoked_at';
  gyms: 'retired_at';
  products: 'retired_at';
  partners: 'offboarded_at';
}

/**
 * Sets a moment on the rows the caller's `where` picks that do not hold it yet: doing it twice keeps the first
 * moment.
 */
export function stampOnce<T extends keyof OnceColumns>(
  db: Kysely<Database>,
  table: T,
  column: OnceColumns[T],
  at: number,
): UpdateQueryBuilder<Database, T, T, UpdateResult> {
  // Over a generic table TypeScript cannot resolve Kysely's column types: the query is built over the union of
  // the tables, and the signature keeps each caller's table exact.
  const once: keyof OnceColumns = table;
  const moment: OnceColumns[keyof OnceColumns] = column;
  const update = db.updateTable(once).set(moment, at).where(moment, 'is', null);
  return update as unknown as UpdateQueryBuilder<Database, T, T, UpdateResult>;
}
