import { sql, type Kysely } from 'kysely';
import type { Database } from '../../database.js';

/**
 * Ids drawn from a table's sequence but stored in another table too: a reversal's id comes from the transactions'
 * id space (src/store/changes/id-reservation.ts).
 */
const SHARED_ID_SPACES: Readonly<Record<string, readonly string[]>> = { transactions: ['reversals'] };

/** Tables whose ids never come from their sequence: a product takes one past the greatest (catalog-repository.ts). */
const NOT_DRAWN = new Set(['products']);

/**
 * Moves every sequence of the schema's columns (identity and serial) that lies behind its table's greatest id up to
 * it, and returns their names. A new cluster fed by logical replication receives the rows but not the sequences:
 * without this, its first insert would draw an id a replicated row already holds. On any other database every
 * sequence is ahead of its table, and nothing is written.
 */
export async function advanceSequences(trx: Kysely<Database>): Promise<string[]> {
  const { rows } = await sql<{ sequence: string; table: string; column: string }>`
    select s.oid::regclass::text as sequence, t.relname as table, a.attname as column
    from pg_class s
    join pg_depend d on d.classid = 'pg_class'::regclass and d.objid = s.oid
      and d.refclassid = 'pg_class'::regclass and d.deptype in ('a', 'i')
    join pg_class t on t.oid = d.refobjid
    join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
    where s.relkind = 'S' and s.relnamespace = to_regnamespace(current_schema())
    order by t.relname`.execute(trx);
  const advanced: string[] = [];
  for (const { sequence, table, column } of rows.filter((row) => !NOT_DRAWN.has(row.table))) {
    const greatest = [table, ...(SHARED_ID_SPACES[table] ?? [])]
      .map((name) => sql`(select max(${sql.ref(column)}) from ${sql.table(name)})`)
      .reduce((all, one) => sql`greatest(${all}, ${one})`);
    const moved = await sql<{ to: number }>`
      select setval(${sequence}::regclass, m.id) as to
      from (select ${greatest} as id) m
      where m.id > coalesce(pg_sequence_last_value(${sequence}::regclass), 0)`.execute(trx);
    if (moved.rows.length > 0) advanced.push(`${sequence} to ${moved.rows[0]!.to}`);
  }
  return advanced;
}
