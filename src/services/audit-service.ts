import type { AuditEntry } from '../domain/audit.js';
import { toPage, type Page, type PageRequest } from '../domain/pagination.js';
import { listAudit, type AuditFilter } from '../store/access/audit-repository.js';
import type { ServiceDependencies } from './dependencies.js';

/** Who created, changed or revoked keys, codes and check-ins, and when. */
export function createAuditService({ store }: ServiceDependencies) {
  return {
    async list(filter: AuditFilter, page: PageRequest): Promise<Page<AuditEntry>> {
      return toPage(await listAudit(store.db, filter, page), page.limit, page.order);
    },
  };
}
