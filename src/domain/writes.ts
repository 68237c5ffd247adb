import type { AuditEvent } from './audit.js';
import type { CheckinStatus } from './checkin-condition.js';
import type { LedgerTransaction, Reversal } from './entities.js';
import type { NewEvent } from './events.js';
import type { MemberDetails } from './member-details.js';

/**
 * What a decision asks the store to write. Stores carry these out as given, in one database transaction with the
 * reads the decision was made from; they add no rule of their own. A write that names the state it expects
 * (`from`, an existing code) fails the whole change when the row is not in that state.
 */
export type Write =
  | {
      readonly kind: 'insert-checkin';
      readonly checkin: {
        readonly id: number;
        readonly platformId: string;
        readonly gymId: number;
        readonly productId: number;
        readonly checkedInAt: number;
        readonly expiresAt: number;
        readonly createdAt: number;
        readonly member: MemberDetails | undefined;
        readonly plan?: { readonly id: number; readonly version: number } | undefined;
      };
    }
  | {
      readonly kind: 'checkin-status';
      readonly checkinId: number;
      readonly from: CheckinStatus;
      readonly to: 'validated' | 'cancelled';
      readonly at: number;
    }
  /** The store reserved the transaction's id when it read the state. */
  | { readonly kind: 'insert-transaction'; readonly transaction: LedgerTransaction }
  /**
   * A priced visit adds to its month's counts: the member's visits under the scope (marked on the validated check-in
   * `checkinId`, else on the member's counter row), the partner's paid total.
   */
  | {
      readonly kind: 'count-visit';
      readonly partnerId: number;
      readonly month: string;
      readonly scope: number;
      readonly platformId: string;
      readonly paidCents: number;
      readonly checkinId: number | undefined;
    }
  /** The store reserved the reversal's id when it read the state. */
  | { readonly kind: 'insert-reversal'; readonly reversal: Reversal }
  | {
      readonly kind: 'insert-code' | 'update-code';
      readonly gymId: number;
      readonly platformId: string;
      readonly code: string;
      readonly at: number;
    }
  | { readonly kind: 'delete-code'; readonly gymId: number; readonly platformId: string }
  | { readonly kind: 'audit'; readonly entry: AuditEvent; readonly at: number }
  | { readonly kind: 'event'; readonly event: NewEvent };

/** A state change decided: what to answer, and what to write so that the answer is true. */
export interface Decision<O> {
  readonly outcome: O;
  readonly writes: readonly Write[];
}

/** The state changed between the read and the write: nothing of the change was kept; it may run again. */
export class StaleDecisionError extends Error {
  constructor(write: Write['kind']) {
    super(`the state changed under a decision (${write})`);
  }
}
