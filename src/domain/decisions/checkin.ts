import type { Actor } from '../audit.js';
import type { Checkin } from '../entities.js';
import {
  CheckinValidatedConflictError,
  DailyLimitError,
  EntityNotFoundError,
  InputError,
} from '../errors.js';
import { checkinEventData, type CheckinFacts, type EventType } from '../events.js';
import { givenMemberDetails, type MemberDetails } from '../member-details.js';
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
  /** The time zone whose local day the daily visit limit counts. */
  readonly timezone: string;
}

/** What a check-in creation is decided from, read under the member's lock. */
export interface CreationState {
  readonly gym: { readonly partnerId: number } | undefined;
  readonly product: { readonly id: number; readonly gymId: number; readonly description: string } | undefined;
  /** The member's validated visits at the gym on the local day of `checkedInAt`. */
  readonly visitsThatDay: number;
  /** An id the store reserved for the new check-in. */
  readonly checkinId: number;
}

function checkinEvent(type: EventType, facts: CheckinFacts, partnerId: number, now: number): Write {
  return {
    kind: 'event',
    event: { type, occurredAt: now, partnerId, gymId: facts.gymId, data: checkinEventData(facts) },
  };
}

/** Create: the gym and its product must exist, and the member must not have reached the daily visit limit. */
export function decideCheckinCreation(request: CheckinCreation, state: CreationState): Decision<Checkin> {
  if (state.gym === undefined) throw new EntityNotFoundError('gym');
  if (state.product === undefined) throw new EntityNotFoundError('product');
  if (state.product.gymId !== request.gymId)
    throw new InputError('product_id', 'is not a product of that gym');
  if (request.dailyVisitLimit > 0 && state.visitsThatDay >= request.dailyVisitLimit)
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
  };
  const facts = { ...checkin, product: state.product };
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
