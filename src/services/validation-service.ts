import { OPERATOR, type Actor } from '../domain/audit.js';
import {
  CheckinAlreadyValidatedError,
  CheckinCanceledError,
  CheckinCancelledError,
  CheckinExpiredError,
  CheckinNotFoundError,
} from '../domain/errors.js';
import { SPEC_PROFILE, type CancelledSpelling } from '../domain/compatibility.js';
import type { ServiceDependencies } from './dependencies.js';
import { silentObserver } from './observer.js';
import type { FleetGate } from './fleet-gate.js';
import type { PayoutRuleCache } from './payout-rule-cache.js';

export interface ValidateInput {
  readonly gymId: number;
  readonly platformId: string;
  readonly customCode: string | undefined;
  /** Who asks (the audit names it when a refused validation stores a code): the operator unless told. */
  readonly actor?: Actor;
  /** How the cancelled refusal is spelled (the partner's compatibility profile): the spec's unless told. */
  readonly cancelledSpelling?: CancelledSpelling;
}

export interface Validation {
  readonly productId: number;
  readonly productDescription: string;
  readonly validatedAt: number;
}

const refusals = {
  notfound: CheckinNotFoundError,
  cancelled: CheckinCancelledError,
  canceled: CheckinCanceledError,
  expired: CheckinExpiredError,
  'already-validated': CheckinAlreadyValidatedError,
} as const;

/** Validate a member's check-in at a gym: the partner API's POST /access/v1/validate. */
export function createValidationService(
  { store, clock, observer = silentObserver }: ServiceDependencies,
  fleet: Pick<FleetGate, 'payoutRulesInEffect' | 'visitMarksInEffect'>,
  rules: Pick<PayoutRuleCache, 'hasRules' | 'termsAt'>,
) {
  /** The payout rules a visit at the gym is priced under: none read beyond the cache where the gym has none. */
  async function pricingAt(gymId: number, now: number) {
    if (!(await rules.hasRules(gymId)) || !(await fleet.payoutRulesInEffect())) return undefined;
    return rules.termsAt(gymId, now);
  }

  return {
    async validate({ cancelledSpelling, ...input }: ValidateInput): Promise<Validation> {
      const started = performance.now();
      const now = clock.now();
      const pricing = await pricingAt(input.gymId, now);
      const outcome = await store.apply('validate', {
        ...input,
        actor: input.actor ?? OPERATOR,
        now,
        pricing,
        countOnCheckin: pricing !== undefined && (await fleet.visitMarksInEffect()),
      });
      const seconds = (performance.now() - started) / 1000;
      if (outcome.condition === 'valid') {
        observer.validation('validated', seconds);
        return outcome;
      }
      const spelled =
        outcome.condition === 'cancelled'
          ? (cancelledSpelling ?? SPEC_PROFILE.cancelledSpelling)
          : outcome.condition;
      const refusal = new refusals[spelled]();
      observer.validation(refusal.key, seconds);
      throw refusal;
    },
  };
}

export type ValidationService = ReturnType<typeof createValidationService>;
