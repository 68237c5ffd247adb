import type { Actor } from '../audit.js';
import type { Checkin } from '../entities.js';
import {
  CheckinValidatedConflictError,
  DailyLimitError,
  EntityNotFoundError,
  InputError,
  RetiredError,
} from '../errors.js';
import { checkinEventData, type CheckinFacts, type EventType } from '../events.js';
import { localDayBounds } from '../local-day.js';
import { givenMemberDetails, type MemberDetails } from '../member-details.js';
import { decideAdmission, type PlanUsage } from '../plans/admission.js';
import type { PlanVersion } from '../plans/plan.js';
import type { Decision, Write } from '../writes.js';

export interface CheckinCreation {
  readonly platformId: string;
  readonly gymId: number;
  readonly productId: number;
  /** When the member checked in: now, or earlier (sandboxes and tests make expired check-ins that way). */
  readonly checkedInAt: number;
  /** What the front desk may show of the member, stored with the check-in and carried by its events. */
  readonly member?: MemberDetails | undefined;
  readonly now: number;
  readonly actor: Actor;
  /** How long a check-in stays valid, and how many validated visits a member may make at a gym in a day. */
  readonly ttlMs: number;
  readonly dailyVisitLimit: number;
  /** The time zone of a gym that names none of its own: the local day the daily visit limit counts. */
  readonly timezone: string;
  /**
   * Whether members' plans decide (every process on the database runs a release that knows them); when false the
   * store reads no plan and the daily visit limit decides for everyone, as the previous release does.
   */
  readonly plans: boolean;
  /** The name of the plan of members who have none; undefined: they keep the daily visit limit. */
  readonly defaultPlan?: string | undefined;
}

/** How far ahead of the server's clock a given `checked_in_at` may lie: the clock skew between client and server. */
export const CHECKIN_CLOCK_SKEW_MS = 5 * 60_000;

/**
 * The validations a creation is decided from lie within this much of `now`, either side: every time zone's local
 * day that holds `now` does (UTC−12 to UTC+14, and a day of 25 hours where clocks go back).
 */
export const RECENT_VALIDATIONS_MS = 27 * 3_600_000;

/** What a check-in creation is decided from, read under the member's lock. */
export interface CreationState {
  readonly gym:
    { readonly partnerId: number; readonly timezone: string | null; readonly retired: boolean } | undefined;
  readonly product:
    | {
        readonly id: number;
        readonly gymId: number;
        readonly description: string;
        readonly retired: boolean;
        readonly category: string;
      }
    | undefined;
  /**
   * The member's plan version in force at `now` and their check-ins that may use its visits (validated within
   * USAGE_LOOKBACK_MS, or not yet expired, at any gym); undefined when the member has no plan, and the daily visit
   * limit decides as before.
   */
  readonly plan?: { readonly version: PlanVersion; readonly usage: readonly PlanUsage[] } | undefined;
  /**
   * When the member's validations at the gym were made, those within RECENT_VALIDATIONS_MS of `now`, for the daily
   * visit limit; empty when the member has a plan, which decides instead (the store need not read them then).
   */
  readonly recentValidations: readonly number[];
  /** An id the store reserved for the new check-in. */
  readonly checkinId: number;
}

/**
 * The member's validations at the gym on the gym's local day of `now`: a visit counts on the day it was
 * validated, whenever the member checked in, and a check-in's own date can neither lift nor move the limit.
 */
export function visitsToday(request: CheckinCreation, state: CreationState): number {
  // Nothing to count (a new member, most often): the day's bounds are not needed.
  if (state.recentValidations.length === 0) return 0;
  const day = localDayBounds(request.now, state.gym?.timezone ?? request.timezone);
  return state.recentValidations.filter((at) => at >= day.start && at < day.end).length;
}

function checkinEvent(type: EventType, facts: CheckinFacts, partnerId: number, now: number): Write {
  return {
    kind: 'event',
    event: { type, occurredAt: now, partnerId, gymId: facts.gymId, data: checkinEventData(facts) },
  };
}

/**
 * Create: `checked_in_at` no later than the clock skew allows, the gym and its product must exist and take
 * check-ins, and the member must not have reached the daily visit limit.
 */
export function decideCheckinCreation(request: CheckinCreation, state: CreationState): Decision<Checkin> {
  if (request.checkedInAt > request.now + CHECKIN_CLOCK_SKEW_MS)
    throw new InputError('checked_in_at', 'must not be more than 5 minutes in the future');
  if (state.gym === undefined) throw new EntityNotFoundError('gym');
  if (state.product === undefined) throw new EntityNotFoundError('product');
  if (state.product.gymId !== request.gymId)
    throw new InputError('product_id', 'is not a product of that gym');
  if (state.gym.retired) throw new RetiredError('gym');
  if (state.product.retired) throw new RetiredError('product');
  if (state.plan !== undefined) {
    const admission = {
      plan: state.plan.version,
      category: state.product.category,
      gymId: request.gymId,
      partnerId: state.gym.partnerId,
      timeZone: state.gym.timezone ?? request.timezone,
      now: request.now,
    };
    decideAdmission(admission, state.plan.usage);
  } else if (request.dailyVisitLimit > 0 && visitsToday(request, state) >= request.dailyVisitLimit)
    throw new DailyLimitError();
  const member = givenMemberDetails(request.member);
  const checkin: Checkin = {
    id: state.checkinId,
    platformId: request.platformId,
    gymId: request.gymId,
    productId: request.productId,
    status: 'pending',
    checkedInAt: request.checkedInAt,
    expiresAt: request.checkedInAt + request.ttlMs,
    validatedAt: null,
    cancelledAt: null,
    ...(member === undefined ? {} : { member }),
    ...(state.plan === undefined
      ? {}
      : { plan: { id: state.plan.version.planId, version: state.plan.version.version } }),
  };
  const facts = {
    ...checkin,
    product: { id: state.product.id, description: state.product.description },
  };
  return {
    outcome: checkin,
    writes: [
      {
        kind: 'insert-checkin',
        checkin: { ...checkin, createdAt: request.now, member },
      },
      checkinEvent('checkin.created', facts, state.gym.partnerId, request.now),
      {
        kind: 'audit',
        entry: { actor: request.actor, action: 'create', entity: 'checkin', entityId: checkin.id },
        at: request.now,
      },
    ],
  };
}

export interface CheckinCancellation {
  readonly checkinId: number;
  readonly now: number;
  readonly actor: Actor;
}

export interface CancellationState {
  readonly checkin:
    | (Checkin & { readonly partnerId: number; readonly product: { id: number; description: string } })
    | undefined;
}

/**
 * Cancel: idempotent until validated. A pending check-in (expired or not) becomes cancelled; a cancelled one comes
 * back as it is, changing nothing; a validated one is refused.
 */
export function decideCheckinCancellation(
  request: CheckinCancellation,
  state: CancellationState,
): Decision<Checkin> {
  const { checkin } = state;
  if (checkin === undefined) throw new EntityNotFoundError('checkin');
  if (checkin.status === 'validated') throw new CheckinValidatedConflictError();
  const { partnerId, product, ...current } = checkin;
  if (checkin.status === 'cancelled') return { outcome: current, writes: [] };
  const cancelled: Checkin = { ...current, status: 'cancelled', cancelledAt: request.now };
  return {
    outcome: cancelled,
    writes: [
      { kind: 'checkin-status', checkinId: checkin.id, from: 'pending', to: 'cancelled', at: request.now },
      checkinEvent('checkin.cancelled', { ...cancelled, product }, partnerId, request.now),
      {
        kind: 'audit',
        entry: { actor: request.actor, action: 'cancel', entity: 'checkin', entityId: checkin.id },
        at: request.now,
      },
    ],
  };
}
