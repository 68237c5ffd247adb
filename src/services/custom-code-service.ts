import type { CustomCode } from '../domain/entities.js';
import { CustomCodeExistsError, CustomCodeNotFoundError } from '../domain/errors.js';
import {
  deleteCustomCode,
  findCustomCode,
  insertCustomCode,
  updateCustomCode,
  type CodeKey,
} from '../store/custom-code-repository.js';
import type { Kysely } from 'kysely';
import { OPERATOR, type Actor, type AuditAction } from '../domain/audit.js';
import { recordAudit } from '../store/audit-repository.js';
import type { Database } from '../store/database.js';
import type { ServiceDependencies } from './dependencies.js';

/** The member's custom entry code at a gym (spec §4.2–4.4): one per member·gym. */
export function createCustomCodeService({ store, clock }: ServiceDependencies) {
  // The audit names the member and gym, never the code itself.
  const audit = (trx: Kysely<Database>, actor: Actor, action: AuditAction, key: CodeKey) =>
    recordAudit(
      trx,
      { actor, action, entity: 'custom-code', entityId: `${key.gymId}:${key.platformId}` },
      clock.now(),
    );

  return {
    create(key: CodeKey, code: string, actor: Actor = OPERATOR): Promise<void> {
      return store.write(async (trx) => {
        if (!(await insertCustomCode(trx, key, code, clock.now()))) throw new CustomCodeExistsError();
        await audit(trx, actor, 'create', key);
      });
    },

    update(key: CodeKey, code: string, actor: Actor = OPERATOR): Promise<void> {
      return store.write(async (trx) => {
        if (!(await updateCustomCode(trx, key, code, clock.now()))) throw new CustomCodeNotFoundError();
        await audit(trx, actor, 'update', key);
      });
    },

    remove(key: CodeKey, actor: Actor = OPERATOR): Promise<void> {
      return store.write(async (trx) => {
        if (!(await deleteCustomCode(trx, key))) throw new CustomCodeNotFoundError();
        await audit(trx, actor, 'delete', key);
      });
    },

    async get(key: CodeKey): Promise<CustomCode> {
      const code = await findCustomCode(store.db, key);
      if (code === undefined) throw new CustomCodeNotFoundError();
      return code;
    },
  };
}

export type CustomCodeService = ReturnType<typeof createCustomCodeService>;
