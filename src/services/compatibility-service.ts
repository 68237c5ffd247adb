import { mustExist } from '../domain/must-exist.js';
import { OPERATOR, type Actor } from '../domain/audit.js';
import { parseCompatibility, type CompatibilityProfile } from '../domain/compatibility.js';
import { EntityNotFoundError } from '../domain/errors.js';
import { recordAudit } from '../store/access/audit-repository.js';
import { findCompatibility, setCompatibility } from '../store/catalog/compatibility-repository.js';
import type { ServiceDependencies } from './dependencies.js';

/** What the operator sends: an option left out is the spec's answer. */
export interface CompatibilityInput {
  readonly cancelledSpelling?: string | undefined;
  readonly gymFromKey?: boolean | undefined;
}

/**
 * Partners' compatibility profiles (docs/contract.md, "Compatibility profiles"). A profile rides with the key in
 * the key cache, so a change is announced as a key change: every process reads it again from its next request.
 * `forgetKeys` drops this process's cached keys at once.
 */
export function createCompatibilityService({ store, clock }: ServiceDependencies, forgetKeys: () => void) {
  return {
    async get(partnerId: number): Promise<CompatibilityProfile> {
      return mustExist(await findCompatibility(store.db, partnerId), 'partner');
    },

    /** Replaces the partner's profile (audited as a change of the partner) and answers it. */
    async set(
      partnerId: number,
      input: CompatibilityInput,
      actor: Actor = OPERATOR,
    ): Promise<CompatibilityProfile> {
      const profile = parseCompatibility(input);
      await store.write(async (trx) => {
        if (!(await setCompatibility(trx, partnerId, profile))) throw new EntityNotFoundError('partner');
        const entry = { actor, action: 'update', entity: 'partner', entityId: partnerId } as const;
        await recordAudit(trx, entry, clock.now());
        await store.announceKeyChange(trx);
      });
      forgetKeys();
      return profile;
    },
  };
}

export type CompatibilityService = ReturnType<typeof createCompatibilityService>;
