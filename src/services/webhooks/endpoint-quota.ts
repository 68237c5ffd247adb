import { WebhookLimitError } from '../../domain/errors.js';
import type { Store, StoreTransaction } from '../../store/store.js';
import { countPartnerEndpoints } from '../../store/webhooks/webhook-endpoint-repository.js';
import type { ServiceObserver } from '../observer.js';

/**
 * Refuses a partner's next endpoint past its quota (409 `webhook.limit`, README "Webhooks"). Called first in the
 * creation's write transaction: the partner's lock (an advisory lock on PostgreSQL; SQLite's single writer) is held
 * from the count to the commit, so two creations racing at the last place cannot both get it.
 */
export async function assertEndpointRoom(
  store: Pick<Store, 'serialize'>,
  trx: StoreTransaction,
  partnerId: number,
  limit: number,
  observer: Pick<ServiceObserver, 'quotaRefused'>,
): Promise<void> {
  await store.serialize(trx, `webhooks:${partnerId}`);
  if ((await countPartnerEndpoints(trx, partnerId)) < limit) return;
  observer.quotaRefused('webhook_endpoints');
  throw new WebhookLimitError(limit);
}
