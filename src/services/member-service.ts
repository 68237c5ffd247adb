import { OPERATOR, type Actor } from '../domain/audit.js';
import { copiesOutOfReach } from '../domain/erasure-reach.js';
import { InputError } from '../domain/errors.js';
import { PLATFORM_ID_PATTERN } from '../domain/identifiers.js';
import { pseudonymOf } from '../domain/pseudonym.js';
import { recordAudit } from '../store/access/audit-repository.js';
import { memberWideLockKey } from '../store/changes/member-lock.js';
import { eraseMemberRows, pseudonymSecret, type ErasedRows } from '../store/members/member-erasure.js';
import type { ServiceDependencies } from './dependencies.js';

export interface Erasure {
  /** What the member's platform_id became wherever a record of theirs is kept (the ledger, check-ins). */
  readonly pseudonym: string;
  /** The rows this call changed: all zero when the member was already erased (erasure is idempotent). */
  readonly erased: ErasedRows;
  /** The copies this erasure could not reach (src/domain/erasure-reach.ts). */
  readonly notReached: string[];
}

const PLATFORM_ID = new RegExp(PLATFORM_ID_PATTERN);

/** A member's data: erased on request, irreversibly, and audited under the pseudonym only. */
export function createMemberService({ store, clock, config }: ServiceDependencies) {
  return {
    async erase(platformId: string, actor: Actor = OPERATOR): Promise<Erasure> {
      if (!PLATFORM_ID.test(platformId)) throw new InputError('platform_id', 'must be a string of 13 digits');
      const { pseudonym, erased } = await store.write(async (trx) => {
        const now = clock.now();
        await store.serialize(trx, 'member-erasure');
        // Waits for the member's changes in flight, and holds back new ones, until the erasure commits.
        await store.serialize(trx, memberWideLockKey(platformId));
        const pseudonym = pseudonymOf(await pseudonymSecret(trx, now), platformId);
        const erased = await eraseMemberRows(trx, platformId, pseudonym);
        await recordAudit(trx, { actor, action: 'erase', entity: 'member', entityId: pseudonym }, now);
        return { pseudonym, erased };
      });
      const logEmptied = await store.truncateWriteAheadLog();
      const notReached = copiesOutOfReach({
        dialect: store.dialect,
        logEmptied,
        natsStream: config.natsUrl === undefined ? undefined : config.natsStream,
        eventRetentionDays: config.eventRetentionDays,
      });
      return { pseudonym, erased, notReached };
    },

    /** Audits that an operator was shown members' details in full (`what`: the route that showed them). */
    async recordDetailsRead(actor: Actor, what: string): Promise<void> {
      await store.write((trx) =>
        recordAudit(trx, { actor, action: 'read', entity: 'member', entityId: what }, clock.now()),
      );
    },
  };
}

export type MemberService = ReturnType<typeof createMemberService>;
