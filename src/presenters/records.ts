import { viewMemberDetails, type MemberDetailsView } from '../domain/member-details.js';
import { displayStatus } from '../domain/checkin-condition.js';
import type {
  ApiKey,
  Checkin,
  Gym,
  LedgerEntry,
  Partner,
  PayoutLine,
  Product,
  Reversal,
} from '../domain/entities.js';
import type { Operator } from '../domain/operator.js';
import type { Settlement } from '../domain/settlement.js';
import type { Page } from '../domain/pagination.js';
import { formatInstant, formatValidatedAt } from '../domain/time-format.js';

/**
 * The records as the operator API answers them and the CLI prints them (JSON, CSV, tables): snake_case, ISO-8601
 * UTC times with milliseconds. Both import them from here, so the two never drift apart; where the partner API
 * shows the same record (settlements, ledger entries), its view is built from the same fields here too.
 */
const instantOrNull = (value: number | null) => (value === null ? null : formatInstant(value));

export const presentPartner = (partner: Partner) => ({
  id: partner.id,
  name: partner.name,
  ...(partner.sandbox ? { sandbox: true as const } : {}),
  offboarded_at: instantOrNull(partner.offboardedAt),
  created_at: formatInstant(partner.createdAt),
});

export const presentGym = (gym: Gym) => ({
  id: gym.id,
  partner_id: gym.partnerId,
  name: gym.name,
  /** null: the server's GATEHOUSE_TIMEZONE. */
  timezone: gym.timezone,
  retired_at: instantOrNull(gym.retiredAt),
  created_at: formatInstant(gym.createdAt),
});

export const presentProduct = (product: Product) => ({
  id: product.id,
  gym_id: product.gymId,
  description: product.description,
  payout_cents: product.payoutCents,
  currency: product.currency,
  retired_at: instantOrNull(product.retiredAt),
  category: product.category,
});

export const presentKey = (key: ApiKey) => ({
  id: key.id,
  prefix: key.prefix,
  label: key.label,
  gym_ids: key.gymIds === null ? null : [...key.gymIds],
  expires_at: instantOrNull(key.expiresAt),
  last_used_at: instantOrNull(key.lastUsedAt),
  revoked_at: instantOrNull(key.revokedAt),
  created_at: formatInstant(key.createdAt),
});

export const presentOperator = (operator: Operator) => ({
  id: operator.id,
  name: operator.name,
  role: operator.role,
  prefix: operator.prefix,
  expires_at: instantOrNull(operator.expiresAt),
  revoked_at: instantOrNull(operator.revokedAt),
  created_by: operator.createdBy,
  created_at: formatInstant(operator.createdAt),
});

/** A check-in; its member details as the caller may see them (an operator's role may mask them). */
export const presentCheckin = (checkin: Checkin, now: number, view: MemberDetailsView = 'full') => ({
  id: checkin.id,
  platform_id: checkin.platformId,
  gym_id: checkin.gymId,
  product_id: checkin.productId,
  status: displayStatus(checkin, now),
  checked_in_at: formatInstant(checkin.checkedInAt),
  expires_at: formatInstant(checkin.expiresAt),
  validated_at: instantOrNull(checkin.validatedAt),
  cancelled_at: instantOrNull(checkin.cancelledAt),
  ...(checkin.member === undefined ? {} : { member: viewMemberDetails(checkin.member, view) }),
  ...(checkin.plan === undefined ? {} : { plan: { id: checkin.plan.id, version: checkin.plan.version } }),
});

/** A ledger entry: a visit, or a reversal (negative, naming the visit it `reverses`, with its reason). */
/** An entry's amount, times and link to what it reverses: the same in both APIs. */
const entryFigures = (entry: LedgerEntry) => ({
  payout_cents: entry.payoutCents,
  currency: entry.currency,
  validated_at: formatValidatedAt(entry.validatedAt),
  effective_at: formatValidatedAt(entry.effectiveAt),
  reverses: entry.reverses,
  reason: entry.reason,
  pricing: {
    list_cents: entry.pricing.listCents,
    paid_cents: entry.pricing.paidCents,
    rule: entry.pricing.rule,
    version: entry.pricing.version,
  },
});

export const presentTransaction = (entry: LedgerEntry) => ({
  id: entry.id,
  kind: entry.kind,
  checkin_id: entry.checkinId,
  partner_id: entry.partnerId,
  gym_id: entry.gymId,
  product_id: entry.productId,
  platform_id: entry.platformId,
  ...entryFigures(entry),
});

/**
 * A ledger entry as the partner API shows it (its transactions feed, a settlement's entries): the product named,
 * the partner and gym left out (the key's), `Id` capitalised as the spec's product is.
 */
export const presentGymTransaction = (entry: LedgerEntry & { readonly productDescription: string }) => ({
  id: entry.id,
  kind: entry.kind,
  checkin_id: entry.checkinId,
  platform_id: entry.platformId,
  product: { Id: entry.productId, description: entry.productDescription },
  ...entryFigures(entry),
});

/** An entry a settlement holds: `late` when it is effective before the settlement's period (its own date kept). */
/**
 * An entry's pricing as columns of their own, after the entry's: what CSV exports and the CLI's tables show, as a
 * spreadsheet reads no object (the JSON answers keep `pricing`). Paid is `payout_cents`.
 */
export const PRICING_COLUMNS = ['list_cents', 'pricing_rule', 'pricing_version'] as const;

export function withFlatPricing<T extends ReturnType<typeof entryFigures>>(record: T) {
  const { pricing, ...rest } = record;
  return {
    ...rest,
    list_cents: pricing.list_cents,
    pricing_rule: pricing.rule,
    pricing_version: pricing.version,
  };
}

export const presentSettledEntry = (entry: LedgerEntry & { readonly late: boolean }) => ({
  ...presentTransaction(entry),
  late: entry.late,
});

/** The same, as the partner API shows it. */
export const presentGymSettledEntry = (
  entry: LedgerEntry & { readonly productDescription: string; readonly late: boolean },
) => ({ ...presentGymTransaction(entry), late: entry.late });

export const presentReversal = (reversal: Reversal) => ({
  id: reversal.id,
  transaction_id: reversal.transactionId,
  kind: 'reversal' as const,
  amount_cents: reversal.payoutCents,
  currency: reversal.currency,
  reason: reversal.reason,
  effective_at: formatInstant(reversal.effectiveAt),
  created_by: reversal.createdBy,
});

const presentPayout = (line: PayoutLine) => ({
  partner_id: line.partnerId,
  gym_id: line.gymId,
  currency: line.currency,
  count: line.count,
  reversals: line.reversals,
  payout_cents: line.payoutCents,
});

/** A payout line of a listing: one of sandbox partners' (summed apart, never owed) says so. */
export const presentListedPayout = (line: PayoutLine, sandbox: boolean) => ({
  ...presentPayout(line),
  ...(sandbox ? { sandbox: true as const } : {}),
});

export function presentPage<T, W>(page: Page<T>, present: (item: T) => W) {
  return { items: page.items.map(present), next_cursor: page.nextCursor };
}

/**
 * A settlement as its partner sees it (the partner API's settlements): neither whose it is nor who closed it. The
 * operator's view below adds those, so the two answers share every other field.
 */
export const presentPartnerSettlement = (settlement: Settlement) => ({
  id: settlement.id,
  currency: settlement.currency,
  period_start: formatInstant(settlement.periodStart),
  period_end: formatInstant(settlement.periodEnd),
  status: settlement.status,
  total_cents: settlement.totalCents,
  count: settlement.count,
  lines: settlement.lines.map((line) => ({
    gym_id: line.gymId,
    count: line.count,
    total_cents: line.totalCents,
    pricing: line.pricing.map((part) => ({
      rule: part.rule,
      count: part.count,
      list_cents: part.listCents,
      paid_cents: part.paidCents,
    })),
  })),
  paid_at: instantOrNull(settlement.paidAt),
  reference: settlement.reference,
});

export const presentSettlement = (settlement: Settlement) => {
  const { id, ...shared } = presentPartnerSettlement(settlement);
  return {
    id,
    partner_id: settlement.partnerId,
    ...shared,
    created_by: settlement.createdBy,
    created_at: formatInstant(settlement.createdAt),
  };
};

/** A settlement as a CSV row: its lines are listed by `settlements/:id/entries`. */
export const presentSettlementRow = (settlement: Settlement) => {
  const row: Partial<ReturnType<typeof presentSettlement>> = presentSettlement(settlement);
  delete row.lines;
  return row;
};
