import { displayStatus } from '../domain/checkin-condition.js';
import type {
  ApiKey,
  Checkin,
  Gym,
  LedgerTransaction,
  Partner,
  PayoutLine,
  Product,
} from '../domain/entities.js';
import type { Operator } from '../domain/operator.js';
import type { Page } from '../domain/pagination.js';
import { formatInstant, formatValidatedAt } from '../domain/time-format.js';

/**
 * The records as the operator API answers them and the CLI prints them (JSON, CSV, tables): snake_case, ISO-8601
 * UTC times with milliseconds. Both import them from here, so the two never drift apart.
 */
const instantOrNull = (value: number | null) => (value === null ? null : formatInstant(value));

export const presentPartner = (partner: Partner) => ({
  id: partner.id,
  name: partner.name,
  ...(partner.sandbox ? { sandbox: true as const } : {}),
  created_at: formatInstant(partner.createdAt),
});

export const presentGym = (gym: Gym) => ({
  id: gym.id,
  partner_id: gym.partnerId,
  name: gym.name,
  created_at: formatInstant(gym.createdAt),
});

export const presentProduct = (product: Product) => ({
  id: product.id,
  gym_id: product.gymId,
  description: product.description,
  payout_cents: product.payoutCents,
  currency: product.currency,
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

export const presentCheckin = (checkin: Checkin, now: number) => ({
  id: checkin.id,
  platform_id: checkin.platformId,
  gym_id: checkin.gymId,
  product_id: checkin.productId,
  status: displayStatus(checkin, now),
  checked_in_at: formatInstant(checkin.checkedInAt),
  expires_at: formatInstant(checkin.expiresAt),
  validated_at: instantOrNull(checkin.validatedAt),
  cancelled_at: instantOrNull(checkin.cancelledAt),
  ...(checkin.member === undefined ? {} : { member: checkin.member }),
});

export const presentTransaction = (transaction: LedgerTransaction) => ({
  id: transaction.id,
  checkin_id: transaction.checkinId,
  partner_id: transaction.partnerId,
  gym_id: transaction.gymId,
  product_id: transaction.productId,
  platform_id: transaction.platformId,
  payout_cents: transaction.payoutCents,
  currency: transaction.currency,
  validated_at: formatValidatedAt(transaction.validatedAt),
});
export const presentPayout = (line: PayoutLine) => ({
  partner_id: line.partnerId,
  gym_id: line.gymId,
  currency: line.currency,
  count: line.count,
  payout_cents: line.payoutCents,
});

export function presentPage<T, W>(page: Page<T>, present: (item: T) => W) {
  return { items: page.items.map(present), next_cursor: page.nextCursor };
}
