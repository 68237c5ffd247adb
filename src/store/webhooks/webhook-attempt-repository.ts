import type { Kysely, Selectable } from 'kysely';
import type { PageRequest } from '../../domain/pagination.js';
import type { DeliveryAttempt } from '../../domain/webhooks/delivery.js';
import type { Database, WebhookAttemptsTable } from '../database.js';
import { pageById } from '../paging.js';

type Db = Kysely<Database>;

function toAttempt(row: Selectable<WebhookAttemptsTable>): DeliveryAttempt {
  return {
    id: Number(row.id),
    deliveryId: Number(row.delivery_id),
    attempt: row.attempt,
    attemptedAt: Number(row.attempted_at),
    durationMs: row.duration_ms,
    statusCode: row.status_code,
    error: row.error,
    requestBody: row.request_body,
    responseExcerpt: row.response_excerpt,
  };
}

/** A delivery's attempts, a page at a time (they are written by src/store/webhooks/webhook-claim-repository.ts). */
export async function listAttempts(
  db: Db,
  deliveryId: number,
  page: PageRequest,
): Promise<DeliveryAttempt[]> {
  const query = db.selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', deliveryId);
  return (await pageById(query, page).execute()).map(toAttempt);
}

/** The attempts of an endpoint's deliveries go with them (the endpoint is removed). */
export async function deleteEndpointAttempts(db: Db, endpointId: number): Promise<void> {
  await db
    .deleteFrom('webhook_attempts')
    .where(
      'delivery_id',
      'in',
      db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', endpointId),
    )
    .execute();
}

/**
 * The bodies kept with attempts of these events' deliveries are forgotten with the events' payloads (purged after
 * the retention period, or erased with a member): a body is the payload in a receiver's format.
 */
export async function forgetAttemptBodies(
  db: Db,
  eventPositions: { from: number; to: number } | readonly number[],
) {
  let deliveries = db.selectFrom('webhook_deliveries').select('webhook_deliveries.id');
  if ('from' in eventPositions) {
    // A window of the log: only the events of it whose payload is gone.
    deliveries = deliveries
      .innerJoin('events', 'events.position', 'webhook_deliveries.event_position')
      .where('events.position', '>', eventPositions.from)
      .where('events.position', '<=', eventPositions.to)
      .where('events.data', 'is', null);
  } else if (eventPositions.length === 0) return;
  else deliveries = deliveries.where('webhook_deliveries.event_position', 'in', eventPositions);
  await db
    .updateTable('webhook_attempts')
    .set({ request_body: null })
    .where('request_body', 'is not', null)
    .where('delivery_id', 'in', deliveries)
    .execute();
}
