import type { Kysely, Selectable } from 'kysely';
import type { Database, WebhookDeliveriesTable } from '../database.js';
import { findById } from '../find-by-id.js';
import { pageById } from '../paging.js';
import type { PageRequest } from '../../domain/pagination.js';
import type { Delivery, DeliveryStatus } from '../../domain/webhooks/delivery.js';
import { PENDING } from './pending-status.js';

export type { Delivery, DeliveryStatus };

type Db = Kysely<Database>;

export function toDelivery(row: Selectable<WebhookDeliveriesTable>): Delivery {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    eventPosition: Number(row.event_position),
    eventType: row.event_type,
    status: row.status as DeliveryStatus,
    attempts: row.attempts,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    lastAttemptAt: row.last_attempt_at,
    nextAttemptAt: row.status === 'pending' ? row.next_attempt_at : null,
    deliveredAt: row.delivered_at,
    createdAt: row.created_at,
  };
}

export interface DeliveryFilter {
  readonly status?: DeliveryStatus;
  readonly eventType?: string;
}

export async function listDeliveries(
  db: Db,
  endpointId: number,
  filter: DeliveryFilter,
  page: PageRequest,
): Promise<Delivery[]> {
  let query = db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.eventType !== undefined) query = query.where('event_type', '=', filter.eventType);
  const rows = await pageById(query, page).execute();
  return rows.map(toDelivery);
}

export async function findDelivery(db: Db, id: number): Promise<Delivery | undefined> {
  return findById(db, 'webhook_deliveries', id, toDelivery);
}

/** Due now, at the start of a fresh retry schedule (a claimed attempt in flight finishes first). */
export async function rescheduleDelivery(db: Db, id: number, now: number): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', round_failures: 0, next_attempt_at: now })
    .where('id', '=', id)
    .execute();
}

/** Every failed delivery of the endpoint created since `since`, due now again. Returns how many. */
export async function recoverDeliveries(
  db: Db,
  endpointId: number,
  since: number,
  now: number,
): Promise<number> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', round_failures: 0, next_attempt_at: now })
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'failed')
    .where('created_at', '>=', since)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The endpoint's deliveries pending: read through its index, when a failure warning is written (src/services/webhooks/failure-log.ts). */
export async function countPendingDeliveries(db: Db, endpointId: number): Promise<number> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', PENDING)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Per endpoint: deliveries pending, and the creation time of the oldest. */
export async function pendingByEndpoint(
  db: Db,
): Promise<{ endpointId: number; count: number; oldest: number }[]> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => [
      'endpoint_id',
      eb.fn.countAll<number>().as('count'),
      eb.fn.min('created_at').as('oldest'),
    ])
    .where('status', '=', PENDING)
    .groupBy('endpoint_id')
    .execute();
  return rows.map((row) => ({
    endpointId: row.endpoint_id,
    count: Number(row.count),
    oldest: Number(row.oldest),
  }));
}
