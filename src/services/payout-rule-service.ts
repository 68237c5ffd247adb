import { mustExist } from '../domain/must-exist.js';
import { OPERATOR, type Actor } from '../domain/audit.js';
import { checkedPayoutRules, type PayoutRules, type PayoutTier } from '../domain/plans/payout-rules.js';
import { effectiveFrom } from '../domain/plans/plan.js';
import { recordAudit } from '../store/access/audit-repository.js';
import { findGym, findPartner } from '../store/catalog/catalog-repository.js';
import {
  insertPayoutRules,
  payoutRuleVersions,
  type PayoutRulesOwner,
} from '../store/plans/payout-rule-repository.js';
import type { ServiceDependencies } from './dependencies.js';

export interface PayoutRulesInput {
  /** undefined: as the latest version has it (no cap when there is none). */
  readonly monthlyPaidVisitsPerMember: number | null | undefined;
  /** undefined: as the latest version has them (none when there is none). */
  readonly tiers: readonly PayoutTier[] | undefined;
  readonly effectiveFrom?: string | undefined;
}

/** Who the rules belong to: a partner, or a gym (whose partner it names). */
export type RulesOf = { readonly partnerId: number } | { readonly gymId: number };

async function ownerOf(db: Parameters<typeof findGym>[0], of: RulesOf): Promise<PayoutRulesOwner> {
  if ('partnerId' in of) {
    mustExist(await findPartner(db, of.partnerId), 'partner');
    return { partnerId: of.partnerId };
  }
  const gym = mustExist(await findGym(db, of.gymId), 'gym');
  return { partnerId: gym.partnerId, gymId: gym.id };
}

/**
 * Payout rules (what a gym is paid): a partner's, optionally overridden per gym, as versions in force from an
 * instant (now by default, never earlier). A version with no cap and no tiers removes the rules from then on.
 */
export function createPayoutRuleService({ store, clock }: ServiceDependencies, forgetCached: () => void) {
  return {
    /**
     * A new version from `effectiveFrom` on; what the input leaves undefined is the latest version's, read in the
     * same transaction under the owner's lock, so two changes at once each build on the other, never overwrite it.
     */
    async set(of: RulesOf, input: PayoutRulesInput, actor: Actor = OPERATOR): Promise<PayoutRules> {
      const given = { monthlyPaidVisitsPerMember: input.monthlyPaidVisitsPerMember, tiers: input.tiers };
      if (given.monthlyPaidVisitsPerMember !== undefined && given.tiers !== undefined)
        checkedPayoutRules({
          monthlyPaidVisitsPerMember: given.monthlyPaidVisitsPerMember,
          tiers: given.tiers,
        });
      const now = clock.now();
      const from = effectiveFrom(input.effectiveFrom, now);
      const set = await store.write(async (trx) => {
        const owner = await ownerOf(trx, of);
        await store.serialize(trx, `payout-rules:${owner.partnerId}:${owner.gymId ?? 0}`);
        const latest =
          given.monthlyPaidVisitsPerMember === undefined || given.tiers === undefined
            ? (await payoutRuleVersions(trx, owner)).at(-1)
            : undefined;
        const rules = {
          monthlyPaidVisitsPerMember:
            given.monthlyPaidVisitsPerMember === undefined
              ? (latest?.monthlyPaidVisitsPerMember ?? null)
              : given.monthlyPaidVisitsPerMember,
          tiers: given.tiers ?? latest?.tiers ?? [],
        };
        checkedPayoutRules(rules);
        const version = await insertPayoutRules(trx, owner, { ...rules, effectiveFrom: from }, now);
        const entityId = owner.gymId === undefined ? `partner:${owner.partnerId}` : `gym:${owner.gymId}`;
        await recordAudit(trx, { actor, action: 'update', entity: 'payout-rules', entityId }, now);
        // Every process reads rules again, as after a key change.
        await store.announceKeyChange(trx);
        return version;
      });
      forgetCached();
      return set;
    },

    async versions(of: RulesOf): Promise<PayoutRules[]> {
      return payoutRuleVersions(store.db, await ownerOf(store.db, of));
    },
  };
}

export type PayoutRuleService = ReturnType<typeof createPayoutRuleService>;
