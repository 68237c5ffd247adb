import type { Pricing } from './plans/payout-rules.js';
import type { CheckinStatus } from './checkin-condition.js';
import type { MemberDetails } from './member-details.js';

/** What services and routes see of stored records (times are epoch milliseconds, UTC). */
export interface Partner {
  readonly id: number;
  readonly name: string;
  readonly createdAt: number;
  /** Set when offboarded: keys revoked, webhooks disabled, gyms retired; its ledger stays. */
  readonly offboardedAt: number | null;
  /** A sandbox partner's keys start ghk_test_; its visits are flagged and never count in payouts. */
  readonly sandbox: boolean;
}

export interface Gym {
  readonly id: number;
  readonly partnerId: number;
  readonly name: string;
  readonly createdAt: number;
  /** IANA name; null: the server's GATEHOUSE_TIMEZONE. */
  readonly timezone: string | null;
  /** Set when retired: no new check-ins. */
  readonly retiredAt: number | null;
}

export interface Product {
  readonly id: number;
  readonly gymId: number;
  readonly description: string;
  readonly payoutCents: number;
  readonly currency: string;
  /** Set when retired: no new check-ins. */
  readonly retiredAt: number | null;
  /** What plans name it by (src/domain/plans/plan.ts): `standard` unless set. */
  readonly category: string;
}

export interface ApiKey {
  readonly id: number;
  readonly partnerId: number;
  readonly prefix: string;
  readonly label: string | null;
  /** null: every gym of the partner, present and future. */
  readonly gymIds: readonly number[] | null;
  readonly expiresAt: number | null;
  readonly revokedAt: number | null;
  readonly lastUsedAt: number | null;
  readonly createdAt: number;
}

export interface Checkin {
  readonly id: number;
  readonly platformId: string;
  readonly gymId: number;
  readonly productId: number;
  readonly status: CheckinStatus;
  readonly checkedInAt: number;
  readonly expiresAt: number;
  readonly validatedAt: number | null;
  readonly cancelledAt: number | null;
  /** What the front desk may show of the member; absent when none were given. */
  readonly member?: MemberDetails;
  /** The plan version it was decided under; absent when the member had no plan. */
  readonly plan?: { readonly id: number; readonly version: number };
}

export interface CustomCode {
  readonly gymId: number;
  readonly platformId: string;
  readonly code: string;
  readonly updatedAt: number;
}

export interface LedgerTransaction {
  readonly id: number;
  readonly checkinId: number;
  readonly partnerId: number;
  readonly gymId: number;
  readonly productId: number;
  readonly platformId: string;
  /** What is paid for the visit: its list price, or less under the partner's payout rules (`pricing`). */
  readonly payoutCents: number;
  readonly currency: string;
  readonly validatedAt: number;
  /** How the visit was priced; a reversal's is its own amount, under the rule and version of the visit it reverses. */
  readonly pricing: Pricing;
}

/** A correcting entry of the ledger: it takes back (part of) a visit's amount; never edited or deleted. */
export interface Reversal {
  /** From the transactions' id space: visits and reversals never share an id. */
  readonly id: number;
  readonly transactionId: number;
  readonly partnerId: number;
  readonly gymId: number;
  /** Negative. */
  readonly payoutCents: number;
  readonly currency: string;
  readonly reason: string;
  readonly effectiveAt: number;
  readonly createdBy: string;
}

/**
 * A row of the ledger: a visit (its transaction) or a reversal of one. A reversal carries the visit's check-in,
 * member, product and validated_at, and names the visit in `reverses`.
 */
export interface LedgerEntry extends LedgerTransaction {
  readonly kind: 'visit' | 'reversal';
  /** A visit's is its validated_at; a reversal's, when it was made. */
  readonly effectiveAt: number;
  readonly reverses: number | null;
  readonly reason: string | null;
}

/** An entry as the operator's ledger lists it: whether its partner is a sandbox one, what of a visit was reversed. */
export interface ListedEntry extends LedgerEntry {
  readonly sandbox: boolean;
  /** A visit's reversals so far, in positive cents; 0 for a visit never reversed and for a reversal. */
  readonly reversedCents: number;
}

/** What the platform owes one gym for a period, in one currency: the count and sum of its transactions. */
export interface PayoutLine {
  readonly partnerId: number;
  readonly gymId: number;
  readonly currency: string;
  /** Visits. */
  readonly count: number;
  /** Reversal entries. */
  readonly reversals: number;
  /** Every entry's amount, reversals' included. */
  readonly payoutCents: number;
}
