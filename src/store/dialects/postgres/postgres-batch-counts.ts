import {
  followsPartnerOrder,
  payoutLockKey,
  type PricingCounts,
  type PricingTerms,
} from '../../../domain/plans/pricing.js';
import type { ValidationRequest } from '../../../domain/decisions/validation.js';
import type { Write } from '../../../domain/writes.js';
import { memberLockKeys } from '../../changes/member-lock.js';
import {
  addToSum,
  counterKey,
  counterRows,
  PARTNER_TOTAL,
  type CounterRow,
} from '../../plans/payout-counter-repository.js';
import type { BatchItem } from './postgres-batch-item.js';

type CountVisit = Extract<Write, { kind: 'count-visit' }>;

const termsOf = (item: BatchItem): PricingTerms | undefined =>
  item.kind === 'validate' ? (item.request as ValidationRequest).pricing : undefined;

/** The partner's payout lock a visit takes, when it follows the partner's commit order (pricing.ts). */
export function partnerLockKey(item: BatchItem): string | undefined {
  const terms = termsOf(item);
  return terms !== undefined && followsPartnerOrder(terms) ? payoutLockKey(terms.partnerId) : undefined;
}

/**
 * The advisory locks a batch takes: each member·gym's (member-lock.ts) and, for a visit in its partner's commit
 * order, the partner's payout lock (which sorts after every member's, as the unit of work takes it).
 */
export function batchLockKeys(items: readonly BatchItem[]): string[] {
  const keys = new Set<string>();
  for (const item of items) {
    for (const key of memberLockKeys(item.member)) keys.add(key);
    const partner = partnerLockKey(item);
    if (partner !== undefined) keys.add(partner);
  }
  return [...keys];
}

/**
 * The month's counters as the batch's own decisions change them: every change reads its state before any is
 * decided, so a visit priced after another of the batch adds what that one counted (the batch's commit order is
 * its order), as SQLite's batch reads what the changes before it wrote.
 */
export function createBatchCounts() {
  const added = new Map<string, { visits: number; paidCents: number }>();
  return {
    /** The counts read for a visit, plus what the batch's earlier visits added to them. */
    adjust(terms: PricingTerms, platformId: string, read: PricingCounts): PricingCounts {
      const member = added.get(counterKey(terms.partnerId, terms.month, terms.scope, platformId));
      const partner = added.get(
        counterKey(terms.partnerId, terms.month, PARTNER_TOTAL.gymId, PARTNER_TOTAL.platformId),
      );
      return {
        memberVisits: read.memberVisits + (member?.visits ?? 0),
        partnerPaidCents: read.partnerPaidCents + (partner?.paidCents ?? 0),
      };
    },
    add(writes: readonly Write[]): void {
      for (const write of writes) if (write.kind === 'count-visit') addVisit(write);
    },
  };

  /** The member's visits under the scope (wherever the visit is counted) and the partner's total. */
  function addVisit(write: CountVisit): void {
    const { partnerId, month } = write;
    addTo(counterKey(partnerId, month, write.scope, write.platformId), 0);
    addTo(counterKey(partnerId, month, PARTNER_TOTAL.gymId, PARTNER_TOTAL.platformId), write.paidCents);
  }

  function addTo(key: string, paidCents: number): void {
    const sum = added.get(key) ?? { visits: 0, paidCents: 0 };
    added.set(key, { visits: sum.visits + 1, paidCents: sum.paidCents + paidCents });
  }
}

export type BatchCounts = ReturnType<typeof createBatchCounts>;

/** The batch's counter rows, one per counter (an upsert may touch a row once), in one order (locks never cross). */
export function counterParameter(writes: readonly Write[]) {
  const rows = new Map<string, CounterRow>();
  for (const write of writes) {
    if (write.kind !== 'count-visit') continue;
    for (const row of counterRows(write)) addToSum(rows, row);
  }
  return [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}
