import { OPERATOR, type Actor } from '../domain/audit.js';
import { InputError } from '../domain/errors.js';
import { PLATFORM_ID_PATTERN } from '../domain/identifiers.js';
import { pseudonymOf } from '../domain/pseudonym.js';
import { recordAudit } from '../store/access/audit-repository.js';
import { eraseMemberRows, pseudonymSecret, type ErasedRows } from '../store/members/member-erasure.js';
import type { ServiceDependencies } from './dependencies.js';

export interface Erasure {
  /** What the member's platform_id became wherever a record of theirs is kept (the ledger, check-ins). */
  readonly pseudonym: string;
  /** The rows this call changed: all zero when the member was already erased (erasure is idempotent). */
  readonly erased: ErasedRows;
}

const PLATFORM_ID = new RegExp(PLATFORM_ID_PATTERN);

/** A member's data: erased on request, irreversibly, and audited under the pseudonym only. */
export function createMemberService({ store, clock }: ServiceDependencies) {
  return {
    async erase(platformId: string, actor: Actor = OPERATOR): Promise<Erasure> {
      if (!PLATFORM_ID.test(platformId)) throw new InputError('platform_id', 'must be a string of 13 digits');
      return store.write(async (trx) => {
        const now = clock.now();
        await store.serialize(trx, 'member-erasure');
        const pseudonym = pseudonymOf(await pseudonymSecret(trx, now), platformId);
        const erased = await eraseMemberRows(trx, platformId, pseudonym);
        await recordAudit(trx, { actor, action: 'erase', entity: 'member', entityId: pseudonym }, now);
        return { pseudonym, erased };
      });
    },
  };
}

export type MemberService = ReturnType<typeof createMemberService>;
