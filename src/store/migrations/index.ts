import type { Migration } from 'kysely';
import * as initial from './0001-initial.js';
import * as auditLog from './0002-audit-log.js';

/** Every migration, in order. Imported statically so the built package needs no file-system scan. */
export const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-audit-log': auditLog,
};
