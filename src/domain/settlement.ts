import type { PricingRule } from './plans/payout-rules.js';
import { ConflictError, InputError } from './errors.js';

/** A closed period of one partner in one currency, and the entries it holds: they never move again. */
export interface Settlement {
  readonly id: number;
  readonly partnerId: number;
  readonly currency: string;
  readonly periodStart: number;
  /** Exclusive. */
  readonly periodEnd: number;
  readonly status: 'closed' | 'paid';
  readonly totalCents: number;
  /** Entries: visits and reversals. */
  readonly count: number;
  readonly lines: readonly SettlementLine[];
  readonly createdBy: string;
  readonly createdAt: number;
  readonly paidAt: number | null;
  readonly reference: string | null;
}

export interface SettlementLine {
  readonly gymId: number;
  readonly count: number;
  readonly totalCents: number;
  /** The line's entries per pricing rule, in rule order: their paid amounts sum to `totalCents`. */
  readonly pricing: readonly RulePricing[];
}

export interface RulePricing {
  readonly rule: PricingRule;
  readonly count: number;
  readonly listCents: number;
  readonly paidCents: number;
}

export interface Period {
  readonly start: number;
  readonly end: number;
}

/**
 * A period may be closed once it has ended: its end no later than the moment it is closed, after its start.
 * Settlement periods are instants, not gym-local days.
 */
export function assertClosablePeriod(period: Period, now: number): void {
  if (period.end <= period.start) throw new InputError('period_end', 'must be later than period_start');
  if (period.end > now)
    throw new InputError('period_end', 'must not be later than now: the period has not ended');
}

/**
 * Where a close of `period` starts taking entries: its own start, or the start of the partner's first closed period
 * when that is earlier. Every earlier entry no settlement holds yet (one still being written when its period was
 * closed, a late reversal) is taken by the next close, so none is left where no close reaches it; entries older
 * than the partner's first closed period are never swept (the network may have paid those outside gatehouse).
 */
export function sweepStart(period: Period, firstClosedStart: number | undefined): number {
  return firstClosedStart === undefined ? period.start : Math.min(period.start, firstClosedStart);
}

/** A late entry of a settlement: one effective before its period, taken by the close after its own. */
export function isLate(entry: { readonly effectiveAt: number }, settlement: Period): boolean {
  return entry.effectiveAt < settlement.start;
}

/** Whether two periods share an instant ([start, end) each). */
export function overlaps(a: Period, b: Period): boolean {
  return a.start < b.end && b.start < a.end;
}

export class SettlementOverlapError extends ConflictError {
  constructor(partnerId: number) {
    super('settlement.overlap', `partner ${partnerId} has a settlement that overlaps this period`);
  }
}

export class SettlementPaidError extends ConflictError {
  constructor() {
    super('settlement.already-paid', 'settlement was already paid with another reference');
  }
}
