import type { Actor } from '../../domain/audit.js';
import { OPERATOR } from '../../domain/audit.js';
import { EntityNotFoundError } from '../../domain/errors.js';
import { toPage, type Page, type PageRequest } from '../../domain/pagination.js';
import { recordAudit } from '../../store/access/audit-repository.js';
import * as deliveries from '../../store/webhooks/webhook-delivery-repository.js';
import type { Delivery, DeliveryFilter } from '../../store/webhooks/webhook-delivery-repository.js';
import { deliveryBody, type WebhookEndpoint } from '../../domain/webhooks/endpoint.js';
import type { DeliveryAttempt } from '../../domain/webhooks/delivery.js';
import { findEvents } from '../../store/events/event-repository.js';
import { listAttempts } from '../../store/webhooks/webhook-attempt-repository.js';
import type { ServiceDependencies } from '../dependencies.js';
import { sendMissed } from './catch-up.js';
import { managedEndpoint, OPERATOR_MANAGER, type EndpointManager } from './endpoint-access.js';

/** The body every standard attempt of a delivery sends (src/services/webhooks/delivery-request.ts), from its event. */
async function deliveryOwnBody(
  store: ServiceDependencies['store'],
  endpoint: WebhookEndpoint,
  delivery: Delivery,
): Promise<string | null> {
  if (endpoint.format !== 'standard') return null;
  const event = (await findEvents(store.db, [delivery.eventPosition])).get(delivery.eventPosition);
  return event?.data == null ? null : deliveryBody(event);
}

/** The delivery log of an endpoint: read it, send one delivery again, recover every failure since a time. */
export function createDeliveryLogService({ store, clock }: ServiceDependencies) {
  /**
   * A delivery's attempts, each with the body it sent: kept with the attempt, or the delivery's own body rebuilt
   * from its event while the payload is kept (null once purged or erased).
   */
  async function attempts(
    endpointId: number,
    deliveryId: number,
    page: PageRequest,
    manager: EndpointManager = OPERATOR_MANAGER,
  ): Promise<Page<DeliveryAttempt>> {
    const endpoint = await managedEndpoint(store.db, endpointId, manager);
    const delivery = await deliveries.findDelivery(store.db, deliveryId);
    if (delivery === undefined || delivery.endpointId !== endpointId)
      throw new EntityNotFoundError('delivery');
    const listed = await listAttempts(store.db, deliveryId, page);
    const ownBody = listed.some((attempt) => attempt.requestBody === null)
      ? await deliveryOwnBody(store, endpoint, delivery)
      : null;
    const items = listed.map((attempt) => ({ ...attempt, requestBody: attempt.requestBody ?? ownBody }));
    return toPage(items, page.limit, page.order);
  }

  return {
    async list(
      endpointId: number,
      filter: DeliveryFilter,
      page: PageRequest,
      manager: EndpointManager = OPERATOR_MANAGER,
    ): Promise<Page<Delivery>> {
      await managedEndpoint(store.db, endpointId, manager);
      const listed = await deliveries.listDeliveries(store.db, endpointId, filter, page);
      return toPage(listed, page.limit, page.order);
    },

    attempts,

    /** A delivery's attempts, the delivery named by its id alone (the operator's CLI). */
    async attemptsOfDelivery(deliveryId: number, page: PageRequest): Promise<Page<DeliveryAttempt>> {
      const delivery = await deliveries.findDelivery(store.db, deliveryId);
      if (delivery === undefined) throw new EntityNotFoundError('delivery');
      return attempts(delivery.endpointId, deliveryId, page);
    },

    /** Sent again now (delivered or not), as a new attempt on a fresh retry schedule. */
    async retry(
      deliveryId: number,
      actor: Actor = OPERATOR,
      manager: EndpointManager = OPERATOR_MANAGER,
      /** When the caller names the endpoint too (the partner's path), the delivery must be one of its. */
      endpointId?: number,
    ): Promise<Delivery> {
      return store.write(async (trx) => {
        const delivery = await deliveries.findDelivery(trx, deliveryId);
        if (delivery === undefined || (endpointId !== undefined && delivery.endpointId !== endpointId)) {
          throw new EntityNotFoundError('delivery');
        }
        await managedEndpoint(trx, delivery.endpointId, manager).catch(() => {
          throw new EntityNotFoundError('delivery');
        });
        await deliveries.rescheduleDelivery(trx, deliveryId, clock.now());
        await recordAudit(
          trx,
          { actor, action: 'retry', entity: 'webhook', entityId: delivery.endpointId },
          clock.now(),
        );
        const rescheduled = await deliveries.findDelivery(trx, deliveryId);
        if (rescheduled === undefined) throw new EntityNotFoundError('delivery');
        return rescheduled;
      });
    },

    /**
     * Every failed delivery created since `since` is due again now, and an enabled endpoint is sent what it missed
     * while disabled (src/services/webhooks/catch-up.ts). Returns how many deliveries that makes.
     */
    async recover(
      endpointId: number,
      since: number,
      actor: Actor = OPERATOR,
      manager: EndpointManager = OPERATOR_MANAGER,
    ): Promise<number> {
      return store.write(async (trx) => {
        const endpoint = await managedEndpoint(trx, endpointId, manager);
        const count =
          (await deliveries.recoverDeliveries(trx, endpointId, since, clock.now())) +
          (await sendMissed(trx, endpoint, clock.now()));
        await recordAudit(
          trx,
          { actor, action: 'recover', entity: 'webhook', entityId: endpointId },
          clock.now(),
        );
        return count;
      });
    },

    /** For /metrics: pending deliveries and the age of the oldest, per endpoint. */
    pendingByEndpoint: () => deliveries.pendingByEndpoint(store.db),
  };
}

export type DeliveryLogService = ReturnType<typeof createDeliveryLogService>;
