import { sql, type SelectQueryBuilder } from 'kysely';
import type { PageRequest } from '../domain/pagination.js';

/**
 * One page of a listing in id order: the rows after the cursor's id, one more than the limit (the extra row tells
 * whether there is a next page, src/domain/pagination.ts).
 */
export function pageById<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  page: PageRequest,
): SelectQueryBuilder<DB, TB, O> {
  const id = sql.ref('id');
  return query
    .where(id, '>', page.afterId)
    .orderBy(id)
    .limit(page.limit + 1);
}
