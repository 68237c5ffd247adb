import { sql, type SelectQueryBuilder } from 'kysely';
import type { PageRequest } from '../domain/pagination.js';

/**
 * One page of a listing in id order: oldest first, the rows after the cursor's id; newest first (`order: 'desc'`),
 * the rows before it (from the newest when the cursor is 0). One more than the limit: the extra row tells whether
 * there is a next page (src/domain/pagination.ts).
 */
export function pageById<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  page: PageRequest,
): SelectQueryBuilder<DB, TB, O> {
  const id = sql.ref('id');
  if (page.order === 'desc') {
    const before = page.afterId > 0 ? query.where(id, '<', page.afterId) : query;
    return before.orderBy(id, 'desc').limit(page.limit + 1);
  }
  return query
    .where(id, '>', page.afterId)
    .orderBy(id)
    .limit(page.limit + 1);
}
