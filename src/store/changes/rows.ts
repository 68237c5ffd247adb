import { actorId, actorName, type AuditEvent } from '../../domain/audit.js';
import type { LatestCheckin } from '../../domain/decisions/validation.js';
import type { Checkin, LedgerTransaction } from '../../domain/entities.js';
import { newEventId, type NewEvent } from '../../domain/events.js';
import { memberColumn, memberFromColumn } from '../../domain/member-details.js';
import type { Pricing } from '../../domain/plans/payout-rules.js';
import type { Write } from '../../domain/writes.js';
import type { AuditLogTable, CheckinRow, EventsTable, TransactionRow } from '../database.js';

/**
 * The rows every write path shares — the query builder, SQLite's prepared statements, PostgreSQL's batch — built
 * and read here once, so the three write and read the same columns and values (docs/architecture.md, "The write
 * path").
 */

/** The latest check-in as every path reads it (one row: check-in, product, gym's partner). */
export interface LatestCheckinRow {
  id: number;
  status: LatestCheckin['status'];
  checked_in_at: number;
  expires_at: number;
  product_id: number;
  description: string;
  payout_cents: number;
  currency: string;
  partner_id: number;
  member: string | null;
  /** The id the validation's transaction takes: reserved where the check-in is pending (id-reservation.ts). */
  transaction_id: number | string | null;
}

export const toReservedId = (id: number | string | null): number | undefined =>
  id === null ? undefined : Number(id);

export function toLatestCheckin(row: LatestCheckinRow): LatestCheckin {
  return {
    id: row.id,
    status: row.status,
    checkedInAt: row.checked_in_at,
    expiresAt: row.expires_at,
    product: {
      id: row.product_id,
      description: row.description,
      payoutCents: row.payout_cents,
      currency: row.currency,
    },
    partnerId: row.partner_id,
    member: memberFromColumn(row.member),
  };
}

export function toCheckin(row: CheckinRow): Checkin {
  const member = memberFromColumn(row.member);
  return {
    id: row.id,
    platformId: row.platform_id,
    gymId: row.gym_id,
    productId: row.product_id,
    status: row.status,
    checkedInAt: row.checked_in_at,
    expiresAt: row.expires_at,
    validatedAt: row.validated_at,
    cancelledAt: row.cancelled_at,
    ...(member === undefined ? {} : { member }),
    ...(row.plan_id === null || row.plan_id === undefined
      ? {}
      : { plan: { id: Number(row.plan_id), version: Number(row.plan_version) } }),
  };
}

/**
 * A new check-in's row: pending (stamped, and counted under payout rules, later), with the id the store reserved
 * for it.
 */
export function checkinRow(checkin: Extract<Write, { kind: 'insert-checkin' }>['checkin']) {
  return {
    id: checkin.id,
    platform_id: checkin.platformId,
    gym_id: checkin.gymId,
    product_id: checkin.productId,
    status: 'pending' as const,
    checked_in_at: checkin.checkedInAt,
    expires_at: checkin.expiresAt,
    created_at: checkin.createdAt,
    member: memberColumn(checkin.member),
    plan_id: checkin.plan?.id ?? null,
    plan_version: checkin.plan?.version ?? null,
  } satisfies Omit<CheckinRow, 'validated_at' | 'cancelled_at' | 'counted_month' | 'counted_scope'>;
}

/** How a stored visit was priced: a row of a release before pricing was paid its list price. */
export function pricingOf(row: {
  payout_cents: number | string;
  list_cents: number | string | null;
  pricing_rule: string;
  rule_version: number | string | null;
}): Pricing {
  const paidCents = Number(row.payout_cents);
  return {
    listCents: row.list_cents === null ? paidCents : Number(row.list_cents),
    paidCents,
    rule:
      row.pricing_rule === 'monthly-cap' || row.pricing_rule === 'volume-tier' ? row.pricing_rule : 'list',
    version: row.rule_version === null ? null : Number(row.rule_version),
  };
}

/** A visit's transaction row. */
export function transactionRow(transaction: LedgerTransaction) {
  return {
    id: transaction.id,
    checkin_id: transaction.checkinId,
    partner_id: transaction.partnerId,
    gym_id: transaction.gymId,
    product_id: transaction.productId,
    platform_id: transaction.platformId,
    payout_cents: transaction.payoutCents,
    currency: transaction.currency,
    validated_at: transaction.validatedAt,
    list_cents: transaction.pricing.listCents,
    pricing_rule: transaction.pricing.rule,
    rule_version: transaction.pricing.version,
  } satisfies Omit<TransactionRow, 'commit_order'>;
}

/** An event's row: a fresh id, and its payload's JSON text exactly as JSON.stringify writes it. */
export function eventRow(event: NewEvent) {
  return {
    id: newEventId(),
    type: event.type,
    occurred_at: event.occurredAt,
    partner_id: event.partnerId,
    gym_id: event.gymId,
    data: JSON.stringify(event.data),
  } satisfies Omit<EventsTable, 'position'>;
}

/** An audit row. */
export function auditRow(entry: AuditEvent, at: number) {
  return {
    actor: actorName(entry.actor),
    action: entry.action,
    entity: entry.entity,
    entity_id: String(entry.entityId),
    at,
    actor_id: actorId(entry.actor),
  } satisfies Omit<AuditLogTable, 'id'>;
}

export type NewCheckinRow = ReturnType<typeof checkinRow>;
export type NewTransactionRow = ReturnType<typeof transactionRow>;
export type NewEventRow = ReturnType<typeof eventRow>;
export type NewAuditRow = ReturnType<typeof auditRow>;
