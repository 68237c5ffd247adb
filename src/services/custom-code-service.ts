import { OPERATOR, type Actor } from '../domain/audit.js';
import type { CodeKey } from '../domain/decisions/custom-code.js';
import type { CustomCode } from '../domain/entities.js';
import { CustomCodeNotFoundError } from '../domain/errors.js';
import { recordAudit } from '../store/access/audit-repository.js';
import { findCustomCode } from '../store/members/custom-code-repository.js';
import type { ServiceDependencies } from './dependencies.js';

/** The member's custom entry code at a gym: one per member·gym, created, replaced, deleted and read by partners. */
export function createCustomCodeService({ store, clock }: ServiceDependencies) {
  return {
    create(key: CodeKey, code: string, actor: Actor = OPERATOR): Promise<void> {
      return store.apply('create-code', { ...key, code, now: clock.now(), actor });
    },

    update(key: CodeKey, code: string, actor: Actor = OPERATOR): Promise<void> {
      return store.apply('update-code', { ...key, code, now: clock.now(), actor });
    },

    remove(key: CodeKey, actor: Actor = OPERATOR): Promise<void> {
      return store.apply('delete-code', { ...key, now: clock.now(), actor });
    },

    async get(key: CodeKey): Promise<CustomCode> {
      const code = await findCustomCode(store.db, key);
      if (code === undefined) throw new CustomCodeNotFoundError();
      return code;
    },

    /** An operator's look at a member's code: a read of a live credential, so the audit log records who looked. */
    async lookup(key: CodeKey, actor: Actor): Promise<CustomCode> {
      const code = await findCustomCode(store.db, key);
      if (code === undefined) throw new CustomCodeNotFoundError();
      await store.write((trx) =>
        recordAudit(
          trx,
          { actor, action: 'read', entity: 'custom-code', entityId: `${key.gymId}:${key.platformId}` },
          clock.now(),
        ),
      );
      return code;
    },
  };
}

export type CustomCodeService = ReturnType<typeof createCustomCodeService>;
