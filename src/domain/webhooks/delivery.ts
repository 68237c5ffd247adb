export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One line of the delivery log. */
export interface Delivery {
  readonly id: number;
  readonly endpointId: number;
  readonly eventId: string;
  readonly eventType: string;
  readonly status: DeliveryStatus;
  readonly attempts: number;
  readonly lastStatusCode: number | null;
  readonly lastError: string | null;
  readonly lastAttemptAt: number | null;
  readonly nextAttemptAt: number | null;
  readonly deliveredAt: number | null;
  readonly createdAt: number;
}
