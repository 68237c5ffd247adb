import type { CheckinStatus } from './checkin-condition.js';
import type { MemberDetails } from './member-details.js';

/** What services and routes see of stored records (times are epoch milliseconds, UTC). */
export interface Partner {
  readonly id: number;
  readonly name: string;
  readonly createdAt: number;
  /** A sandbox partner's keys start ghk_test_; its visits are flagged and never count in payouts. */
  readonly sandbox: boolean;
}

export interface Gym {
  readonly id: number;
  readonly partnerId: number;
  readonly name: string;
  readonly createdAt: number;
}

export interface Product {
  readonly id: number;
  readonly gymId: number;
  readonly description: string;
  readonly payoutCents: number;
  readonly currency: string;
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
  readonly payoutCents: number;
  readonly currency: string;
  readonly validatedAt: number;
}

/** What the platform owes one gym for a period, in one currency: the count and sum of its transactions. */
export interface PayoutLine {
  readonly partnerId: number;
  readonly gymId: number;
  readonly currency: string;
  readonly count: number;
  readonly payoutCents: number;
}
