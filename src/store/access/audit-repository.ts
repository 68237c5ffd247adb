import type { Kysely } from 'kysely';
import type { AuditEntry, AuditEvent } from '../../domain/audit.js';
import type { PageRequest } from '../../domain/pagination.js';
import { auditRow } from '../changes/rows.js';
import type { Database } from '../database.js';
import { memberAuditEntries } from './member-audit.js';

type Db = Kysely<Database>;

export async function recordAudit(db: Db, event: AuditEvent, at: number): Promise<void> {
  await db.insertInto('audit_log').values(auditRow(event, at)).execute();
}

export interface AuditFilter {
  readonly from?: number;
  readonly to?: number;
  readonly entity?: string;
  /** One operator's entries (its id; the environment's admin tokens have none). */
  readonly actorId?: number;
  /** The entries about one member (src/store/access/member-audit.ts). */
  readonly platformId?: string;
}

export async function listAudit(db: Db, filter: AuditFilter, page: PageRequest): Promise<AuditEntry[]> {
  const newestFirst = page.order === 'desc';
  const source =
    filter.platformId === undefined
      ? db.selectFrom('audit_log')
      : db.selectFrom(memberAuditEntries(db, filter.platformId).as('audit_log'));
  let query = source.selectAll();
  if (!newestFirst) query = query.where('id', '>', page.afterId);
  else if (page.afterId > 0) query = query.where('id', '<', page.afterId);
  if (filter.from !== undefined) query = query.where('at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('at', '<', filter.to);
  if (filter.entity !== undefined) query = query.where('entity', '=', filter.entity);
  if (filter.actorId !== undefined) query = query.where('actor_id', '=', filter.actorId);
  const rows = await query
    .orderBy('id', newestFirst ? 'desc' : 'asc')
    .limit(page.limit + 1)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    actor: row.actor,
    actorId: row.actor_id,
    action: row.action,
    entity: row.entity,
    entityId: row.entity_id,
    at: row.at,
  }));
}
