import { sql, type Kysely } from 'kysely';
import type { Database } from '../database.js';

/**
 * Reserves the id of a row a decision is about to write, so the decision (and its event) can name it. On
 * PostgreSQL the table's own sequence hands it out (an id reserved for a change that is refused is skipped: ids
 * are unique and increasing, not consecutive). On SQLite the caller holds the write lock, and the next id is one
 * past the greatest ever handed out.
 */
export async function reserveId(db: Kysely<Database>, postgres: boolean, table: 'checkins'): Promise<number> {
  const query = postgres
    ? sql<{ id: number }>`select nextval(pg_get_serial_sequence(${table}, 'id')) as id`
    : sql<{
        id: number;
      }>`select coalesce((select seq from sqlite_sequence where name = ${table}), 0) + 1 as id`;
  const { rows } = await query.execute(db);
  const id = rows[0]?.id;
  if (id === undefined) throw new Error(`no id could be reserved in ${table}`);
  return Number(id);
}
