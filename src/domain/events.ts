import { randomFillSync } from 'node:crypto';
import type { CheckinStatus } from './checkin-condition.js';
import type { MemberDetails } from './member-details.js';
import { formatInstant } from './time-format.js';

/** Every kind of event the log holds, in the order they were introduced. */
export const EVENT_TYPES = [
  'checkin.created',
  'checkin.cancelled',
  'checkin.validated',
  'custom_code.created',
  'custom_code.updated',
  'custom_code.deleted',
  'transaction.reversed',
  'plan.changed',
  'member.plan-changed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/**
 * Events about the network, not about one partner: a plan created or versioned, a member put on a plan. They go
 * to the operator (the log, its stream, the broker feed); no partner's webhook or stream gets them, since a plan is
 * the platform's and a member's plan is not the gym's to know.
 */
export const NETWORK_EVENT_TYPES = ['plan.changed', 'member.plan-changed'] as const;
type NetworkEventType = (typeof NETWORK_EVENT_TYPES)[number];

/** The types a partner's webhook endpoint can ask for. */
export type PartnerEventType = Exclude<EventType, NetworkEventType>;
export const PARTNER_EVENT_TYPES = EVENT_TYPES.filter(
  (type): type is PartnerEventType => !(NETWORK_EVENT_TYPES as readonly string[]).includes(type),
);

/**
 * The partner and gym a network event is stored with: ids start at 1, so 0 is nobody's, and no endpoint or
 * stream of a partner matches it. Answered as null.
 */
export const NETWORK = 0;

/** An event as a decision makes it: the store gives it an id and a position when it appends it. */
export interface NewEvent {
  readonly type: EventType;
  readonly occurredAt: number;
  readonly partnerId: number;
  readonly gymId: number;
  readonly data: Readonly<Record<string, unknown>>;
}

export interface LoggedEvent extends Omit<NewEvent, 'data'> {
  /** Orders the log in commit order: a reader that follows positions never misses an event. */
  readonly position: number;
  /** `evt_` and 32 random hex digits: unique across databases, never derived from the position. */
  readonly id: string;
  /** null once the payload has been purged. */
  readonly data: Readonly<Record<string, unknown>> | null;
}

/**
 * An event's data as every reader gets it (the log, event streams, webhooks of both formats, NATS): a sandbox
 * partner's events end with `"sandbox": true`; a live partner's are exactly as written, with no `sandbox` key.
 * Decided when the event is read, in this one place, because being a sandbox is the partner's fact, not each
 * decision's (README, "The sandbox").
 */
export function dataAsRead(
  data: Readonly<Record<string, unknown>> | null,
  sandbox: boolean,
): Readonly<Record<string, unknown>> | null {
  return data === null || !sandbox ? data : { ...data, sandbox: true };
}

/** Whether an event as read is a sandbox partner's (see dataAsRead). */
export function isSandboxEvent(event: { readonly data: Readonly<Record<string, unknown>> | null }): boolean {
  return event.data?.sandbox === true;
}

/**
 * Events a filtered read of the log looks through at most (the log is indexed by its order only): a page of a quiet
 * gym's events costs a bounded scan, and says where it stopped.
 */
export const EVENT_SCAN = 10_000;

const ID_BYTES = 16;
/** Random bytes for the next 256 ids, drawn from the system's CSPRNG at once: one call instead of one per event. */
const idPool = Buffer.alloc(ID_BYTES * 256);
let idPoolUsed = idPool.length;

/** `evt_` and 128 random bits in hex. */
export function newEventId(): string {
  if (idPoolUsed === idPool.length) {
    randomFillSync(idPool);
    idPoolUsed = 0;
  }
  const id = idPool.toString('hex', idPoolUsed, idPoolUsed + ID_BYTES);
  idPoolUsed += ID_BYTES;
  return `evt_${id}`;
}

/** What an event says about a check-in, whatever happened to it. */
export interface CheckinFacts {
  readonly id: number;
  readonly platformId: string;
  readonly gymId: number;
  readonly status: CheckinStatus;
  readonly checkedInAt: number;
  readonly expiresAt: number;
  readonly product: { readonly id: number; readonly description: string };
  readonly member?: MemberDetails | undefined;
}

/** What a validation adds to the check-in's facts: the ledger row it wrote. */
export interface ValidationFacts {
  readonly transactionId: number;
  readonly validatedAt: number;
  readonly payoutCents: number;
  readonly currency: string;
}

/**
 * What an event says about a check-in, whatever happened to it; a validation adds its ledger row after the
 * check-in's fields (consumers see the same key order either way).
 */
export function checkinEventData(
  checkin: CheckinFacts,
  validation?: ValidationFacts,
): Record<string, unknown> {
  const product = { id: checkin.product.id, description: checkin.product.description };
  const checkedInAt = formatInstant(checkin.checkedInAt);
  const expiresAt = formatInstant(checkin.expiresAt);
  const member = checkin.member === undefined ? {} : { member: checkin.member };
  const data: Record<string, unknown> = {
    checkin_id: checkin.id,
    platform_id: checkin.platformId,
    gym_id: checkin.gymId,
    product,
    status: checkin.status,
    checked_in_at: checkedInAt,
    expires_at: expiresAt,
    ...member,
  };
  if (validation === undefined) return data;
  // Added in place, not spread into a new literal: V8 clones such a literal through a map it does not cache, about
  // 8 µs a validation (bench/, the SQLite validation ratio).
  data.transaction_id = validation.transactionId;
  data.validated_at = formatInstant(validation.validatedAt);
  data.payout_cents = validation.payoutCents;
  data.currency = validation.currency;
  return data;
}

/** custom_code.* events name the member and gym, never the code itself. */
export function customCodeEventData(key: { gymId: number; platformId: string }): Record<string, unknown> {
  return { platform_id: key.platformId, gym_id: key.gymId };
}
