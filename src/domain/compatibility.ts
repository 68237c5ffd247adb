import { InputError } from './errors.js';

/**
 * A partner's compatibility profile: what the operator turns on for a partner whose client was written for
 * another reading of the API than the spec's (docs/contract.md, "Compatibility profiles"). Off by default, so
 * every partner gets the spec's answers unless the operator says otherwise.
 */
export const CANCELLED_SPELLINGS = ['cancelled', 'canceled'] as const;
export type CancelledSpelling = (typeof CANCELLED_SPELLINGS)[number];

export interface CompatibilityProfile {
  /** `canceled`: validate's cancelled refusal as Wellhub's legacy sandbox spells it. */
  readonly cancelledSpelling: CancelledSpelling;
  /** true: a key limited to exactly one gym may leave X-Gym-Id out; that gym is the one acted on. */
  readonly gymFromKey: boolean;
}

/** The spec's answers: every partner's profile until the operator changes it. */
export const SPEC_PROFILE: CompatibilityProfile = { cancelledSpelling: 'cancelled', gymFromKey: false };

/** A profile as the operator gives it: an absent option is the spec's. */
export function parseCompatibility(given: {
  readonly cancelledSpelling?: string | undefined;
  readonly gymFromKey?: boolean | undefined;
}): CompatibilityProfile {
  const spelling = given.cancelledSpelling ?? SPEC_PROFILE.cancelledSpelling;
  if (!(CANCELLED_SPELLINGS as readonly string[]).includes(spelling)) {
    throw new InputError('cancelled_spelling', `must be one of ${CANCELLED_SPELLINGS.join(', ')}`);
  }
  return {
    cancelledSpelling: spelling as CancelledSpelling,
    gymFromKey: given.gymFromKey ?? SPEC_PROFILE.gymFromKey,
  };
}

/**
 * The gym a request that names none acts on: the key's one gym when the profile allows it, else none (and the
 * request gets the spec's 400 for its missing X-Gym-Id). A key with several gyms, or every gym, names no gym.
 */
export function gymFromKey(
  profile: CompatibilityProfile,
  keyGymIds: readonly number[] | null,
): number | undefined {
  if (!profile.gymFromKey || keyGymIds === null || keyGymIds.length !== 1) return undefined;
  return keyGymIds[0];
}
