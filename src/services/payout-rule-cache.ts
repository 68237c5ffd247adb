import type { PayoutRules } from '../domain/plans/payout-rules.js';
import { monthOf, rulesAt, type PricingTerms } from '../domain/plans/pricing.js';
import { findGym } from '../store/catalog/catalog-repository.js';
import { partnerHasTiers, payoutRuleVersions } from '../store/plans/payout-rule-repository.js';
import type { ServiceDependencies } from './dependencies.js';

const MAX_ENTRIES = 100_000;

/**
 * What pricing needs of a gym: its partner, its zone, the versions of the rules that may apply to it, and whether
 * tiers anywhere of its partner read the paid total its visits add to.
 */
interface GymRules {
  readonly partnerId: number;
  readonly timeZone: string;
  readonly partner: readonly PayoutRules[];
  readonly gym: readonly PayoutRules[];
  readonly partnerTiered: boolean;
}

/**
 * Payout rules by gym, as validation prices visits: read once and kept (a gym with none keeps a "none": its
 * validations read nothing more), dropped whenever rules are set here or any process announces a change, as
 * keys are. Versions take effect from their instant, so a kept version starts to price at that instant.
 */
export function createPayoutRuleCache({ store, config }: Pick<ServiceDependencies, 'store' | 'config'>) {
  const entries = new Map<number, GymRules>();
  store.watchKeyChanges(() => entries.clear());

  async function load(gymId: number): Promise<GymRules | undefined> {
    const gym = await findGym(store.db, gymId);
    if (gym === undefined) return undefined;
    const [partner, own] = [
      await payoutRuleVersions(store.db, { partnerId: gym.partnerId }),
      await payoutRuleVersions(store.db, { partnerId: gym.partnerId, gymId }),
    ];
    const partnerTiered = partner.length + own.length > 0 && (await partnerHasTiers(store.db, gym.partnerId));
    const rules = {
      partnerId: gym.partnerId,
      timeZone: gym.timezone ?? config.timezone,
      partner,
      gym: own,
      partnerTiered,
    };
    if (entries.size >= MAX_ENTRIES) entries.clear();
    entries.set(gymId, rules);
    return rules;
  }

  return {
    /** Whether the gym has (or had) payout rules of its own or its partner's: false answers from the cache alone. */
    async hasRules(gymId: number): Promise<boolean> {
      const rules = entries.get(gymId) ?? (await load(gymId));
      return rules !== undefined && (rules.partner.length > 0 || rules.gym.length > 0);
    },

    /** The terms a visit at the gym at `now` is priced under; undefined when no rules are in force there. */
    async termsAt(gymId: number, now: number): Promise<PricingTerms | undefined> {
      const rules = entries.get(gymId) ?? (await load(gymId));
      if (rules === undefined) return undefined;
      const found = rulesAt(rules.partner, rules.gym, gymId, now);
      return (
        found && {
          partnerId: rules.partnerId,
          ...found,
          month: monthOf(now, rules.timeZone),
          partnerTiered: rules.partnerTiered,
        }
      );
    },

    /** Rules were set by this process: every gym's are read again. */
    forget(): void {
      entries.clear();
    },
  };
}

export type PayoutRuleCache = ReturnType<typeof createPayoutRuleCache>;
