import { sql } from 'kysely';

/**
 * A pending delivery's status as a literal in the query's text, not a parameter: the indexes of pending deliveries
 * (migration 0020) hold those rows alone, and SQLite matches a literal with an index's condition once, when the
 * statement is prepared, where a parameter makes it plan the statement again at every run.
 */
export const PENDING = sql<string>`'pending'`;
