import type { Actor } from '../audit.js';
import {
  classifyCheckin,
  upsertsCustomCode,
  type CheckinCondition,
  type CheckinStatus,
} from '../checkin-condition.js';
import { checkinEventData, type CheckinFacts } from '../events.js';
import type { MemberDetails } from '../member-details.js';
import { priceUnder, type PricingCounts, type PricingTerms } from '../plans/pricing.js';
import type { Decision, Write } from '../writes.js';
import { codeWrites } from './custom-code.js';

export interface ValidationRequest {
  readonly gymId: number;
  readonly platformId: string;
  /** Stored for the member and gym in every condition but "not found". */
  readonly customCode: string | undefined;
  readonly now: number;
  /** Who asked: the audit names it when a refused validation stores a code. */
  readonly actor: Actor;
  /**
   * The payout rules in force at the gym (once every process knows them); undefined: the visit is paid its list
   * price and counts toward no rule.
   */
  readonly pricing?: PricingTerms | undefined;
  /**
   * A priced visit is counted on its check-in (every process reads those); else on the member's counter row, which
   * is all a process of an earlier release reads.
   */
  readonly countOnCheckin?: boolean | undefined;
}

/** The member's most recent check-in at the gym, with what a validation copies from its product and gym. */
export interface LatestCheckin {
  readonly id: number;
  readonly status: CheckinStatus;
  readonly checkedInAt: number;
  readonly expiresAt: number;
  readonly product: {
    readonly id: number;
    readonly description: string;
    readonly payoutCents: number;
    readonly currency: string;
  };
  readonly partnerId: number;
  readonly member?: MemberDetails | undefined;
}

/** What a validation is decided from, read under the member's lock. */
export interface ValidationState {
  readonly latest: LatestCheckin | undefined;
  /** The member's code at the gym before this request (read only where one may be stored). */
  readonly code: string | undefined;
  /**
   * The id the transaction takes if the check-in is validated, reserved by the store (as a check-in's is) where the
   * latest check-in is pending; a reserved id left unused is skipped.
   */
  readonly transactionId: number | undefined;
  /** The month's counters before this visit, read where the request has pricing terms. */
  readonly counts?: PricingCounts | undefined;
}

export type ValidationOutcome =
  | {
      readonly condition: 'valid';
      readonly productId: number;
      readonly productDescription: string;
      readonly validatedAt: number;
    }
  | { readonly condition: Exclude<CheckinCondition, 'valid'> };

const NOTHING_COUNTED: PricingCounts = { memberVisits: 0, partnerPaidCents: 0 };

/** The counts a priced visit is decided from: a store that read none for it has a bug, not a free visit. */
function countsOf(request: ValidationRequest, state: ValidationState): PricingCounts {
  if (request.pricing === undefined) return NOTHING_COUNTED;
  if (state.counts === undefined) throw new Error('no payout counts were read for a priced validation');
  return state.counts;
}

function validate(
  request: ValidationRequest,
  state: ValidationState,
  latest: LatestCheckin,
  transactionId: number,
) {
  const { now } = request;
  const terms = request.pricing;
  const pricing = priceUnder(terms, countsOf(request, state), latest.product.payoutCents);
  const facts: CheckinFacts = {
    id: latest.id,
    platformId: request.platformId,
    gymId: request.gymId,
    status: 'validated',
    checkedInAt: latest.checkedInAt,
    expiresAt: latest.expiresAt,
    product: latest.product,
    member: latest.member,
  };
  const writes: Write[] = [
    { kind: 'checkin-status', checkinId: latest.id, from: 'pending', to: 'validated', at: now },
    {
      kind: 'insert-transaction',
      transaction: {
        id: transactionId,
        checkinId: latest.id,
        partnerId: latest.partnerId,
        gymId: request.gymId,
        productId: latest.product.id,
        platformId: request.platformId,
        payoutCents: pricing.paidCents,
        currency: latest.product.currency,
        validatedAt: now,
        pricing,
      },
    },
    {
      kind: 'event',
      event: {
        type: 'checkin.validated',
        occurredAt: now,
        partnerId: latest.partnerId,
        gymId: request.gymId,
        data: checkinEventData(facts, {
          transactionId,
          validatedAt: now,
          payoutCents: pricing.paidCents,
          currency: latest.product.currency,
        }),
      },
    },
  ];
  if (terms !== undefined) {
    const { partnerId, month, scope } = terms;
    writes.push({
      kind: 'count-visit',
      partnerId,
      month,
      scope,
      platformId: request.platformId,
      paidCents: pricing.paidCents,
      checkinId: request.countOnCheckin === true ? latest.id : undefined,
    });
  }
  return writes;
}

/**
 * Validate: the member's latest check-in is classified (validated, cancelled, expired, else valid); a valid one
 * is validated with its transaction, priced under the payout rules in force from the month's counts before it. A code sent along is stored whenever the check-in exists, whatever its
 * condition; when the validation itself was refused, the audit records who stored it.
 */
export function decideValidation(
  request: ValidationRequest,
  state: ValidationState,
): Decision<ValidationOutcome> {
  const { latest, transactionId } = state;
  const condition = classifyCheckin(latest, request.now);
  const valid = condition === 'valid' && latest !== undefined;
  if (valid && transactionId === undefined)
    throw new Error('no transaction id was reserved for a validation');
  const writes = valid && transactionId !== undefined ? validate(request, state, latest, transactionId) : [];
  if (request.customCode !== undefined && upsertsCustomCode(condition) && latest !== undefined) {
    writes.push(
      ...codeWrites({
        key: request,
        partnerId: latest.partnerId,
        code: request.customCode,
        existed: state.code !== undefined,
        now: request.now,
        // A successful validation records the code itself; a refused one would otherwise leave no trace.
        audit: valid ? undefined : request.actor,
      }),
    );
  }
  const outcome: ValidationOutcome = valid
    ? {
        condition: 'valid',
        productId: latest.product.id,
        productDescription: latest.product.description,
        validatedAt: request.now,
      }
    : { condition: condition === 'valid' ? 'notfound' : condition };
  return { outcome, writes };
}
