import { endpointWants, memberKey, type WebhookEndpoint } from '../../domain/webhooks/endpoint.js';
import { isPostgres } from '../../store/column-types.js';
import { scanEvents } from '../../store/events/event-repository.js';
import type { StoreTransaction } from '../../store/store.js';
import {
  insertDeliveries,
  lastDispatchedTo,
  lockDispatchCursor,
} from '../../store/webhooks/webhook-dispatch-repository.js';

const WINDOW = 1000;

/**
 * In the caller's transaction (enable, recover): one delivery, due now, for every event the endpoint wants that the
 * dispatcher passed while it was disabled, as long as the event still has its payload (GATEHOUSE_EVENT_RETENTION_DAYS).
 * Read under the dispatcher's lock, up to its cursor: what lies beyond it the dispatcher fans out itself, now that
 * the endpoint is enabled. Returns how many it wrote.
 */
export async function sendMissed(
  trx: StoreTransaction,
  endpoint: WebhookEndpoint,
  now: number,
): Promise<number> {
  if (endpoint.status !== 'enabled') return 0;
  const cursor = await lockDispatchCursor(trx, isPostgres(trx) ? 'postgres' : 'sqlite');
  let after = await lastDispatchedTo(trx, endpoint.id);
  let written = 0;
  while (after < cursor) {
    const scan = await scanEvents(trx, { after, partnerId: endpoint.partnerId }, WINDOW, false);
    const missed = scan.events.filter(
      (event) => event.position <= cursor && event.data !== null && endpointWants(endpoint, event),
    );
    await insertDeliveries(
      trx,
      missed.map((event) => ({ endpointId: endpoint.id, event, memberKey: memberKey(event) })),
      now,
    );
    written += missed.length;
    if (scan.readTo === undefined) break;
    after = scan.readTo;
  }
  return written;
}
